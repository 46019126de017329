import type { Logger } from '../logging/index.js';

/** What a started process hands back so it can be stopped gracefully. */
export interface RunningService {
  /** Finishes or hands back in-flight work and closes every connection. */
  stop(): Promise<void>;
}

export interface RunServiceOptions {
  name: string;
  logger: Logger;
  /** How long `stop()` may take before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Builds the process; it receives a signal that aborts when shutdown is requested during start. */
  start(signal: AbortSignal): Promise<RunningService>;
}

/**
 * Runs one process of the product: starts it, stops it on SIGTERM/SIGINT (or when the launcher that
 * spawned it goes away), and exits 0 after a clean stop, 1 otherwise. A second signal forces the exit.
 */
export async function runService(options: RunServiceOptions): Promise<void> {
  const { name, logger, shutdownTimeoutMs } = options;
  const startAbort = new AbortController();
  let running: RunningService | undefined;
  let stopping = false;

  const shutdown = async (reason: string, exitCode: number): Promise<void> => {
    if (stopping) {
      logger.warn({ reason }, 'second shutdown request: exiting now');
      process.exit(1);
    }
    stopping = true;
    startAbort.abort();
    logger.info({ reason }, `${name} shutting down`);
    const timer = setTimeout(() => {
      logger.error({ shutdownTimeoutMs }, `${name} did not stop in time: exiting`);
      process.exit(1);
    }, shutdownTimeoutMs);
    timer.unref();
    try {
      await running?.stop();
      logger.info(`${name} stopped`);
      process.exit(exitCode);
    } catch (error) {
      logger.error({ err: error }, `${name} failed to stop cleanly`);
      process.exit(1);
    }
  };

  process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
  process.on('SIGINT', () => void shutdown('SIGINT', 0));
  // Spawned by the launcher with an IPC channel: its disappearance means nobody supervises us.
  if (process.send) process.on('disconnect', () => void shutdown('launcher gone', 0));
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    void shutdown('uncaught exception', 1);
  });
  process.on('unhandledRejection', (error) => {
    logger.fatal({ err: error }, 'unhandled promise rejection');
    void shutdown('unhandled rejection', 1);
  });

  try {
    running = await options.start(startAbort.signal);
    logger.info(`${name} started`);
    process.send?.({ type: 'ready', service: name });
  } catch (error) {
    if (stopping) return;
    logger.fatal({ err: error }, `${name} failed to start`);
    process.exit(1);
  }
}
