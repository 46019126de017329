import { parentPort, workerData } from 'node:worker_threads';
import type { AppConfig } from '../../libs/config/index.js';
import { connectMongo } from '../../libs/db/index.js';
import { createLogger } from '../../libs/logging/index.js';
import { MaintenanceWindowRepository } from '../../libs/maintenance/index.js';
import { RollupRepository } from '../../libs/monitoring/index.js';
import { MonitorRepository } from '../../libs/monitors/index.js';
import { connectRedis } from '../../libs/redis/index.js';
import { createRecords, monitorStates } from '../../libs/services/index.js';
import { servePageBuilds } from '../../libs/status-pages/index.js';
import { listedCustomersOf, localPageBuilder, monitoringReadsOf } from './compose-pages.js';

/**
 * The API's thread that builds public status pages (see ThreadPageBuilder): connections of its
 * own, the API's configuration without its secrets keys (a page reads no secret).
 */
if (!parentPort) throw new Error('page-builder.thread runs as a worker thread of the API');
const { config } = workerData as { config: AppConfig };
const logger = createLogger(
  'api-pages',
  config.LOG_LEVEL,
  config.LOG_FORMAT === 'pretty' ? 'pretty' : undefined,
);
const mongo = await connectMongo(config.MONGODB_URL, { appName: 'webmon-api-pages', logger });
const redis = await connectRedis(config.REDIS_URL, {
  name: 'api-pages',
  logger,
  role: 'command',
  cluster: config.REDIS_CLUSTER,
});
const { db } = mongo;
const records = createRecords({ db, redis, config, logger });
const states = monitorStates(db, redis, config);
const reads = monitoringReadsOf({
  redis,
  config,
  states,
  rollups: new RollupRepository(db),
  listedCustomers: listedCustomersOf(records),
});
const builder = localPageBuilder({
  db,
  redis,
  config,
  records,
  reads,
  states,
  monitors: new MonitorRepository(db),
  windows: new MaintenanceWindowRepository(db),
});
await servePageBuilds(parentPort, builder);
await redis.quit().catch(() => redis.disconnect());
await mongo.client.close();
