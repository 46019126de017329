import type { AppConfig } from '../../libs/config/index.js';
import { connectMongo } from '../../libs/db/index.js';
import type { Logger } from '../../libs/logging/index.js';
import { createRedis, redisReady } from '../../libs/redis/index.js';
import { type RunningService, retryUntilReady } from '../../libs/runtime/index.js';

/**
 * The notifier process: holds its MongoDB and Redis connections and shuts down cleanly. Event
 * delivery (webhooks and native connectors) plugs into it with the alerting capability.
 */
export async function startNotifier(
  config: AppConfig,
  logger: Logger,
  options: { signal?: AbortSignal } = {},
): Promise<RunningService> {
  const mongo = await connectMongo(config.MONGODB_URL, {
    appName: 'webmon-notifier',
    logger,
    signal: options.signal,
  });
  const redis = createRedis(config.REDIS_URL, { name: 'notifier', logger, role: 'worker' });
  await retryUntilReady(() => redisReady(redis), { what: 'Redis', logger, signal: options.signal });
  return {
    async stop() {
      await redis.quit().catch(() => redis.disconnect());
      await mongo.client.close();
    },
  };
}
