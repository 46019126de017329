export { LockTimeoutError, type MutexOptions, RedisMutex } from './redis-mutex.js';
