import { Redis } from 'ioredis';
import type { Logger } from '../logging/index.js';
import { retryUntilReady } from '../runtime/index.js';

export type { Redis } from 'ioredis';

export interface RedisConnectionOptions {
  /** Shown in Redis' CLIENT LIST and in logs. */
  name: string;
  logger: Logger;
  /**
   * `command`: fails fast while Redis is away (requests answer 503 instead of hanging);
   * `worker`: waits for Redis, as BullMQ workers require (`maxRetriesPerRequest: null`).
   */
  role: 'command' | 'worker';
}

/** An ioredis client that reconnects forever and logs each loss of connection once. */
export function createRedis(url: string, options: RedisConnectionOptions): Redis {
  const failFast = options.role === 'command';
  const redis = new Redis(url, {
    connectionName: options.name,
    connectTimeout: 3000,
    maxRetriesPerRequest: failFast ? 1 : null,
    enableOfflineQueue: !failFast,
    commandTimeout: failFast ? 3000 : undefined,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // One line when an outage starts and one when it ends: not one per reconnect attempt.
  let lostAt: number | null = null;
  redis.on('error', (error: Error) => {
    if (lostAt !== null) return;
    lostAt = Date.now();
    options.logger.warn({ err: error.message, connection: options.name }, 'Redis connection lost: retrying');
  });
  redis.on('ready', () => {
    if (lostAt !== null)
      options.logger.info(
        { connection: options.name, outageMs: Date.now() - lostAt },
        'Redis connection restored',
      );
    lostAt = null;
  });
  return redis;
}

/** Resolves once the client is connected, or rejects with the connection error. */
export function redisReady(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onReady = () => {
      redis.off('error', onError);
      resolve();
    };
    const onError = (error: Error) => {
      redis.off('ready', onReady);
      reject(error);
    };
    redis.once('ready', onReady);
    redis.once('error', onError);
  });
}

/** A client (see `createRedis`) once it is connected; waits, logging, while Redis is not there yet. */
export async function connectRedis(
  url: string,
  options: RedisConnectionOptions & { signal?: AbortSignal },
): Promise<Redis> {
  const redis = createRedis(url, options);
  try {
    await retryUntilReady(() => redisReady(redis), {
      what: 'Redis',
      logger: options.logger,
      signal: options.signal,
    });
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return redis;
}

/** True when Redis answers PING within `timeoutMs`. */
export async function pingRedis(redis: Redis, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([redis.ping().then((answer) => answer === 'PONG'), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export { type RedisDataWatch, watchRedisData } from './data-watch.js';
export { isRedisUnavailable, logUnlessConnectionLost, quietQueueErrors } from './errors.js';
export { startJobWorker } from './job-worker.js';
export {
  createRedisRateLimiter,
  type RateLimitDecision,
  type RateLimiter,
} from './rate-limit.js';
export { type RedisScript, redisScript } from './script.js';
