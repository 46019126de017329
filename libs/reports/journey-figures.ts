import { LATENCY_BUCKETS, latencyBounds } from '../monitoring/index.js';
import { percentileOf } from './latency-percentile.js';

/** One UTC day of a journey's runs, every region summed (`date`: yyyy-MM-dd). */
export interface JourneyDay {
  date: string;
  runs: number;
  passed: number;
  /** By the step's position (`s<index>`): its latest name, its times in the runs it passed in (latency buckets). */
  steps: Readonly<Record<string, { name: string; latency: Readonly<Record<string, number>> }>>;
}

/** A browser journey's or API flow's runs over a period. */
export interface JourneyFigures {
  runs: number;
  passedRuns: number;
  /** null: no run in the period. */
  successRatePercent: number | null;
  /** In order; a step's name as the latest run that reached it called it. */
  steps: Array<{ step: number; name: string; passedRuns: number; medianMs: number | null }>;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;
/** Steps' times are not kept beyond their buckets: a median in the open last one (~2 min on) is its start. */
const SLOWEST_KNOWN_MS = latencyBounds(LATENCY_BUCKETS - 1).lower;

/**
 * A journey's figures over the days from `dates.from` to `dates.to` (pure): its success rate (runs
 * that passed every step, of all its runs, every region) and each step's median time over the runs
 * it passed in (from the histograms, within ~7 %). A journey edited in the period counts each step
 * by its position.
 */
export function journeyFiguresOf(
  days: readonly JourneyDay[],
  dates: { from: string; to: string },
): JourneyFigures {
  const inPeriod = days
    .filter((day) => day.date >= dates.from && day.date <= dates.to)
    .sort((a, b) => a.date.localeCompare(b.date));
  const runs = inPeriod.reduce((sum, day) => sum + day.runs, 0);
  const passedRuns = inPeriod.reduce((sum, day) => sum + day.passed, 0);
  const steps = new Map<number, { name: string; latency: Record<string, number> }>();
  for (const day of inPeriod)
    for (const [key, step] of Object.entries(day.steps)) {
      if (!/^s\d+$/.test(key)) continue;
      const index = Number(key.slice(1));
      const kept = steps.get(index) ?? { name: step.name, latency: {} };
      // The days are oldest first: the latest name wins.
      kept.name = step.name;
      for (const [bucket, count] of Object.entries(step.latency))
        kept.latency[bucket] = (kept.latency[bucket] ?? 0) + count;
      steps.set(index, kept);
    }
  return {
    runs,
    passedRuns,
    successRatePercent: runs > 0 ? round3((passedRuns / runs) * 100) : null,
    steps: [...steps.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, step]) => ({
        step: index + 1,
        name: step.name,
        passedRuns: Object.values(step.latency).reduce((sum, count) => sum + count, 0),
        medianMs: percentileOf(step.latency, 50, SLOWEST_KNOWN_MS),
      })),
  };
}
