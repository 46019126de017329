// Waiting for processes to go idle (their CPU use read from /proc), as a benchmark does before it measures.
import { cpuSecondsOf } from './process-stats.js';

/**
 * Waits until every process named used under 5 % of a core in each of two half-seconds in a row
 * (at most a minute) and answers how long it waited.
 */
export async function untilIdle(pids: ReadonlyArray<number | undefined>): Promise<number> {
  const started = performance.now();
  const named = pids.filter((p): p is number => p !== undefined);
  let quietSamples = 0;
  let before = named.map(cpuSecondsOf);
  while (quietSamples < 2 && performance.now() - started < 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = named.map(cpuSecondsOf);
    quietSamples = now.every((seconds, i) => seconds - (before[i] ?? 0) < 0.025) ? quietSamples + 1 : 0;
    before = now;
  }
  return performance.now() - started;
}
