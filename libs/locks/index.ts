export {
  type Lease,
  type LockedKeyOutcome,
  LockTimeoutError,
  type MutexOptions,
  RedisMutex,
} from './redis-mutex.js';
