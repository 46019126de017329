import { describe, expect, it } from 'vitest';
import { limitsOf } from '../../../packages/index.js';
import type { HttpProbeResult } from '../../../probe/index.js';
import { PROBE_KINDS } from '../index.js';
import { apiFlowEvidence } from './api-flow.evidence.js';
import type { ApiFlowObservation, StepRun } from './api-flow.observation.js';
import { apiFlowSettings, writtenTarget } from './api-flow.schema.js';
import { apiFlowVerdict, judgeStep } from './api-flow.verdict.js';
import { extractValues } from './extraction.js';

const alerting = { sslExpiryWarningDays: 14 };
const now = new Date('2026-12-01T00:00:00Z');

/** An answer as the HTTP probe gives it. */
function answer(fields: Partial<HttpProbeResult> & { json?: unknown; text?: string } = {}): HttpProbeResult {
  const { json, text, ...rest } = fields;
  const body = json !== undefined ? JSON.stringify(json) : (text ?? null);
  return {
    startedAt: now,
    url: 'https://api.example/me',
    finalUrl: 'https://api.example/me',
    httpStatus: 200,
    headers: json !== undefined ? { 'content-type': 'application/json' } : {},
    redirects: [],
    body: body === null ? null : Buffer.from(body),
    sizeBytes: body?.length ?? null,
    bodyTruncated: false,
    timings: { dns: 1, connect: 1, tls: 0, ttfb: 5, download: 1, total: 8 },
    error: null,
    tls: null,
    address: '192.0.2.10',
    location: null,
    ...rest,
  };
}

const step = ({ request, ...fields }: Record<string, unknown> = {}) => ({
  name: 'Get me',
  request: { url: 'https://api.example/me', ...((request as object) ?? {}) },
  ...fields,
});
const parse = (settings: Record<string, unknown>) => apiFlowSettings.safeParse(settings);
const paths = (settings: Record<string, unknown>) =>
  parse(settings).error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

describe('settings: what cannot run is refused when written, naming steps.<i>.<field>', () => {
  const signIn = {
    name: 'Sign in',
    request: { method: 'POST', url: '{{base}}/login', body: '{"password":"{{secret.PASSWORD}}"}' },
    extract: [{ name: 'token', from: 'jsonBody', path: '$.token' }],
  };

  it('takes a flow whose placeholders name variables and earlier extractions, defaults filled', () => {
    const read = parse({
      variables: { base: 'https://api.example' },
      steps: [
        signIn,
        step({ request: { url: '{{base}}/me', headers: { Authorization: 'Bearer {{token}}' } } }),
      ],
    });
    expect(read.error).toBeUndefined();
    expect(read.data?.steps[1]).toMatchObject({
      request: {
        method: 'GET',
        headers: { Authorization: 'Bearer {{token}}' },
        body: null,
        followRedirects: true,
      },
      expectedStatusCodes: ['200-299'],
      assertions: [],
      extract: [],
    });
  });

  it.each([
    [
      'a value no earlier step extracts',
      [step({ request: { headers: { Authorization: 'Bearer {{token}}' } } }), signIn],
      'steps.0.request.headers.Authorization',
      /\{\{token\}\} is not a variable or a value an earlier step extracts/,
    ],
    [
      'a value the same step extracts',
      [{ ...signIn, request: { ...signIn.request, url: 'https://api.example/{{token}}' } }],
      'steps.0.request.url',
      /\{\{token\}\}/,
    ],
    [
      'a credential header in clear',
      [step({ request: { headers: { 'X-Api-Key': 'abc123' } } })],
      'steps.0.request.headers.X-Api-Key',
      /a credential: give it as \{\{secret.NAME\}\}/,
    ],
    [
      'a credential in the query in clear',
      [step({ request: { url: 'https://api.example/me?access_token=abc' } })],
      'steps.0.request.url',
      /query parameter access_token is a credential/,
    ],
    [
      'a URL that is not one',
      [step({ request: { url: 'ftp://api.example/' } })],
      'steps.0.request.url',
      /http/,
    ],
    [
      'credentials in the URL',
      [step({ request: { url: 'https://me:pw@api.example/' } })],
      'steps.0.request.url',
      /user name or password/,
    ],
    [
      'a JSONPath that is not one',
      [step({ extract: [{ name: 'x', from: 'jsonBody', path: '$[' }] })],
      'steps.0.extract.0.path',
      /JSONPath/,
    ],
    [
      'a pattern RE2 cannot run',
      [step({ extract: [{ name: 'x', from: 'body', pattern: '(a)\\1' }] })],
      'steps.0.extract.0.pattern',
      /RE2/,
    ],
    [
      'an extraction named secret',
      [step({ extract: [{ name: 'secret', from: 'header', header: 'x-id' }] })],
      'steps.0.extract.0.name',
      /taken/,
    ],
  ])('%s', (_case, steps, path, message) => {
    const problems = paths({ steps });
    expect(problems.map(([at]) => at)).toContain(path);
    expect(problems.find(([at]) => at === path)?.[1]).toMatch(message);
  });

  it('bounds: at least one step, a known field only, a client key only as a secret', () => {
    expect(paths({ steps: [] })[0]?.[0]).toBe('steps');
    expect(paths({ steps: [step({ requets: {} })] }).map(([at]) => at)).toContain('steps.0');
    expect(
      paths({ steps: [step()], clientCertificate: { cert: 'nope', key: '-----BEGIN PRIVATE KEY-----' } }).map(
        ([at]) => at,
      ),
    ).toEqual(['clientCertificate.cert', 'clientCertificate.key']);
  });

  it('judges the hosts it can when written: literal ones and those variables name, not a value found when it runs', () => {
    const variables = { base: 'https://10.0.0.5:8443' };
    expect(writtenTarget('{{base}}/me', variables)).toEqual({ host: '10.0.0.5', port: 8443 });
    expect(writtenTarget('http://[::1]/x?id={{id}}', {})).toEqual({ host: '::1', port: 80 });
    expect(writtenTarget('{{next}}', {})).toBeNull();
    expect(writtenTarget('https://{{tenant}}.api.example/', {})).toBeNull();
    const kind = PROBE_KINDS['api-flow'];
    // A report names the first step's host.
    expect(kind.hostOf({ variables, steps: [signIn] })).toBe('10.0.0.5');
    expect(
      kind.targetsOf?.({ variables, steps: [signIn, step({ request: { url: 'https://1.2.3.4/' } })] }),
    ).toEqual([
      { host: '10.0.0.5', port: 8443, path: 'steps.0.request.url' },
      { host: '1.2.3.4', port: 443, path: 'steps.1.request.url' },
    ]);
  });

  it('the package bounds its steps (maxStepsPerJourney) and its client certificate (mtls)', () => {
    const kind = PROBE_KINDS['api-flow'];
    const steps = Array.from({ length: 4 }, (_, i) => step({ name: `Step ${i + 1}` }));
    const pkg = { features: { mtls: false }, limits: limitsOf({ limits: { maxStepsPerJourney: 3 } }) };
    expect(kind.packageProblems?.({ steps }, pkg)).toEqual([
      { path: 'steps', message: 'has 4 steps; the package allows 3 (limits.maxStepsPerJourney)' },
    ]);
    expect(kind.packageProblems?.({ steps: steps.slice(0, 3) }, pkg)).toEqual([]);
    expect(limitsOf({ limits: {} })).toMatchObject({ maxStepsPerJourney: 50, maxApiFlowsPerWebsite: 5 });
  });
});

