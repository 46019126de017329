export {
  CHECK_JOB_NAME,
  type CheckJobData,
  CheckScheduler,
  checkSchedulerId,
  checksQueueName,
  type FirstCheck,
  isStale,
  plannedAtOf,
  type SchedulePlan,
  spreadOffsetMs,
  websiteIdOf,
} from './check-scheduler.js';
