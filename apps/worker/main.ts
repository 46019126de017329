import { runFromEnvironment } from '../../libs/runtime/index.js';
import { startWorker } from './worker.js';

await runFromEnvironment('worker', (config, logger, signal) =>
  startWorker(config, logger, { signal, defaultMetrics: true }),
);
