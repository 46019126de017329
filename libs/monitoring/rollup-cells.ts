import type { HealthStatus } from '../checks/index.js';

/**
 * Rollups of check results per website, region and hour or UTC day: how many checks, of which
 * status, and their response times. Status pages, badges and the dashboard read these instead of
 * the raw results, of which a website checked every 10 s has 8,640 a day.
 *
 * They are kept as cells of documents per website, region and bucket — a UTC day of hours
 * (`<websiteId>:<region>:hour:2026-11-24`, cells `10`…) or a UTC month of days
 * (`<websiteId>:<region>:day:2026-11`, cells `24`…) — so a status page of 50 websites reads 50 × 6
 * small documents by primary key, the only read FerretDB 1.24 does not answer by scanning every
 * document of the collection (a query by website and time read every website's rollups of every
 * day), and a flush rewrites two small documents per website and region (FerretDB rewrites a whole
 * document on each update: one document of three months of cells cost 14 ms a write). This
 * module is the pure part: buckets, cells, increments, the update that writes them and the rows
 * read back.
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
  /**
   * How many response times fell in each latency bucket (`b<index>`: see `latencyBucket`), for
   * percentiles over any span of cells; absent in cells written before it was kept.
   */
  latency?: Record<string, number>;
  /** The latest certificate expiry seen (ms since the epoch): a report's without a raw result. */
  sslValidTo?: number;
}

/** One website's rollups from one region for one bucket (a UTC day of hours or month of days), as stored. */
export interface RollupBucketDocument {
  /** `<websiteId>:<region>:<period>:<bucket>`: one writer per region, so increments do not race. */
  _id: string;
  organizationId: number;
  websiteId: number;
  region: string;
  period: RollupPeriod;
  /** By the hour (`"10"`) or the day of the month (`"24"`). */
  cells: Record<string, RollupCounts>;
  /** Removed after this: hours two days after their day, days 800 days after their month. */
  expiresAt: Date;
  /** How many flushes wrote a day document (absent before it was counted: none). */
  writes?: number;
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
  ssl?: { validTo: Date } | null;
}

