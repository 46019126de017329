export {
  CHECK_JOB_NAME,
  type CheckJobData,
  CheckScheduler,
  checkSchedulerId,
  checksQueueName,
  type FirstCheck,
  isStale,
  type SchedulePlan,
  spreadOffsetMs,
  websiteIdOf,
} from './check-scheduler.js';
