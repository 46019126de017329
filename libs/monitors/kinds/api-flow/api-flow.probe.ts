import { CookieJar } from 'tough-cookie';
import { CREDENTIAL_HEADERS } from '../../../checks/index.js';
import {
  fillPlaceholders,
  MIN_MASKED_CHARS,
  type PlaceholderValues,
  placeholdersIn,
  unfilledPlaceholder,
} from '../../../placeholders/index.js';
import { probeHttp } from '../../../probe/index.js';
import type { ProbeContext } from '../probe-kind.js';
import { isCredentialName } from '../probe-kind.js';
import type { ApiFlowObservation, SentRequest, StepFailure, StepRun } from './api-flow.observation.js';
import { type ApiFlowSettings, type ApiFlowStep, stepTexts } from './api-flow.schema.js';
import { judgeStep } from './api-flow.verdict.js';

/** A step's answer body is read up to this (JSON assertions and extractions read it whole). */
const MAX_BODY_BYTES = 1024 * 1024;

const roundMs = (ms: number) => Math.round(ms * 100) / 100;
const isCredentialHeader = (name: string) =>
  CREDENTIAL_HEADERS.has(name.toLowerCase()) || isCredentialName(name);

/**
 * The names of the values a flow extracts that are credentials: sent in a credential header
 * (`Authorization: Bearer {{token}}`), named like one, or read from a credential header.
 */
function credentialValueNames(steps: readonly ApiFlowStep[]): Set<string> {
  const names = new Set<string>();
  for (const step of steps) {
    for (const [name, value] of Object.entries(step.request.headers))
      if (isCredentialHeader(name))
        for (const use of placeholdersIn(value)) if (use.kind === 'variable') names.add(use.name);
    for (const extraction of step.extract)
      if (
        isCredentialName(extraction.name) ||
        (extraction.from === 'header' && isCredentialHeader(extraction.header))
      )
        names.add(extraction.name);
  }
  return names;
}

/** The step's request with its values put in, or why it cannot go (a value it names is missing, a line break in a header). */
function filledRequest(step: ApiFlowStep, values: PlaceholderValues): SentRequest | StepFailure {
  const filled: string[] = [];
  for (const [path, text] of stepTexts(step)) {
    const missing = unfilledPlaceholder(text, values);
    if (missing)
      return { code: 'INVALID_REQUEST', message: `${missing.text} in ${path.join('.')} has no value` };
    filled.push(fillPlaceholders(text, values));
  }
  const [url = '', ...rest] = filled;
  const headerNames = Object.keys(step.request.headers);
  const headers = Object.fromEntries(headerNames.map((name, i) => [name, rest[i] as string]));
  const broken = headerNames.find((name) => /[\r\n\0]/.test(headers[name] as string));
  if (broken) return { code: 'INVALID_REQUEST', message: `the header ${broken} would hold a line break` };
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    return {
      code: 'INVALID_REQUEST',
      message: `its URL is not an absolute http(s) URL: ${url.slice(0, 200)}`,
    };
  if (parsed.username || parsed.password)
    return { code: 'INVALID_REQUEST', message: 'its URL holds a user name or password' };
  const body = step.request.body === null ? null : (rest[headerNames.length] ?? null);
  return { method: step.request.method, url: parsed.href, headers, body };
}

/**
 * Runs a flow's steps in order under one deadline (I/O): each through the HTTP probe (the SSRF
 * guard at every hop, the flow's client certificate), cookies kept in one jar for the run, each
 * answer judged before the next step (its values extracted for the steps after); the first step
 * that fails ends the run. Failures are data in the observation; this does not throw for them.
 * Its secrets, the credentials it extracted and the cookies it was set are what evidence blanks.
 */
export async function probeApiFlow(s: ApiFlowSettings, context: ProbeContext): Promise<ApiFlowObservation> {
  const startedAt = new Date();
  const started = performance.now();
  const deadline = started + context.timeoutMs;
  const jar = new CookieJar();
  const { secrets } = s;
  // A variable may hold a secret (`{{secret.BASE_URL}}`); it holds no other value.
  const values = new Map(
    Object.entries(s.variables).map(([name, value]) => [name, fillPlaceholders(value, { secrets })]),
  );
  const sensitive = new Set(Object.values(secrets).filter((value) => value.length >= MIN_MASKED_CHARS));
  const credentials = credentialValueNames(s.steps);
  const clientCertificate =
    s.clientCertificate && !unfilledPlaceholder(s.clientCertificate.key, { secrets })
      ? { cert: s.clientCertificate.cert, key: fillPlaceholders(s.clientCertificate.key, { secrets }) }
      : null;
  const steps: StepRun[] = [];

  for (const [index, step] of s.steps.entries()) {
    const stepStarted = performance.now();
    const remaining = deadline - stepStarted;
    const made = filledRequest(step, { variables: Object.fromEntries(values), secrets });
    const request: SentRequest =
      'url' in made ? made : { method: step.request.method, url: step.request.url, headers: {}, body: null };
    const unsent = (failure: StepFailure): StepRun => ({
      index,
      name: step.name,
      request,
      answer: null,
      failure,
      assertions: [],
      ssl: null,
      extracted: [],
      durationMs: 0,
    });
    if (!('url' in made)) {
      steps.push(unsent(made));
      break;
    }
    if (remaining <= 0) {
      steps.push(
        unsent({
          code: 'TIMEOUT',
          message: `not sent: the flow's ${context.timeoutMs / 1000} s ran out before it`,
        }),
      );
      break;
    }
    const answer = await probeHttp(
      {
        ...made,
        followRedirects: step.request.followRedirects,
        maxRedirects: step.request.maxRedirects,
        cookieHandling: 'jar',
        cookieJar: jar,
        clientCertificate,
        timeoutMs: Math.ceil(remaining),
        maxBodyBytes: MAX_BODY_BYTES,
        // A redirect to another origin goes without the step's credentials, as a browser's does.
        originBound: { headers: Object.keys(made.headers).filter(isCredentialHeader), body: false },
      },
      context.probe,
    );
    const judged = judgeStep(step, answer, context.alerting, new Date());
    const extracted: string[] = [];
    for (const found of judged.extracted)
      if ('value' in found) {
        values.set(found.name, found.value);
        extracted.push(found.name);
        if (credentials.has(found.name) && found.value.length >= MIN_MASKED_CHARS) sensitive.add(found.value);
      }
    steps.push({
      index,
      name: step.name,
      request,
      // Only the failed step's body is shown: the others' go now (a flow holds one body at a time).
      answer: judged.failure ? answer : { ...answer, body: null },
      failure: judged.failure,
      assertions: judged.assertions,
      ssl: judged.ssl,
      extracted,
      durationMs: roundMs(performance.now() - stepStarted),
    });
    if (judged.failure) break;
  }
  // What the servers set in the jar is a session: blanked wherever an answer echoes it.
  for (const cookie of (await jar.serialize()).cookies)
    if (typeof cookie.value === 'string' && cookie.value.length >= MIN_MASKED_CHARS)
      sensitive.add(cookie.value);
  return {
    startedAt,
    address: steps.at(-1)?.answer?.address ?? null,
    steps,
    stepCount: s.steps.length,
    sensitive: [...sensitive],
    totalMs: roundMs(performance.now() - started),
  };
}