/** What one flush adds to one bucket document. */
export interface RollupIncrement {
  _id: string;
  organizationId: number;
  websiteId: number;
  region: string;
  period: RollupPeriod;
  /** When the bucket starts (UTC). */
  bucketStart: Date;
  cells: Map<string, RollupCounts>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const PERIOD_MS: Record<RollupPeriod, number> = { hour: HOUR_MS, day: DAY_MS };
/**
 * How long cells are kept after their bucket ends: hours two days; days 800, so that a report of up
 * to 400 days can be compared with the 400 before it.
 */
export const ROLLUP_RETENTION_MS: Record<RollupPeriod, number> = { hour: 2 * DAY_MS, day: 800 * DAY_MS };

/**
 * Latency buckets: bucket 0 holds times under 10 ms, bucket i times from 10·1.15^(i−1) to 10·1.15^i
 * ms, the last everything slower (about 2 minutes on). A percentile read from them is within ~7 %.
 */
const LATENCY_BASE_MS = 10;
const LATENCY_GROWTH = 1.15;
export const LATENCY_BUCKETS = 68;

export function latencyBucket(ms: number): number {
  if (ms < LATENCY_BASE_MS) return 0;
  const index = Math.floor(Math.log(ms / LATENCY_BASE_MS) / Math.log(LATENCY_GROWTH)) + 1;
  return Math.min(index, LATENCY_BUCKETS - 1);
}

/** The times bucket `index` holds: [lower, upper) ms (the last one's upper bound is open). */
export function latencyBounds(index: number): { lower: number; upper: number } {
  if (index <= 0) return { lower: 0, upper: LATENCY_BASE_MS };
  return {
    lower: LATENCY_BASE_MS * LATENCY_GROWTH ** (index - 1),
    upper:
      index >= LATENCY_BUCKETS - 1 ? Number.POSITIVE_INFINITY : LATENCY_BASE_MS * LATENCY_GROWTH ** index,
  };
}

/** The start of the hour or UTC day `at` falls in. */
export const periodStart = (period: RollupPeriod, at: Date) =>
  new Date(Math.floor(at.getTime() / PERIOD_MS[period]) * PERIOD_MS[period]);

/** The start of the bucket holding `at`'s cell: its UTC day (hours) or month (days). */
export function bucketStart(period: RollupPeriod, at: Date): Date {
  if (period === 'hour') return periodStart('day', at);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export function nextBucket(period: RollupPeriod, start: Date): Date {
  if (period === 'hour') return new Date(start.getTime() + DAY_MS);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

export function rollupDocumentId(
  websiteId: number,
  region: string,
  period: RollupPeriod,
  start: Date,
): string {
  const bucket = start.toISOString().slice(0, period === 'hour' ? 10 : 7);
  return `${websiteId}:${region}:${period}:${bucket}`;
}

/** The starts of the buckets holding cells from `from` to `to`, oldest first. */
export function bucketsBetween(period: RollupPeriod, from: Date, to: Date): Date[] {
  const starts: Date[] = [];
  for (let start = bucketStart(period, from); start <= to; start = nextBucket(period, start))
    starts.push(start);
  return starts;
}

/** A cell's key in its bucket: the hour (`"07"`) or the day of the month (`"24"`), UTC. */
export const cellKey = (period: RollupPeriod, at: Date) =>
  String(period === 'hour' ? at.getUTCHours() : at.getUTCDate()).padStart(2, '0');

/** The start of a bucket's cell, or null for a key that is not one of its cells. */
export function cellStart(period: RollupPeriod, bucket: Date, key: string): Date | null {
  if (!/^\d{2}$/.test(key)) return null;
  const n = Number(key);
  if (period === 'hour') return n < 24 ? new Date(bucket.getTime() + n * HOUR_MS) : null;
  const start = new Date(bucket.getTime() + (n - 1) * DAY_MS);
  return n >= 1 && start < nextBucket('day', bucket) ? start : null;
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
  for (const period of ['hour', 'day'] as const) {
    const start = bucketStart(period, result.startedAt);
    const id = rollupDocumentId(result.websiteId, result.region, period, start);
    let increment = increments.get(id);
    if (!increment) {
      increment = {
        _id: id,
        organizationId: result.organizationId,
        websiteId: result.websiteId,
        region: result.region,
        period,
        bucketStart: start,
        cells: new Map(),
      };
      increments.set(id, increment);
    }
    const key = cellKey(period, result.startedAt);
    const counts = increment.cells.get(key) ?? emptyCounts();
    counts.checks++;
    counts[result.status]++;
    if (result.status !== 'down') {
      counts.responseMsSum += result.timings.total;
      counts.responseMsCount++;
      counts.responseMsMax = Math.max(counts.responseMsMax, result.timings.total);
      const bucket = `b${latencyBucket(result.timings.total)}`;
      counts.latency = { ...counts.latency, [bucket]: (counts.latency?.[bucket] ?? 0) + 1 };
    }
    const validTo = result.ssl?.validTo.getTime();
    if (validTo !== undefined) counts.sslValidTo = Math.max(counts.sslValidTo ?? 0, validTo);
    increment.cells.set(key, counts);
  }
}

const SUMMED = ['checks', 'up', 'degraded', 'down', 'responseMsSum', 'responseMsCount'] as const;

/** Adds `counts` into `into`: sums summed, maxima kept, histograms added. */
function addCounts(into: RollupCounts, counts: RollupCounts): void {
  for (const field of SUMMED) into[field] += counts[field];
  into.responseMsMax = Math.max(into.responseMsMax, counts.responseMsMax);
  into.latency = addedLatency(into.latency, counts.latency);
  if (counts.sslValidTo !== undefined) into.sslValidTo = Math.max(into.sslValidTo ?? 0, counts.sslValidTo);
}

/** Adds `from`'s cells into `into` (a write given up is merged back into the next flush's). */
export function mergeIncrement(into: RollupIncrement, from: RollupIncrement): void {
  for (const [key, counts] of from.cells) {
    const current = into.cells.get(key);
    if (current) addCounts(current, counts);
    else into.cells.set(key, { ...counts });
  }
}

/** Every region's cells of one bucket summed cell by cell (a month's fold). */
export function summedCells(
  regions: ReadonlyArray<Record<string, RollupCounts> | undefined>,
): Record<string, RollupCounts> {
  const sum: Record<string, RollupCounts> = {};
  for (const cells of regions)
    for (const [key, counts] of Object.entries(cells ?? {})) {
      const current = sum[key];
      if (current) addCounts(current, { ...emptyCounts(), ...counts });
      else
        sum[key] = { ...emptyCounts(), ...counts, ...(counts.latency && { latency: { ...counts.latency } }) };
    }
  return sum;
}

/** Two histograms' counts added (either may be absent). */
export function addedLatency(
  a: Record<string, number> | undefined,
  b: Record<string, number> | undefined,
): Record<string, number> | undefined {
  if (!a || !b) return a ?? (b && { ...b });
  const sum = { ...a };
  for (const [bucket, count] of Object.entries(b)) sum[bucket] = (sum[bucket] ?? 0) + count;
  return sum;
}

/** The update that adds an increment to its bucket document (an upsert): counts incremented, maxima kept. */
export function rollupUpdate(increment: RollupIncrement) {
  const inc: Record<string, number> = {};
  const max: Record<string, number> = {};
  for (const [key, counts] of increment.cells) {
    for (const field of SUMMED) inc[`cells.${key}.${field}`] = counts[field];
    for (const [bucket, count] of Object.entries(counts.latency ?? {}))
      inc[`cells.${key}.latency.${bucket}`] = count;
    max[`cells.${key}.responseMsMax`] = counts.responseMsMax;
    if (counts.sslValidTo !== undefined) max[`cells.${key}.sslValidTo`] = counts.sslValidTo;
  }
  const bucketEnd = nextBucket(increment.period, increment.bucketStart).getTime();
  return {
    $setOnInsert: {
      organizationId: increment.organizationId,
      websiteId: increment.websiteId,
      region: increment.region,
      period: increment.period,
    },
    // Day documents count their writes: a month's fold (rollup-months.ts) knows it missed one.
    $inc: increment.period === 'day' ? { ...inc, writes: 1 } : inc,
    // A maximum, not set once: a bucket written before the retention grew is kept the longer time.
    $max: { ...max, expiresAt: new Date(bucketEnd + ROLLUP_RETENTION_MS[increment.period]) },
  };
}

/** A bucket document's rollups starting at `from` or later, oldest first. */
export function rollupRows(
  document: Pick<RollupBucketDocument, 'organizationId' | 'websiteId' | 'region' | 'period' | 'cells'>,
  bucket: Date,
  from: Date,
): ResultRollup[] {
  const rows: ResultRollup[] = [];
  for (const [key, counts] of Object.entries(document.cells ?? {})) {
    const start = cellStart(document.period, bucket, key);
    if (!start || start < from) continue;
    rows.push({
      organizationId: document.organizationId,
      websiteId: document.websiteId,
      region: document.region,
      period: document.period,
      start,
      ...emptyCounts(),
      ...counts,
    });
  }
  return rows.sort((a, b) => a.start.getTime() - b.start.getTime());
}
