import { latencyBounds } from '../monitoring/index.js';

/** The `p`th percentile of a histogram's times (linear within its bucket), or null without times. */
export function percentileOf(
  histogram: Readonly<Record<string, number>>,
  p: number,
  maxMs: number,
): number | null {
  const buckets = Object.entries(histogram)
    .map(([key, count]) => ({ index: Number(key.slice(1)), count }))
    .filter((b) => Number.isInteger(b.index) && b.count > 0)
    .sort((a, b) => a.index - b.index);
  const total = buckets.reduce((sum, b) => sum + b.count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const { index, count } of buckets) {
    if (seen + count >= rank) {
      const { lower, upper } = latencyBounds(index);
      const top = Math.min(upper, Math.max(lower, maxMs));
      return Math.round(lower + ((top - lower) * (rank - seen - 0.5)) / count);
    }
    seen += count;
  }
  return null;
}
