import { type AppConfig, loadConfigOrExit } from '../config/index.js';
import { createLogger, type Logger } from '../logging/index.js';
import { type RunningService, runService } from './run-service.js';

/** The entry point of a process: configuration from the environment, a logger, then `runService`. */
export function runFromEnvironment(
  name: string,
  start: (config: AppConfig, logger: Logger, signal: AbortSignal) => Promise<RunningService>,
): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(name, config.LOG_LEVEL, config.LOG_FORMAT === 'pretty' ? 'pretty' : undefined);
  return runService({
    name,
    logger,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    start: (signal) => start(config, logger, signal),
  });
}
