import type { RollupCounts, RollupIncrement, RollupPeriod } from './rollup-cells.js';
import { addToIncrements, mergeIncrement } from './rollup-cells.js';

/* A former rollup folded into today's documents: RollupRepository.foldLegacyRollups reads and deletes them. */

/** Where rollups were kept before: one document per website, region, period and start. Folded in, then dropped. */
export const LEGACY_ROLLUPS = 'result_rollups';
export const LEGACY_FOLD_BATCH = 500;

export interface LegacyRollup extends RollupCounts {
  _id: string;
  organizationId: number;
  websiteId: number;
  region: string;
  period: RollupPeriod;
  start: Date;
}

export function foldLegacy(increments: Map<string, RollupIncrement>, legacy: LegacyRollup): void {
  const single = new Map<string, RollupIncrement>();
  // A former rollup is a cell: its counts are added as one result of each status would be, then
  // corrected to the stored sums (responses and maxima are not per result).
  addToIncrements(single, {
    organizationId: legacy.organizationId,
    websiteId: legacy.websiteId,
    region: legacy.region,
    startedAt: legacy.start,
    status: 'up',
    timings: { total: 0 },
  });
  const { checks, up, degraded, down, responseMsSum, responseMsCount, responseMsMax } = legacy;
  for (const increment of single.values()) {
    if (increment.period !== legacy.period) continue;
    for (const cell of increment.cells.values())
      Object.assign(cell, { checks, up, degraded, down, responseMsSum, responseMsCount, responseMsMax });
    const current = increments.get(increment._id);
    if (current) mergeIncrement(current, increment);
    else increments.set(increment._id, increment);
  }
}
