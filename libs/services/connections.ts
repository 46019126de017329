import type { AppConfig } from '../config/index.js';
import { connectMongo, ensureIndexes, type Mongo } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import { connectRedis, type Redis } from '../redis/index.js';
import { ALL_INDEXES } from './indexes.js';

/** What a process of the service starts from: its connections, with the indexes made. */
export interface ProcessConnections<Blocking extends Redis | null = Redis | null> {
  mongo: Mongo;
  /** Commands: fails fast while Redis is away. */
  redis: Redis;
  /** BullMQ workers' blocking connection: waits for Redis (only with `jobs`). */
  blocking: Blocking;
  /** Closes the connections (the process closes what it built over them first). */
  close(): Promise<void>;
}

/**
 * Connects a process (`webmon-<name>`) to MongoDB and Redis, waiting and logging while they are not
 * there yet, and creates the indexes. `jobs`: the process runs BullMQ workers, which need a
 * connection of their own.
 */
export async function openConnections<Jobs extends boolean>(options: {
  name: string;
  config: AppConfig;
  logger: Logger;
  jobs: Jobs;
  signal?: AbortSignal;
}): Promise<ProcessConnections<Jobs extends true ? Redis : null>> {
  const { name, config, logger, signal } = options;
  const mongo = await connectMongo(config.MONGODB_URL, { appName: `webmon-${name}`, logger, signal });
  const cluster = config.REDIS_CLUSTER;
  const redis = await connectRedis(config.REDIS_URL, { name, logger, role: 'command', cluster, signal });
  const blocking = options.jobs
    ? await connectRedis(config.REDIS_URL, { name: `${name}-jobs`, logger, role: 'worker', cluster, signal })
    : null;
  await ensureIndexes(mongo.db, ALL_INDEXES);
  return {
    mongo,
    redis,
    blocking: blocking as Jobs extends true ? Redis : null,
    async close() {
      await Promise.all(
        [redis, blocking].map((connection) => connection?.quit().catch(() => connection.disconnect())),
      );
      await mongo.client.close();
    },
  };
}
