import { errorMessage } from '../../libs/errors/index.js';
import type { Logger } from '../../libs/logging/index.js';
import type { DroppedCheckReason } from '../../libs/monitoring/index.js';

const WARM_UP_WAIT_MS = 60_000;

/**
 * Waits for the caches' warm-up (a scan beats a point read per website competing with it), but
 * not forever: after a minute checks start and read what is still missing one by one. A shutdown
 * requested meanwhile does not wait for it.
 */
export async function warmedUp(
  warmUp: () => Promise<{ websites: number; states: number }>,
  logger: Logger,
  signal: AbortSignal | undefined,
): Promise<void> {
  const started = Date.now();
  const done = warmUp().then(
    (primed) => logger.info({ ...primed, durationMs: Date.now() - started }, 'worker caches warmed up'),
    (error: unknown) => logger.warn({ err: errorMessage(error) }, 'cache warm-up failed'),
  );
  await Promise.race([
    done,
    new Promise((resolve) => setTimeout(resolve, WARM_UP_WAIT_MS).unref()),
    new Promise((resolve) => signal?.addEventListener('abort', resolve, { once: true })),
  ]);
}

/** Dropped checks counted as they come and logged once a minute at most. */
export function droppedChecksLog(
  logger: Logger,
  region: string,
): {
  dropped(reason: DroppedCheckReason): void;
  stop(): void;
} {
  let unlogged: Partial<Record<DroppedCheckReason, number>> = {};
  const timer = setInterval(() => {
    if (Object.keys(unlogged).length === 0) return;
    logger.warn(
      { dropped: unlogged, region },
      'checks dropped: stale ones would have started more than an interval after they were due, overlapping ones while the previous check of the website still ran (add workers or raise WORKER_CONCURRENCY if this lasts)',
    );
    unlogged = {};
  }, 60_000);
  return {
    dropped: (reason) => {
      unlogged[reason] = (unlogged[reason] ?? 0) + 1;
    },
    stop: () => clearInterval(timer),
  };
}
