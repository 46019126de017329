import type { JourneyRun } from '../../../journeys/index.js';
import { downVerdict, type MonitorVerdict, upVerdict } from '../../verdict.js';

/** What a browser check saw: its run and the id its files are kept under. */
export type BrowserObservation = JourneyRun & { runId: string };

/** A run's failure as its result's code. */
const CODES = {
  STEP_FAILED: 'JOURNEY_STEP_FAILED',
  TIMEOUT: 'TIMEOUT',
  BLOCKED_TARGET: 'BLOCKED_TARGET',
  NOT_RUN: 'JOURNEY_NOT_RUN',
} as const;

/** Refusals a cause names (all are in the evidence). */
const NAMED_REFUSALS = 2;

/**
 * A journey's run judged (pure): every step passed is up; a failing step is down, its cause
 * naming the step and why, and what the guard refused on the way when the page could not reach
 * it (the likely reason a step found nothing).
 */
export function browserVerdict(run: BrowserObservation): MonitorVerdict {
  if (run.passed) return upVerdict();
  const blocked = run.blocked
    .slice(0, NAMED_REFUSALS)
    .map((refusal) => `blocked ${refusal.target}`)
    .join(', ');
  const cause = `${run.error ?? 'The journey failed'}${blocked ? ` (the guard ${blocked})` : ''}`;
  return downVerdict(CODES[run.failure ?? 'NOT_RUN'], cause);
}
