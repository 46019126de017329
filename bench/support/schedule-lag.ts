import type { Db } from 'mongodb';
import { cadenceOffsetMs } from '../../libs/scheduler/index.js';

/** The HTTP checks stored in a window and their schedule lags (ms, ascending). */
export interface HttpScheduleLags {
  results: Array<{ websiteId: number; status: string; startedAt: number; lagMs: number }>;
  lags: number[];
}

/**
 * The HTTP checks' schedule lag in [windowStart, windowEnd), from the stored results (as
 * bench:worker reads it): a check's start minus its slot, the slots being the website's cadence
 * offset + k·interval. `onlyWebsitesUpTo`: the seeded websites 1…n only (another website of the
 * benchmark, checked at another interval, has other slots).
 */
export async function httpScheduleLags(
  db: Db,
  window: { start: Date; end: Date; everySeconds: number; onlyWebsitesUpTo?: number },
): Promise<HttpScheduleLags> {
  const stored = await db
    .collection('check_results')
    .find(
      {
        startedAt: { $gte: window.start, $lt: window.end },
        ...(window.onlyWebsitesUpTo === undefined ? {} : { websiteId: { $lte: window.onlyWebsitesUpTo } }),
      },
      { projection: { websiteId: 1, startedAt: 1, status: 1 } },
    )
    .toArray();
  const everyMs = window.everySeconds * 1000;
  const results = stored.map((r) => {
    const startedAt = (r.startedAt as Date).getTime();
    const since = startedAt - cadenceOffsetMs(r.websiteId as number, everyMs);
    return {
      websiteId: r.websiteId as number,
      status: String(r.status),
      startedAt,
      lagMs: ((since % everyMs) + everyMs) % everyMs,
    };
  });
  return { results, lags: results.map((r) => r.lagMs).sort((a, b) => a - b) };
}
