import { availability } from './availability.js';

export const UPTIME_PERIODS = {
  '24h': 86_400,
  '7d': 7 * 86_400,
  '30d': 30 * 86_400,
  '90d': 90 * 86_400,
} as const;
export type UptimePeriod = keyof typeof UPTIME_PERIODS;

/** The value below which `p` percent of the sorted values lie (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? null;
}

/**
 * Uptime over a window: the share of time not inside a down incident. The window starts at the
 * period's start or at the first result, whichever is later (a website added yesterday is not
 * "down" for the 29 days before). Maintenance time is excluded by the caller's incidents.
 */
export function uptimeFigures(input: {
  now: Date;
  periodSeconds: number;
  firstResultAt: Date | null;
  incidents: Array<{ startedAt: Date; resolvedAt: Date | null }>;
  responseTimesMs: number[];
  checks: number;
}) {
  const now = input.now.getTime();
  const periodStart = now - input.periodSeconds * 1000;
  const windowStart = Math.max(periodStart, input.firstResultAt?.getTime() ?? now);
  const figures = availability({ window: { start: windowStart, end: now }, incidents: input.incidents, now });
  const sorted = [...input.responseTimesMs].sort((a, b) => a - b);
  return {
    uptimePercent: input.checks === 0 ? null : figures.uptimePercent,
    checks: input.checks,
    downtimeSeconds: figures.downtimeSeconds,
    responseTimeMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) },
  };
}