describe('extraction (pure)', () => {
  const from = (body: string | null, headers: Record<string, string> = {}) => ({
    headers,
    body,
    bodyTruncated: false,
  });

  it.each([
    [{ name: 'token', from: 'jsonBody', path: '$.token' }, from('{"token":"t-1"}'), { value: 't-1' }],
    [{ name: 'id', from: 'jsonBody', path: '$.items[0].id' }, from('{"items":[{"id":7}]}'), { value: '7' }],
    [{ name: 'user', from: 'jsonBody', path: '$.user' }, from('{"user":{"a":1}}'), { value: '{"a":1}' }],
    [
      { name: 'token', from: 'jsonBody', path: '$.token' },
      from('{"tokn":"t"}'),
      { problem: '$.token not found in the JSON body' },
    ],
    [
      { name: 'token', from: 'jsonBody', path: '$.token' },
      from('<html>'),
      { problem: '$.token: the body is not JSON' },
    ],
    [{ name: 'csrf', from: 'header', header: 'X-CSRF' }, from('', { 'x-csrf': 'c-9' }), { value: 'c-9' }],
    [
      { name: 'csrf', from: 'header', header: 'X-CSRF' },
      from(''),
      { problem: 'header x-csrf not found in the answer' },
    ],
    [{ name: 'order', from: 'body', pattern: 'order=(\\d+)' }, from('ok order=42;'), { value: '42' }],
    [{ name: 'word', from: 'body', pattern: 'w[a-z]+' }, from('a word'), { value: 'word' }],
    [
      { name: 'order', from: 'body', pattern: 'order=(\\d+)' },
      from('none'),
      { problem: '/order=(\\d+)/ matched nothing in the body' },
    ],
  ] as const)('case %# of extraction', (extraction, answered, found) => {
    expect(extractValues([extraction], answered)).toEqual([{ name: extraction.name, ...found }]);
  });
});

