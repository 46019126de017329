export {
  CHECK_JOB_NAME,
  type CheckJobData,
  CheckScheduler,
  checkSchedulerId,
  checksQueueName,
  type SchedulePlan,
  spreadOffsetMs,
  websiteIdOf,
} from './check-scheduler.js';
