import type { HealthStatus } from '../checks/index.js';

/**
 * Rollups of check results per website, region and hour or UTC day: how many checks, of which
 * status, and their response times. Status pages, badges and the dashboard read these instead of
 * the raw results, of which a website checked every 10 s has 8,640 a day.
 *
 * They are kept as cells of one document per website and region (`<websiteId>:<region>`), keyed by
 * the day (`2026-11-24`) or hour (`2026-11-24T10`): a status page of 50 websites reads 50 documents
 * by primary key, the only read FerretDB 1.24 does not answer by scanning every document of the
 * collection (a query by website and time read every website's rollups of every day). This module
 * is the pure part: cells, increments, the update that writes them and the rows read back.
 */
export type RollupPeriod = 'hour' | 'day';

export interface RollupCounts {
  checks: number;
  up: number;
  degraded: number;
  down: number;
  /** Response times of the checks that got an answer (not down). */
  responseMsSum: number;
  responseMsCount: number;
  responseMsMax: number;
}

/** One website's rollups from one region, as stored. */
export interface WebsiteRollupsDocument {
  /** `<websiteId>:<region>`: one writer per region, so increments do not race. */
  _id: string;
  organizationId: number;
  websiteId: number;
  region: string;
  days: Record<string, RollupCounts>;
  hours: Record<string, RollupCounts>;
  /** Removed after this (a website no longer checked from this region): the last write + day retention. */
  expiresAt: Date;
}

/** One hour's or day's rollup of a website from a region, as readers get it. */
export interface ResultRollup extends RollupCounts {
  organizationId: number;
  websiteId: number;
  region: string;
  period: RollupPeriod;
  start: Date;
}

/** What a rollup needs of a result. */
export interface RolledResult {
  organizationId: number;
  websiteId: number;
  region: string;
  startedAt: Date;
  status: HealthStatus;
  timings: { total: number };
}

