import type { AppConfig } from '../../libs/config/index.js';
import { connectMongo } from '../../libs/db/index.js';
import type { Logger } from '../../libs/logging/index.js';
import { connectRedis } from '../../libs/redis/index.js';
import type { RunningService } from '../../libs/runtime/index.js';

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
  const redis = await connectRedis(config.REDIS_URL, {
    name: 'notifier',
    logger,
    role: 'worker',
    signal: options.signal,
  });
  return {
    async stop() {
      await redis.quit().catch(() => redis.disconnect());
      await mongo.client.close();
    },
  };
}
