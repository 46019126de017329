import type { GuardRefusal } from './guard-proxy.js';
import { describeStep, type TakenScreenshot } from './journey-actions.js';
import type { BrowserJourney } from './journey-options.schema.js';
import type { JourneyAction } from './journey-steps.schema.js';
import type { PageVitals } from './web-vitals.js';

/**
 * Why a run failed, as its result's code: a step, a step's timeout or the run's deadline, the guard
 * refusing the page, or the run not starting.
 */
export type JourneyFailure = 'STEP_FAILED' | 'TIMEOUT' | 'BLOCKED_TARGET' | 'NOT_RUN';

export type StepOutcomeKind = 'passed' | 'failed' | 'skipped';

/** One step as a run played it. */
export interface StepOutcome {
  index: number;
  action: JourneyAction;
  /** What it does, in words (its own name, or one made of its fields; never a secret). */
  name: string;
  outcome: StepOutcomeKind;
  /** null when skipped. */
  durationMs: number | null;
  /** Why it failed, in words, secrets masked. */
  error: string | null;
}

/** A request of the page that failed: an answer ≥ 400, or none (the reason). */
export interface FailedRequest {
  method: string;
  /** Without its query, which may carry a token. */
  url: string;
  status: number | null;
  error: string | null;
}

/** Everything one run of a journey found and keeps (bounded; secrets masked wherever text is kept). */
export interface JourneyRun {
  startedAt: Date;
  durationMs: number;
  passed: boolean;
  steps: StepOutcome[];
  /** The index of the step that failed (null: none, or the run could not start). */
  failedStep: number | null;
  /** Why the run failed, in words (the failing step's error, or why it could not run). */
  error: string | null;
  /** Why the run failed, as a code (null when it passed). */
  failure: JourneyFailure | null;
  /** The address the run's first page was reached at (null: none was). */
  address: string | null;
  /** The screenshot steps' images, then the page at the failure (`failure`). */
  screenshots: TakenScreenshot[];
  /** A failing run's Playwright trace (zip, secrets masked); null for a passing run or one over its bound. */
  trace: Buffer | null;
  /** What was not kept and why (a screenshot or trace over its bound). */
  notKept: string[];
  consoleErrors: string[];
  failedRequests: FailedRequest[];
  /** What the guard refused (never reached). */
  blocked: GuardRefusal[];
  /** Each page visited, its Web Vitals. */
  vitals: PageVitals[];
  /** The browser died under the run: not the site's failure (the caller retries once on a fresh one). */
  browserBroke: boolean;
}

/** A run about to play: every step skipped until it is played. */
export function newRun(
  journey: BrowserJourney,
  startedAt: number,
  mask: (text: string) => string,
): JourneyRun {
  return {
    startedAt: new Date(startedAt),
    durationMs: 0,
    passed: false,
    steps: journey.steps.map((step, index) => ({
      index,
      action: step.action,
      name: mask(describeStep(step)),
      outcome: 'skipped',
      durationMs: null,
      error: null,
    })),
    failedStep: null,
    error: null,
    failure: null,
    address: null,
    screenshots: [],
    trace: null,
    notKept: [],
    consoleErrors: [],
    failedRequests: [],
    blocked: [],
    vitals: [],
    browserBroke: false,
  };
}

/** A failed step as the run's cause names it. */
export const stepCause = (step: StepOutcome) => `Step ${step.index + 1} (${step.name}): ${step.error}`;

/** Where a run is. */
export interface RunProgress {
  /**
   * Making the context; else the step played last (its index), whether it ended or not; then what
   * follows the steps (the failure's screenshot, the trace, closing).
   */
  at: 'setup' | number | 'aftermath';
  /** When `at` began (epoch ms). */
  since: number;
}

/**
 * A run given up past its deadline and aftermath, as it stood then: a copy, since what still plays
 * writes to its own.
 * - A step that had not ended is the page's (a script that never yields holds up even a key press):
 *   it failed for the deadline. So is the step after one that passed (the page held up reading its
 *   figures): it never got its turn.
 * - Once a step failed, or after the last one, the verdict stands: only the screenshot or trace that
 *   were still being made are lost (a busy machine's slow trace is not a broken browser).
 * - Making the context is the browser's: it is taken for broken, so the caller plays the run once
 *   more on a fresh one and the site is not blamed.
 */
export function overrun(
  run: JourneyRun,
  progress: RunProgress,
  seen: { deadlineMs: number; connected: boolean; now: number },
): JourneyRun {
  const given: JourneyRun = {
    ...run,
    steps: run.steps.map((step) => ({ ...step })),
    screenshots: [...run.screenshots],
    notKept: [...run.notKept],
    consoleErrors: [...run.consoleErrors],
    failedRequests: [...run.failedRequests],
    browserBroke: run.browserBroke || !seen.connected,
  };
  const within = `within the journey’s ${seen.deadlineMs / 1000} s`;
  if (progress.at === 'setup') {
    given.passed = false;
    given.failure ??= 'TIMEOUT';
    given.browserBroke = true;
    given.error ??= `The journey could not run: the browser did not answer ${within}`;
    return given;
  }
  const last = progress.at === 'aftermath' ? undefined : given.steps[progress.at];
  const unplayed =
    last?.outcome === 'skipped' ? last : last?.outcome === 'passed' ? given.steps[last.index + 1] : undefined;
  if (unplayed) {
    unplayed.outcome = 'failed';
    unplayed.durationMs = unplayed === last ? seen.now - progress.since : 0;
    unplayed.error = `not done ${within}`;
    given.passed = false;
    given.failure = 'TIMEOUT';
    given.failedStep = unplayed.index;
    given.error = stepCause(unplayed);
    return given;
  }
  given.passed = given.failedStep === null && given.steps.every((step) => step.outcome === 'passed');
  if (given.passed) {
    given.failure = null;
    given.error = null;
  }
  given.notKept.push(`what follows the steps (a screenshot, the trace): not done ${within}`);
  return given;
}