describe('a step judged, and the run’s verdict (pure)', () => {
  const parsedStep = (fields: Record<string, unknown>) =>
    apiFlowSettings.parse({ steps: [step(fields)] }).steps[0] as Parameters<typeof judgeStep>[0];

  it.each([
    ['passes', {}, answer({ json: { name: 'Ada' } }), null],
    ['a status not expected', {}, answer({ httpStatus: 500 }), 'UNEXPECTED_STATUS'],
    [
      'an assertion that does not hold',
      { assertions: [{ source: 'jsonBody', path: '$.name', operator: 'equals', value: 'Ada' }] },
      answer({ json: { name: 'Bob' } }),
      'ASSERTION_FAILED',
    ],
    [
      'a value to extract that is missing',
      { extract: [{ name: 'token', from: 'jsonBody', path: '$.token' }] },
      answer({ json: {} }),
      'EXTRACTION_FAILED',
    ],
    [
      'no answer',
      {},
      answer({ httpStatus: null, error: { code: 'CONNECT', message: 'connection refused' } }),
      'CONNECT',
    ],
  ])('%s', (_case, fields, answered, code) => {
    expect(judgeStep(parsedStep(fields), answered, alerting, now).failure?.code ?? null).toBe(code);
  });

  const run = (steps: StepRun[], sensitive: string[] = []): ApiFlowObservation => ({
    startedAt: now,
    address: '192.0.2.10',
    steps,
    stepCount: 3,
    sensitive,
    totalMs: 20,
  });
  const ran = (index: number, name: string, fields: Partial<StepRun> = {}): StepRun => ({
    index,
    name,
    request: { method: 'GET', url: 'https://api.example/me', headers: {}, body: null },
    answer: answer(),
    failure: null,
    assertions: [],
    ssl: null,
    extracted: [],
    durationMs: 5,
    ...fields,
  });

  it('names the step that failed: a missing value as the value, other failures with their request and answer', () => {
    const missing = run([
      ran(0, 'Sign in', { extracted: ['session'] }),
      ran(1, 'Get token', {
        failure: { code: 'EXTRACTION_FAILED', message: '$.token not found in the JSON body' },
      }),
    ]);
    expect(apiFlowVerdict(missing)).toMatchObject({
      status: 'down',
      code: 'EXTRACTION_FAILED',
      cause: "step 2 'Get token': $.token not found in the JSON body",
    });
    const status = run([
      ran(0, 'Get me', {
        answer: answer({ httpStatus: 500 }),
        failure: {
          code: 'UNEXPECTED_STATUS',
          message: 'answered 500 Internal Server Error, expected 200-299',
        },
      }),
    ]);
    expect(apiFlowVerdict(status).cause).toBe(
      "step 1 'Get me': GET https://api.example/me answered 500 Internal Server Error, expected 200-299",
    );
    expect(apiFlowVerdict(run([ran(0, 'A'), ran(1, 'B')]))).toMatchObject({ status: 'up', cause: null });
  });

  it('never says a secret or a credential it found: not in the cause, the assertions or the evidence', () => {
    const secret = 'tok-SECRET-value';
    const failed = ran(1, 'Me', {
      request: {
        method: 'POST',
        url: `https://api.example/me?t=${secret}`,
        headers: { Authorization: `Bearer ${secret}`, 'X-Trace': secret },
        body: `{"token":"${secret}"}`,
      },
      answer: answer({
        httpStatus: 200,
        json: { echoed: secret },
        headers: { 'content-type': 'application/json', 'set-cookie': 's=1', 'x-echo': `Bearer ${secret}` },
      }),
      failure: {
        code: 'ASSERTION_FAILED',
        message: `answered 200 OK, but $.echoed equals "x": got "${secret}"`,
      },
      assertions: [
        {
          source: 'jsonBody',
          path: '$.echoed',
          operator: 'equals',
          value: 'x',
          passed: false,
          actual: secret,
        },
      ],
    });
    const observation = run([ran(0, 'Sign in'), failed], [secret]);
    const verdict = apiFlowVerdict(observation);
    const evidence = apiFlowEvidence(observation);
    const said = JSON.stringify({ verdict, evidence });
    expect(said).not.toContain(secret);
    expect(said).not.toContain('SECRET');
    expect(evidence).toMatchObject({
      steps: [
        { step: 1, outcome: 'passed' },
        { step: 2, outcome: 'failed', status: 200 },
      ],
      notRun: 1,
      failedStep: {
        step: 2,
        name: 'Me',
        request: { method: 'POST', headers: { Authorization: '[redacted]' } },
        answer: { statusLine: '200 OK', headers: { 'set-cookie': '[redacted]' } },
      },
    });
  });

  it('keeps evidence bounded: a long answer body is cut', () => {
    const failed = ran(0, 'Big', {
      answer: answer({
        httpStatus: 503,
        text: 'x'.repeat(100_000),
        headers: { 'content-type': 'text/plain' },
      }),
      failure: { code: 'UNEXPECTED_STATUS', message: 'answered 503' },
    });
    expect(JSON.stringify(apiFlowEvidence(run([failed]))).length).toBeLessThan(8 * 1024);
  });
});
