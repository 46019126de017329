export {
  type CheckJobData,
  CheckScheduler,
  cadenceOffsetMs,
  checksQueueName,
  type FirstCheck,
  isStale,
  nextCheckAfterRun,
  nextCheckAt,
  type SchedulePlan,
  spreadOffsetMs,
  websiteCheckMember,
} from './check-scheduler.js';
export { type LaneWork, startDueLanes } from './due-lanes.js';
export {
  type Claimed,
  type DueMember,
  DueSet,
  dueMember,
  heartbeatDeadlinesKey,
  nextSlotAfter,
  type PutBack,
  parseDueMember,
  regionDueKey,
} from './due-set.js';
export { INTERVAL_LANES, type IntervalLane, LANES, type Lane } from './lanes.js';
