import type { AssertionOutcome, CheckResult, TlsObservation } from '../../../checks/index.js';
import type { HttpProbeResult } from '../../../probe/index.js';

/** A request of a step as it went out: its placeholders filled (secrets too: evidence blanks them). */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

/** Why a step failed: a short name (TIMEOUT, UNEXPECTED_STATUS, EXTRACTION_FAILED …) and its words. */
export interface StepFailure {
  code: string;
  message: string;
}

/** One step as it ran and was judged. */
export interface StepRun {
  /** Its place in the flow, from 0. */
  index: number;
  name: string;
  request: SentRequest;
  /**
   * What came back; null when it was not sent (out of time, a URL its values did not make). Its body
   * is kept for the step that failed only (the steps before it passed: nothing in them to show).
   */
  answer: HttpProbeResult | null;
  failure: StepFailure | null;
  /** Each assertion's verdict (empty where it had none, or it failed before them). */
  assertions: AssertionOutcome[];
  /** Its certificate's verdict, on https. */
  ssl: CheckResult | null;
  /** The names of the values it extracted. */
  extracted: string[];
  durationMs: number;
}

/** What one run of an API flow saw: its steps up to the first that failed. */
export interface ApiFlowObservation {
  startedAt: Date;
  /** The address the last step's request reached; null when it reached none. */
  address: string | null;
  steps: StepRun[];
  /** How many steps the flow has (those after a failed one did not run). */
  stepCount: number;
  /**
   * Values evidence and causes must never show: its secrets, values it extracted that are
   * credentials (sent in a credential header, or named like one: `token`, `sessionId`) and the
   * values of the cookies its answers set.
   */
  sensitive: string[];
  totalMs: number;
}

/** The certificate a run reports (its ssl events come from it): the worst judged, else the first seen. */
export function reportedTls(observation: ApiFlowObservation): TlsObservation | null {
  const rank = { fail: 0, warn: 1, pass: 2, skipped: 3 } as const;
  const judged = observation.steps
    .filter((step) => step.ssl !== null && step.answer?.tls)
    .sort((a, b) => rank[a.ssl?.outcome ?? 'skipped'] - rank[b.ssl?.outcome ?? 'skipped']);
  return judged[0]?.answer?.tls ?? null;
}
