import { CREDENTIAL_HEADERS, evidenceOf } from '../../../checks/index.js';
import { isCredentialName, keptText } from '../probe-kind.js';
import type { ApiFlowObservation, SentRequest, StepRun } from './api-flow.observation.js';
import { scrubbed } from './api-flow.verdict.js';

/** How much of the failed step's answer body and request body evidence keeps, in characters. */
const ANSWER_BODY_CHARS = 4096;
const REQUEST_BODY_CHARS = 1024;
/** A step's URL in the list of steps is cut to this many characters (the failed step's is whole). */
const LISTED_URL_CHARS = 120;
const REDACTED = '[redacted]';

const isCredentialHeader = (name: string) =>
  CREDENTIAL_HEADERS.has(name.toLowerCase()) || isCredentialName(name);

/** The request as evidence shows it: credential headers blanked whatever they held, the body's start (blanked before it is cut). */
function requestShown(request: SentRequest, sensitive: readonly string[]) {
  return {
    method: request.method,
    url: request.url,
    headers: Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [
        name,
        isCredentialHeader(name) ? REDACTED : value,
      ]),
    ),
    body: request.body === null ? null : keptText(scrubbed(request.body, sensitive), REQUEST_BODY_CHARS),
  };
}

/** The failed step's answer as a website's failing check shows it (credential headers and secrets blanked), its body shorter. */
function answerShown(step: StepRun, sensitive: readonly string[]) {
  const { answer } = step;
  if (!answer) return null;
  const { location: _location, ...seen } = answer;
  const shown = evidenceOf(
    { ...seen, httpsRedirect: null, domain: null },
    {
      region: '',
      nodeId: null,
      secretHeaders: Object.keys(step.request.headers).filter(isCredentialHeader),
      secretValues: sensitive,
    },
  );
  const body =
    shown.body?.kind === 'text' && shown.body.text.length > ANSWER_BODY_CHARS
      ? { ...shown.body, text: shown.body.text.slice(0, ANSWER_BODY_CHARS), truncated: true }
      : shown.body;
  return {
    statusLine: shown.statusLine,
    finalUrl: shown.finalUrl,
    redirects: shown.redirects,
    headers: shown.headers,
    body,
    address: shown.address,
    error: shown.error,
    timings: shown.timings,
  };
}

/**
 * What a run keeps (pure, bounded): each step that ran in a line (its status and time), and the one
 * that failed with its request and answer; secrets and credential values blanked everywhere.
 */
export function apiFlowEvidence(observation: ApiFlowObservation): Record<string, unknown> {
  const failed = observation.steps.find((step) => step.failure !== null);
  const evidence = {
    steps: observation.steps.map((step) => ({
      step: step.index + 1,
      name: step.name,
      method: step.request.method,
      url: keptText(scrubbed(step.request.url, observation.sensitive), LISTED_URL_CHARS),
      status: step.answer?.httpStatus ?? null,
      durationMs: step.durationMs,
      outcome: step.failure ? 'failed' : 'passed',
      ...(step.extracted.length > 0 ? { extracted: step.extracted } : {}),
    })),
    notRun: observation.stepCount - observation.steps.length,
    failedStep: failed?.failure
      ? {
          step: failed.index + 1,
          name: failed.name,
          code: failed.failure.code,
          message: failed.failure.message,
          request: requestShown(failed.request, observation.sensitive),
          answer: answerShown(failed, observation.sensitive),
          assertions: failed.assertions,
        }
      : null,
  };
  // Last, over every text: a server may echo a secret anywhere (a header, a URL it redirected to).
  return JSON.parse(JSON.stringify(evidence), (_key, value: unknown) =>
    typeof value === 'string' ? scrubbed(value, observation.sensitive) : value,
  ) as Record<string, unknown>;
}
