import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import { type Redis, startJobWorker } from '../redis/index.js';
import { HEARTBEAT_PINGS_QUEUE, type HeartbeatTokens, type PingJobData } from './heartbeat-pings.js';
import type { MonitorRunner } from './monitor-runner.js';

/** How often a worker looks for due heartbeat deadlines. */
const TICK_MS = 1000;

/**
 * A worker's share of heartbeats and the other monitors: the ping queue's consumer, a tick that
 * judges heartbeats' passed deadlines, and the reconciliation that refills Redis from MongoDB. The
 * monitors' checks are claimed by the worker's lanes (`startDueLanes`), as websites' are.
 */
export function startMonitorWorker(options: {
  runner: MonitorRunner;
  tokens: HeartbeatTokens;
  connection: Redis;
  prefix: string;
  logger: Logger;
  tickMs?: number;
}): { reconcile(): Promise<void>; stop(): Promise<void> } {
  const { runner, logger } = options;
  const pings = startJobWorker<PingJobData>({
    queue: HEARTBEAT_PINGS_QUEUE,
    connection: options.connection,
    prefix: options.prefix,
    logger,
    what: 'heartbeat ping',
    concurrency: 8,
    process: (job) => runner.onPing(job.data),
  });
  let ticking = false;
  // A failing tick is told once per streak (Redis away fails every second; its outage is logged already).
  let failing = false;
  const tick = setInterval(() => {
    if (ticking) return;
    ticking = true;
    runner
      .sweepDeadlines()
      .then(() => {
        failing = false;
      })
      .catch((error: unknown) => {
        if (failing) return;
        failing = true;
        logger.warn(
          { err: errorMessage(error) },
          "heartbeats' deadlines not claimed (Redis away?); tried again every second",
        );
      })
      .finally(() => {
        ticking = false;
      });
  }, options.tickMs ?? TICK_MS);
  const reconcile = async () => {
    try {
      const { monitors, removed } = await runner.reconcile(options.tokens);
      if (removed > 0) logger.info({ monitors, removed }, 'monitors of deleted websites removed');
    } catch (error) {
      logger.warn(
        { err: errorMessage(error) },
        'heartbeats and DNS/port checks not reconciled; retried at the next pass',
      );
    }
  };
  return {
    reconcile,
    async stop() {
      clearInterval(tick);
      await pings.close();
    },
  };
}
