export {
  HEARTBEAT_PINGS_QUEUE,
  HeartbeatTokens,
  PING_BODY_KEPT_BYTES,
  PING_BODY_LIMIT_BYTES,
  PINGS_PER_TOKEN,
  PingIntake,
  type PingJobData,
  pingLog,
} from './heartbeat-pings.js';
export { createDnsCheckBody, dnsCheckView, updateDnsCheckBody } from './kinds/dns/dns.schema.js';
export {
  createHeartbeatBody,
  heartbeatPreviewBody,
  heartbeatPreviewView,
  heartbeatView,
  type PingKind,
  pingView,
  updateHeartbeatBody,
} from './kinds/heartbeat/heartbeat.schema.js';
export { cronProblem, expectedAfter, heartbeatDeadline } from './kinds/heartbeat/heartbeat-schedule.js';
export {
  heartbeatAt,
  isProbeKind,
  kindTerms,
  MONITOR_KINDS,
  PROBE_KINDS,
  type ProbeKindName,
  STORED_MONITOR_KINDS,
  sealsMonitorEntry,
} from './kinds/index.js';
export { createPortCheckBody, portCheckView, updatePortCheckBody } from './kinds/port/port.schema.js';
export { kindSchemaName, SEALED_PLACEHOLDER } from './kinds/probe-kind.js';
export {
  type DnsCheckDocument,
  type MonitorDocument,
  type MonitorKind,
  type MonitorLogEntry,
  MonitorRepository,
  monitorIndexes,
  monitorRevisions,
  type PortCheckDocument,
  type ProbeCheckDocument,
  WEBSITE_MONITORS,
} from './monitor.repository.js';
export { startMonitorWorker } from './monitor.worker.js';
export { isKeptMonitorEntry, type KeptMonitorEntry } from './monitor-committer.js';
export { MONITOR_STATUSES, type MonitorStatus } from './monitor-common.js';
export { createMonitorBody, MONITOR_CREATE_BODIES, type MonitorCreate } from './monitor-create.schema.js';
export { monitorHistories } from './monitor-histories.js';
export { MonitorRunner } from './monitor-runner.js';
export { MonitorSummaries, type MonitorSummary } from './monitor-summaries.js';
export { type MonitorDependencies, MonitorService } from './monitors.service.js';
export { createProbeCheckBodies, probeCheckViews, updateProbeCheckBody } from './probe-check.schema.js';
export { RunArtifacts, runArtifactIndexes } from './run-artifacts.js';
export { ARTIFACT_CONTENT_TYPES, type ArtifactKind } from './run-files.js';
export { type JourneyRunDay, RunTallies, RunTallyRecorder, TALLY_FLUSH_MS } from './run-tallies.js';
export { isTalliedKind, TALLIED_KINDS, type TalliedKind } from './run-tally.js';
export { shownSettings } from './sealed-settings.js';
export { isSiteRunKind } from './site-run-requests.js';
