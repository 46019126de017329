import { runFromEnvironment } from '../../libs/runtime/index.js';
import { startApi } from './api.js';

await runFromEnvironment('api', (config, logger, signal) =>
  startApi(config, logger, { signal, defaultMetrics: true }),
);
