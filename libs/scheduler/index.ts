export {
  BUCKET_JOB_NAME,
  type BucketJobData,
  type BucketMember,
  bucketOf,
  CHECK_JOB_NAME,
  type CheckJobData,
  CheckScheduler,
  checksQueueName,
  type FirstCheck,
  isStale,
  parseBucketMember,
  plannedAtOf,
  type SchedulePlan,
  spreadOffsetMs,
} from './check-scheduler.js';
export {
  type DueMember,
  DueSet,
  dueMember,
  heartbeatDeadlinesKey,
  parseDueMember,
  regionDueKey,
} from './due-set.js';
export { LANES, type Lane } from './lanes.js';
