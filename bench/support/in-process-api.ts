import { startApi } from '../../apps/api/api.js';
import { loadConfig } from '../../libs/config/index.js';
import { connectMongo, type Mongo } from '../../libs/db/index.js';
import { createLogger } from '../../libs/logging/index.js';
import { MonitoringNodeRepository, startHeartbeat } from '../../libs/nodes/index.js';

/**
 * The API in this process on the bench's databases (no rate limit, silent), a MongoDB client of the
 * bench's own, and a heartbeating node of the local region so websites are accepted and scheduled
 * (created paused: never checked). `stop` ends all three.
 */
export async function startInProcessApi(databases: { mongoUrl: string; redisUrl: string }) {
  const config = loadConfig({
    MONGODB_URL: databases.mongoUrl,
    REDIS_URL: databases.redisUrl,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    RATE_LIMIT_PER_MINUTE: '1000000',
    // The public budget per address too: the bench is one address measuring the server, not the limiter.
    PUBLIC_PAGES_PER_MINUTE: '1000000',
  });
  const api = await startApi(config, createLogger('api', 'silent'));
  const mongo: Mongo = await connectMongo(config.MONGODB_URL, {
    appName: 'bench',
    logger: createLogger('bench', 'silent'),
  });
  const node = await startHeartbeat({
    nodes: new MonitoringNodeRepository(mongo.db),
    node: { nodeId: 'bench-node', ip: '203.0.113.50', region: 'local', version: 'bench' },
    logger: createLogger('bench', 'silent'),
    intervalMs: 5_000,
  });
  return {
    api,
    mongo,
    config,
    async stop() {
      await node.stop();
      await mongo.client.close();
      await api.stop();
    },
  };
}
