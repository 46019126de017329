import { STATUS_CODES } from 'node:http';
import {
  type AssertionOutcome,
  type CheckResult,
  evaluateAssertions,
  failedAssertionLine,
  statusMatches,
} from '../../../checks/index.js';
import { maskSecrets, secretForms } from '../../../placeholders/index.js';
import type { HttpProbeResult } from '../../../probe/index.js';
import { certificateCheck, downVerdict, type MonitorVerdict, upVerdict } from '../../verdict.js';
import type { ApiFlowObservation, StepFailure, StepRun } from './api-flow.observation.js';
import type { ApiFlowStep } from './api-flow.schema.js';
import { type Extracted, extractValues } from './extraction.js';

/** Failed assertions a cause names (all are in the evidence). */
const NAMED_ASSERTIONS = 3;
/** A URL in a cause is cut to this many characters. */
const URL_CHARS = 200;

/** What a step's answer is judged to be: why it failed (null: it passed), and what it found. */
export interface StepJudgement {
  failure: StepFailure | null;
  assertions: AssertionOutcome[];
  ssl: CheckResult | null;
  extracted: Extracted[];
}

export const statusLine = (status: number) => `${status} ${STATUS_CODES[status] ?? ''}`.trim();

/**
 * A step's answer against what the step asks (pure), in the order a person reads a failure: the
 * request's own failure, the certificate, the status, the assertions, then each value to extract.
 */
export function judgeStep(
  step: Pick<ApiFlowStep, 'expectedStatusCodes' | 'assertions' | 'extract'>,
  answer: HttpProbeResult,
  alerting: { sslExpiryWarningDays: number },
  now: Date,
): StepJudgement {
  const judged = (failure: StepFailure | null, more: Partial<StepJudgement> = {}): StepJudgement => ({
    failure,
    assertions: [],
    ssl,
    extracted: [],
    ...more,
  });
  const ssl =
    answer.url.startsWith('https:') || answer.tls ? certificateCheck(answer.tls, alerting, now) : null;
  if (answer.error) return judged({ code: answer.error.code, message: `failed: ${answer.error.message}` });
  if (ssl?.outcome === 'fail') return judged({ code: 'TLS_CERTIFICATE', message: ssl.message });
  const status = answer.httpStatus as number;
  if (!statusMatches(status, step.expectedStatusCodes))
    return judged({
      code: 'UNEXPECTED_STATUS',
      message: `answered ${statusLine(status)}, expected ${step.expectedStatusCodes.join(', ')}`,
    });
  const assertions = evaluateAssertions(step.assertions, { ...answer, httpsRedirect: null, domain: null });
  const failed = assertions.filter((outcome) => !outcome.passed);
  if (failed.length > 0) {
    const named = failed.slice(0, NAMED_ASSERTIONS).map(failedAssertionLine).join('; ');
    const more = failed.length > NAMED_ASSERTIONS ? `; and ${failed.length - NAMED_ASSERTIONS} more` : '';
    return judged(
      { code: 'ASSERTION_FAILED', message: `answered ${statusLine(status)}, but ${named}${more}` },
      { assertions },
    );
  }
  const extracted = extractValues(step.extract, {
    headers: answer.headers,
    body: answer.body === null ? null : answer.body.toString('utf8'),
    bodyTruncated: answer.bodyTruncated,
  });
  const missing = extracted.find((value) => 'problem' in value);
  return judged(
    missing && 'problem' in missing ? { code: 'EXTRACTION_FAILED', message: missing.problem } : null,
    { assertions, extracted },
  );
}

/** A text with every form of each sensitive value blanked (as HTTP evidence blanks secret values). */
export const scrubbed = (text: string, sensitive: readonly string[]) =>
  maskSecrets(text, secretForms(sensitive));

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * A failed step in one line, named with its request and what came of it: `step 2 'Get me': GET
 * https://api.example/me answered 500 Internal Server Error, expected 200-299`; a value that was
 * not there as the value: `step 2 'Get token': $.token not found in the JSON body`.
 */
export function failedStepLine(step: StepRun, failure: StepFailure, sensitive: readonly string[]): string {
  const named = `step ${step.index + 1} '${step.name}'`;
  if (failure.code === 'EXTRACTION_FAILED' || step.answer === null)
    return scrubbed(`${named}: ${failure.message}`, sensitive);
  const request = `${step.request.method} ${cut(step.request.url, URL_CHARS)}`;
  const joiner = failure.code === 'TLS_CERTIFICATE' ? ': ' : ' ';
  return scrubbed(`${named}: ${request}${joiner}${failure.message}`, sensitive);
}

/**
 * The run's verdict (pure): down at the step that failed, named with its request and answer;
 * degraded when every step passed but a certificate expires soon; up otherwise.
 */
export function apiFlowVerdict(observation: ApiFlowObservation): MonitorVerdict {
  const failed = observation.steps.find((step) => step.failure !== null);
  const certificates = observation.steps.flatMap((step) => (step.ssl ? [{ step, ssl: step.ssl }] : []));
  const worst =
    certificates.find(({ ssl }) => ssl.outcome === 'fail') ??
    certificates.find(({ ssl }) => ssl.outcome === 'warn') ??
    certificates[0];
  const checks: CheckResult[] = worst ? [worst.ssl] : [];
  if (failed?.failure) {
    const { failure } = failed;
    const hidden = (text: string) => scrubbed(text, observation.sensitive);
    // The assertions' verdicts go with the event: what they found is blanked as the cause is.
    const assertions: CheckResult[] =
      failure.code === 'ASSERTION_FAILED'
        ? [
            {
              name: 'assertions',
              outcome: 'fail',
              message: hidden(failure.message),
              value: failed.assertions.filter((outcome) => !outcome.passed).length,
              assertions: failed.assertions.map((outcome) => ({
                ...outcome,
                actual: outcome.actual === null ? null : hidden(outcome.actual),
              })),
            },
          ]
        : [];
    return downVerdict(failure.code, failedStepLine(failed, failure, observation.sensitive), [
      ...checks,
      ...assertions,
    ]);
  }
  if (worst?.ssl.outcome === 'warn')
    return {
      status: 'degraded',
      cause: `step ${worst.step.index + 1} '${worst.step.name}': ${worst.ssl.message}`,
      code: 'TLS_EXPIRING',
      checks,
    };
  return upVerdict(checks);
}