/** What one flush adds to one website-and-region document. */
export interface RollupIncrement {
  _id: string;
  organizationId: number;
  websiteId: number;
  region: string;
  cells: Record<RollupPeriod, Map<string, RollupCounts>>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const PERIOD_MS: Record<RollupPeriod, number> = { hour: HOUR_MS, day: DAY_MS };
/** Cells older than this are removed: hours after two days, days after the 90 of the uptime bars and today. */
export const ROLLUP_RETENTION_MS: Record<RollupPeriod, number> = { hour: 2 * DAY_MS, day: 91 * DAY_MS };
/** How many cells before the retention each write removes (a writer away this long leaves a few behind, unread). */
const CELLS_REMOVED_PER_WRITE: Record<RollupPeriod, number> = { hour: 24, day: 30 };
const FIELD_OF: Record<RollupPeriod, 'hours' | 'days'> = { hour: 'hours', day: 'days' };

export const rollupDocumentId = (websiteId: number, region: string) => `${websiteId}:${region}`;

/** The start of the hour or UTC day `at` falls in. */
export const periodStart = (period: RollupPeriod, at: Date) =>
  new Date(Math.floor(at.getTime() / PERIOD_MS[period]) * PERIOD_MS[period]);

/** A cell's key: `2026-11-24` for a day, `2026-11-24T10` for an hour (UTC). */
export const cellKey = (period: RollupPeriod, at: Date) =>
  periodStart(period, at)
    .toISOString()
    .slice(0, period === 'day' ? 10 : 13);

const CELL_KEY = { day: /^\d{4}-\d{2}-\d{2}$/, hour: /^\d{4}-\d{2}-\d{2}T\d{2}$/ } as const;

/** The start a cell key names, or null for a key that is not one of `period`'s. */
export function cellStart(period: RollupPeriod, key: string): Date | null {
  if (!CELL_KEY[period].test(key)) return null;
  const start = new Date(period === 'day' ? `${key}T00:00:00Z` : `${key}:00:00Z`);
  return Number.isNaN(start.getTime()) ? null : start;
}

const emptyCounts = (): RollupCounts => ({
  checks: 0,
  up: 0,
  degraded: 0,
  down: 0,
  responseMsSum: 0,
  responseMsCount: 0,
  responseMsMax: 0,
});

/** Adds a result to its hour's and its day's cells waiting to be written (pure: the map is the caller's). */
export function addToIncrements(increments: Map<string, RollupIncrement>, result: RolledResult): void {
  const id = rollupDocumentId(result.websiteId, result.region);
  let increment = increments.get(id);
  if (!increment) {
    increment = {
      _id: id,
      organizationId: result.organizationId,
      websiteId: result.websiteId,
      region: result.region,
      cells: { hour: new Map(), day: new Map() },
    };
    increments.set(id, increment);
  }
  for (const period of ['hour', 'day'] as const) {
    const key = cellKey(period, result.startedAt);
    const counts = increment.cells[period].get(key) ?? emptyCounts();
    counts.checks++;
    counts[result.status]++;
    if (result.status !== 'down') {
      counts.responseMsSum += result.timings.total;
      counts.responseMsCount++;
      counts.responseMsMax = Math.max(counts.responseMsMax, result.timings.total);
    }
    increment.cells[period].set(key, counts);
  }
}

/** Adds `from`'s cells into `into` (a write given up is merged back into the next flush's). */
export function mergeIncrement(into: RollupIncrement, from: RollupIncrement): void {
  for (const period of ['hour', 'day'] as const) {
    for (const [key, counts] of from.cells[period]) {
      const current = into.cells[period].get(key);
      if (!current) {
        into.cells[period].set(key, { ...counts });
        continue;
      }
      for (const field of ['checks', 'up', 'degraded', 'down', 'responseMsSum', 'responseMsCount'] as const)
        current[field] += counts[field];
      current.responseMsMax = Math.max(current.responseMsMax, counts.responseMsMax);
    }
  }
}

/**
 * The update that adds an increment to its document (an upsert): counts incremented, maxima kept,
 * and the cells that fell out of the retention at `now` removed, so a document stays the size of
 * 91 days and 48 hours.
 */
export function rollupUpdate(increment: RollupIncrement, now: Date) {
  const inc: Record<string, number> = {};
  const max: Record<string, number> = {};
  const unset: Record<string, ''> = {};
  for (const period of ['hour', 'day'] as const) {
    const field = FIELD_OF[period];
    for (const [key, counts] of increment.cells[period]) {
      for (const name of ['checks', 'up', 'degraded', 'down', 'responseMsSum', 'responseMsCount'] as const)
        inc[`${field}.${key}.${name}`] = counts[name];
      max[`${field}.${key}.responseMsMax`] = counts.responseMsMax;
    }
    const oldest = now.getTime() - ROLLUP_RETENTION_MS[period];
    for (let n = 1; n <= CELLS_REMOVED_PER_WRITE[period]; n++) {
      const key = cellKey(period, new Date(oldest - n * PERIOD_MS[period]));
      if (!increment.cells[period].has(key)) unset[`${field}.${key}`] = '';
    }
  }
  return {
    $setOnInsert: {
      organizationId: increment.organizationId,
      websiteId: increment.websiteId,
      region: increment.region,
    },
    $set: { expiresAt: new Date(now.getTime() + ROLLUP_RETENTION_MS.day) },
    $inc: inc,
    $max: max,
    $unset: unset,
  };
}

/** The document's rollups of `period` starting at `from` or later, oldest first. */
export function rollupRows(
  document: Pick<WebsiteRollupsDocument, 'organizationId' | 'websiteId' | 'region' | 'days' | 'hours'>,
  period: RollupPeriod,
  from: Date,
): ResultRollup[] {
  const rows: ResultRollup[] = [];
  for (const [key, counts] of Object.entries(document[FIELD_OF[period]] ?? {})) {
    const start = cellStart(period, key);
    if (!start || start < from) continue;
    rows.push({
      organizationId: document.organizationId,
      websiteId: document.websiteId,
      region: document.region,
      period,
      start,
      ...emptyCounts(),
      ...counts,
    });
  }
  return rows.sort((a, b) => a.start.getTime() - b.start.getTime());
}
