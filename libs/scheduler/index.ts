export {
  BUCKET_JOB_NAME,
  type BucketJobData,
  bucketOf,
  CHECK_JOB_NAME,
  type CheckJobData,
  CheckScheduler,
  checksQueueName,
  type FirstCheck,
  isStale,
  plannedAtOf,
  type SchedulePlan,
  spreadOffsetMs,
} from './check-scheduler.js';
