import { Cluster, type RedisOptions, Redis as SingleRedis } from 'ioredis';
import type { Logger } from '../logging/index.js';
import { retryUntilReady } from '../runtime/index.js';
import type { Redis } from './client.js';

export type { Redis } from './client.js';

export interface RedisConnectionOptions {
  /** Shown in Redis' CLIENT LIST and in logs. */
  name: string;
  logger: Logger;
  /**
   * `command`: fails fast while Redis is away (requests answer 503 instead of hanging);
   * `worker`: waits for Redis, as BullMQ workers require (`maxRetriesPerRequest: null`).
   */
  role: 'command' | 'worker';
  /** `url` names one node of a Redis Cluster; the others are found from it. */
  cluster?: boolean;
}

const reconnectDelay = (attempt: number) => Math.min(attempt * 200, 2000);

/**
 * The node a cluster client starts from, and what applies to every node, from a REDIS_URL: its
 * host (an IPv6 address without the URL's brackets), port, credentials and TLS (`rediss:`).
 */
export function clusterSeed(url: string): {
  host: string;
  port: number;
  username: string | undefined;
  password: string | undefined;
  tls: boolean;
} {
  const seed = new URL(url);
  return {
    host: seed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(seed.port || 6379),
    username: decodeURIComponent(seed.username) || undefined,
    password: decodeURIComponent(seed.password) || undefined,
    tls: seed.protocol === 'rediss:',
  };
}

/**
 * A Redis Cluster client seeded with the node `url` names (its credentials and TLS apply to every
 * node). Command connections pipeline automatically, so commands on keys of many hash slots (which
 * cannot share an MGET or a pipeline there) still leave in one write per node.
 */
function createCluster(url: string, options: RedisOptions & { autoPipelining: boolean }): Cluster {
  const { autoPipelining, enableOfflineQueue, ...nodeOptions } = options;
  const { host, port, username, password, tls } = clusterSeed(url);
  return new Cluster([{ host, port }], {
    enableAutoPipelining: autoPipelining,
    enableOfflineQueue,
    clusterRetryStrategy: reconnectDelay,
    redisOptions: { ...nodeOptions, username, password, tls: tls ? {} : undefined },
  });
}

/** An ioredis client that reconnects forever and logs each loss of connection once. */
export function createRedis(url: string, options: RedisConnectionOptions): Redis {
  const failFast = options.role === 'command';
  const connection: RedisOptions = {
    connectionName: options.name,
    connectTimeout: 3000,
    maxRetriesPerRequest: failFast ? 1 : null,
    enableOfflineQueue: !failFast,
    commandTimeout: failFast ? 3000 : undefined,
    retryStrategy: reconnectDelay,
  };
  const redis: Redis = options.cluster
    ? createCluster(url, { ...connection, autoPipelining: failFast })
    : new SingleRedis(url, connection);
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
export { existMany, getMany, queueName, setManyIfAbsent, slotTag } from './keys.js';
export { ListTopHints } from './list-top-hints.js';
export {
  createRedisRateLimiter,
  type RateLimitDecision,
  type RateLimiter,
} from './rate-limit.js';
export { KeptRecords, OrganizationSnapshots, RevisedMemory, Revisions } from './revisions.js';
export { type RedisScript, redisScript } from './script.js';
