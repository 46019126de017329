export { type RetryOptions, retryUntilReady } from './retry.js';
export { type RunningService, type RunServiceOptions, runService } from './run-service.js';
