import { loadConfigOrExit } from '../../libs/config/index.js';
import { createLogger } from '../../libs/logging/index.js';
import { runService } from '../../libs/runtime/index.js';
import { startApi } from './api.js';

const config = loadConfigOrExit();
const logger = createLogger('api', config.LOG_LEVEL);

await runService({
  name: 'api',
  logger,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
  start: (signal) => startApi(config, logger, { signal, defaultMetrics: true }),
});
