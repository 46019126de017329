export { type CheckWorkerOptions, startCheckWorker } from './check.worker.js';
export { CheckRunner, type DomainExpiryLookup, plainHttpUrl, type RunOutcome } from './check-runner.js';
export { EventOutbox } from './event-outbox.js';
export { inMaintenanceAt, type MaintenanceSpanState, type MonitorStateDocument } from './monitor-state.js';
export {
  type EventDocument,
  type EventWebsite,
  type IncidentDocument,
  MonitorStateRepository,
  monitoringIndexes,
  websiteEvent,
} from './monitor-state.repository.js';
export { monitoringRoutes } from './monitoring.routes.js';
export {
  type CheckResultDocument,
  checkResultIndexes,
  ResultRepository,
} from './result.repository.js';
export {
  type Decision,
  type DecisionRules,
  decide,
  eventFor,
  type Health,
  INITIAL_STATE,
  type MonitorState,
  type RegionTrack,
  reportedStatus,
  type Settlement,
  type StatusEventKind,
  settle,
  type WebsiteStatus,
} from './status-machine.js';
export { percentile, UPTIME_PERIODS, type UptimePeriod, uptimeFigures } from './uptime.js';
