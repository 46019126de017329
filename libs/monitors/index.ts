export {
  HEARTBEAT_PINGS_QUEUE,
  HeartbeatTokens,
  PINGS_PER_TOKEN,
  PingIntake,
  type PingJobData,
} from './heartbeat-pings.js';
export { createDnsCheckBody, dnsCheckView } from './kinds/dns/dns.schema.js';
export { createHeartbeatBody, heartbeatView } from './kinds/heartbeat/heartbeat.schema.js';
export { cronProblem, expectedAfter, heartbeatDeadline } from './kinds/heartbeat/heartbeat-schedule.js';
export {
  isProbeKind,
  kindTerms,
  MONITOR_KINDS,
  PROBE_KINDS,
  type ProbeKindName,
  STORED_MONITOR_KINDS,
  sealsMonitorEntry,
} from './kinds/index.js';
export { createPortCheckBody, portCheckView } from './kinds/port/port.schema.js';
export { SEALED_PLACEHOLDER } from './kinds/probe-kind.js';
export {
  type DnsCheckDocument,
  type MonitorDocument,
  type MonitorKind,
  MonitorRepository,
  monitorIndexes,
  monitorRevisions,
  type PortCheckDocument,
  type ProbeCheckDocument,
  WEBSITE_MONITORS,
} from './monitor.repository.js';
export { startMonitorWorker } from './monitor.worker.js';
export type { PendingMonitorRecord } from './monitor-committer.js';
export { MONITOR_STATUSES, type MonitorStatus } from './monitor-common.js';
export { createMonitorBody, MONITOR_CREATE_BODIES, type MonitorCreate } from './monitor-create.schema.js';
export { monitorHistories } from './monitor-histories.js';
export { MonitorRunner } from './monitor-runner.js';
export { MonitorSummaries, type MonitorSummary } from './monitor-summaries.js';
export { monitorRoutes } from './monitors.routes.js';
export { type MonitorDependencies, MonitorService } from './monitors.service.js';
export { pingRoutes } from './ping.routes.js';
export { createProbeCheckBodies } from './probe-check.schema.js';
