export { availability, coveredMs, type Span, unionOf } from './availability.js';
export {
  CheckFeed,
  type CheckFeedMessage,
  type CustomerFeedMessage,
  checkFeedChannel,
  type FeedMessage,
  feedMessage,
  RECENT_CHECKS,
  type RecentCheck,
  type WebsiteFeedMessage,
} from './check-feed.js';
export { type DomainExpiryLookup, plainHttpUrl } from './check-observation.js';
export {
  CHECK_PATH_MONGO_TIMEOUT_MS,
  CheckRunner,
  type PendingRecord,
  type RunOutcome,
} from './check-runner.js';
export { freshWithinMsOf } from './decision-rules.js';
export { EVIDENCE_BODY_EVERY_MS, type EvidenceBodyGate, RedisEvidenceBodyGate } from './failure-evidence.js';
export {
  IncidentTimelines,
  SYSTEM,
  TIMELINE_KINDS,
  type TimelineActor,
  type TimelineEntry,
  timelineActorSchema,
  timelineAlertSchema,
  timelineEscalationSchema,
  timelineHints,
} from './incident-timeline.js';
export { listedStatuses } from './listed-statuses.js';
export { mergedPage, notACursor, type PagedEntry, type PagedSource } from './merged-pages.js';
export {
  afterPlacement,
  afterResult,
  atMaintenanceBoundary,
  type MonitorOutcome,
  type PlannedEvent,
  statusEventFor,
  withReported,
} from './monitor-decisions.js';
export {
  inMaintenanceAt,
  type MaintenanceSpanState,
  type MonitorRef,
  type MonitorStateDocument,
  monitorKey,
  monitorRefSchema,
  monitorStateSchema,
  OTHER_MONITOR_KINDS,
  type OtherMonitorKind,
} from './monitor-state.js';
export {
  type IncidentAcknowledgement,
  type IncidentDocument,
  MonitorStateRepository,
  monitoringIndexes,
} from './monitor-state.repository.js';
export {
  type DurableEffects,
  type EventDetails,
  type EventLinks,
  type EventWebsite,
  type MongoWrites,
  type MonitorSubject,
  MonitorTransitions,
  type TransitionPlan,
} from './monitor-transition.js';
export { monitoringGauges } from './monitoring-gauges.js';
export { CHECKED_KINDS, type OtherResultItem, otherResultView } from './other-result-view.js';
export { PendingRecords } from './pending-records.js';
export { PlacementStatus } from './placement-status.js';
export {
  type CheckResultDocument,
  checkResultIndexes,
  ResultRepository,
  summaryOf,
} from './result.repository.js';
export {
  type CommitEntry,
  type CommitSteps,
  commitResult,
  isRecordRetryable,
  type KeptEntries,
  writeKept,
} from './result-commit.js';
export {
  LATENCY_BUCKETS,
  latencyBounds,
  latencyBucket,
  periodStart,
  type ResultRollup,
  type RollupBucketDocument,
  type RollupPeriod,
} from './rollup-cells.js';
export { FOLD_AFTER_MS, rollupMonthIndexes, WEBSITE_ROLLUP_MONTHS } from './rollup-months.js';
export {
  ROLLUP_FLUSH_MS,
  RollupRecorder,
  RollupRepository,
  rollupIndexes,
  WEBSITE_ROLLUPS,
} from './rollups.js';
export { type RunScreenshot, runScreenshotPath } from './run-screenshot.js';
export {
  type Decision,
  type DecisionRules,
  decide,
  freshWindowMs,
  type Health,
  INITIAL_STATE,
  isFresh,
  type MonitorState,
  type RegionTrack,
  reevaluate,
  reportedStatus,
  type Settlement,
  settle,
  WEBSITE_STATUSES,
  type WebsiteStatus,
} from './status-machine.js';
export { percentile, UPTIME_PERIODS, type UptimePeriod, uptimeFigures } from './uptime.js';
export { type DroppedCheckReason, type WebsiteChecksOptions, websiteChecks } from './website-check-lane.js';
export { workerMetrics } from './worker-metrics.js';
