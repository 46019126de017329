import { z } from 'zod';
import { latencyBucket } from '../monitoring/index.js';
import type { MonitorKind, MonitorLogEntry } from './monitor.repository.js';

/**
 * Journeys' runs counted per day (pure): how many ran, how many passed, and each step's time in the
 * runs it passed in, as a latency histogram (the websites' rollups' buckets). What client reports
 * read for a journey's success rate and its steps' medians, instead of every run's result.
 */

/** The kinds whose runs are journeys of steps. */
export const TALLIED_KINDS = ['browser', 'api-flow'] as const satisfies readonly MonitorKind[];
export type TalliedKind = (typeof TALLIED_KINDS)[number];
export const isTalliedKind = (kind: MonitorKind): kind is TalliedKind =>
  (TALLIED_KINDS as readonly string[]).includes(kind);

/** Step names are kept this long at most (a name made of a step's fields can be long). */
const STEP_NAME_CHARS = 120;

/** One step of a day's runs: its latest name, and its times where it passed. */
export interface StepTally {
  name: string;
  /** Runs it passed in, by latency bucket (`b<i>`). */
  latency: Record<string, number>;
}

/** A day's runs of a journey in one region. */
export interface DayTally {
  runs: number;
  passed: number;
  /** By the step's position, `s<index>` (0 the first). */
  steps: Record<string, StepTally>;
}

/** A run as a tally counts it. */
export interface TalliedRun {
  region: string;
  at: Date;
  passed: boolean;
  steps: Array<{ index: number; name: string; passedInMs: number | null }>;
}

/** The steps as either kind's evidence lists them (a browser journey's `index` from 0, a flow's `step` from 1). */
const evidenceSteps = z.object({
  steps: z.array(
    z.object({
      index: z.number().int().min(0).optional(),
      step: z.number().int().min(1).optional(),
      name: z.string(),
      outcome: z.string(),
      durationMs: z.number().nullable().optional(),
    }),
  ),
});

/** A journey's result as its tally counts it (null: not a journey, or a result that lists no steps). */
export function talliedRun(
  kind: MonitorKind,
  at: Date,
  result: MonitorLogEntry['result'] | undefined,
): TalliedRun | null {
  if (!isTalliedKind(kind) || !result) return null;
  const read = evidenceSteps.safeParse(result.evidence);
  if (!read.success) return null;
  return {
    region: result.region,
    at,
    passed: result.status === 'up',
    steps: read.data.steps.map((step, position) => ({
      index: step.index ?? (step.step === undefined ? position : step.step - 1),
      name: step.name.slice(0, STEP_NAME_CHARS),
      passedInMs: step.outcome === 'passed' ? (step.durationMs ?? null) : null,
    })),
  };
}

/** The UTC month a run's tally document is (`yyyy-MM`), and its day's key within it (`d<dd>`). */
export function tallyCell(at: Date): { month: string; day: string } {
  const iso = at.toISOString();
  return { month: iso.slice(0, 7), day: `d${iso.slice(8, 10)}` };
}

/** Adds a run to a day's tally (a new one when none). */
export function addRun(day: DayTally | undefined, run: TalliedRun): DayTally {
  const tally: DayTally = day ?? { runs: 0, passed: 0, steps: {} };
  tally.runs++;
  if (run.passed) tally.passed++;
  for (const step of run.steps) {
    const key = `s${step.index}`;
    const kept = tally.steps[key] ?? { name: step.name, latency: {} };
    kept.name = step.name;
    if (step.passedInMs !== null) {
      const bucket = `b${latencyBucket(step.passedInMs)}`;
      kept.latency[bucket] = (kept.latency[bucket] ?? 0) + 1;
    }
    tally.steps[key] = kept;
  }
  return tally;
}

/** Adds `from` into `into` (a write given up is merged into the next flush's). */
export function mergeDays(into: DayTally, from: DayTally): DayTally {
  into.runs += from.runs;
  into.passed += from.passed;
  for (const [key, step] of Object.entries(from.steps)) {
    const kept = into.steps[key] ?? { name: step.name, latency: {} };
    for (const [bucket, count] of Object.entries(step.latency))
      kept.latency[bucket] = (kept.latency[bucket] ?? 0) + count;
    into.steps[key] = kept;
  }
  return into;
}

/** The update adding days to their month's document: counts incremented, each step's latest name set. */
export function tallyUpdate(days: ReadonlyMap<string, DayTally>): {
  $inc: Record<string, number>;
  $set: Record<string, string>;
} {
  const inc: Record<string, number> = {};
  const set: Record<string, string> = {};
  for (const [day, tally] of days) {
    inc[`days.${day}.runs`] = tally.runs;
    inc[`days.${day}.passed`] = tally.passed;
    for (const [key, step] of Object.entries(tally.steps)) {
      set[`days.${day}.steps.${key}.name`] = step.name;
      for (const [bucket, count] of Object.entries(step.latency))
        inc[`days.${day}.steps.${key}.latency.${bucket}`] = count;
    }
  }
  return { $inc: inc, $set: set };
}
