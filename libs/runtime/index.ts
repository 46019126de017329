export { descendantsOf, lowerPriorityOfNewChildren } from './child-priority.js';
export {
  ConcurrencyLimit,
  ConcurrencyLimitFullError,
  type ConcurrencyLimitOptions,
} from './concurrency-limit.js';
export { backgroundTurns, EventLoopTurns, mapInTurns, WORK_SLICE_MS } from './event-loop-turns.js';
export { groupBy } from './group-by.js';
export { growingUpTo } from './lru-growing-bound.js';
export { ProcessSupervisor, type SupervisedProcess } from './process-supervisor.js';
export {
  answerRequests,
  RequestThread,
  type RequestThreadOptions,
  type ThreadAnswer,
} from './request-thread.js';
export { type RetryOptions, retryUntilReady } from './retry.js';
export { RoundRobinQueue } from './round-robin.js';
export { runFromEnvironment } from './run-from-env.js';
export { type RunningService, type RunServiceOptions, runService } from './run-service.js';
export { SERVICE_VERSION } from './version.js';
