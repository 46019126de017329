import { loadConfigOrExit } from '../../libs/config/index.js';
import { createLogger } from '../../libs/logging/index.js';
import { runService } from '../../libs/runtime/index.js';
import { startWorker } from './worker.js';

const config = loadConfigOrExit();
const logger = createLogger('worker', config.LOG_LEVEL);

await runService({
  name: 'worker',
  logger,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
  start: (signal) => startWorker(config, logger, { signal }),
});
