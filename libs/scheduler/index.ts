export {
  CHECK_JOB_NAME,
  type CheckJobData,
  CheckScheduler,
  checkSchedulerId,
  checksQueueName,
  type SchedulePlan,
} from './check-scheduler.js';
