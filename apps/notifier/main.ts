import { loadConfigOrExit } from '../../libs/config/index.js';
import { createLogger } from '../../libs/logging/index.js';
import { runService } from '../../libs/runtime/index.js';
import { startNotifier } from './notifier.js';

const config = loadConfigOrExit();
const logger = createLogger('notifier', config.LOG_LEVEL);

await runService({
  name: 'notifier',
  logger,
  shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
  start: (signal) => startNotifier(config, logger, { signal }),
});
