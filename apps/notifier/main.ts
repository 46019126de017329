import { runFromEnvironment } from '../../libs/runtime/index.js';
import { startNotifier } from './notifier.js';

await runFromEnvironment('notifier', (config, logger, signal) =>
  startNotifier(config, logger, { signal, defaultMetrics: true }),
);
