import { describe, expect, it } from 'vitest';
import { defaultCheckConfig } from '../websites/index.js';
import { type Assertion, assertionSchema, evaluateAssertions, failedAssertionLine } from './assertions.js';
import { evaluate } from './checks.js';
import type { Observation } from './observation.js';

function observation(body: string | null, overrides: Partial<Observation> = {}): Observation {
  return {
    startedAt: new Date('2026-11-24T10:00:00Z'),
    url: 'https://api.example.com/health',
    finalUrl: 'https://api.example.com/health',
    httpStatus: 200,
    headers: {
      'content-type': 'application/json',
      'x-cache': 'HIT',
      vary: 'accept, accept-encoding',
      'set-cookie': 'session=s3cr3t, b=2',
    },
    redirects: [],
    body: body === null ? null : Buffer.from(body),
    sizeBytes: body?.length ?? null,
    bodyTruncated: false,
    timings: { dns: 1, connect: 2, tls: 3, ttfb: 40, download: 4, total: 250.4 },
    error: null,
    tls: null,
    httpsRedirect: null,
    domain: null,
    ...overrides,
  };
}

const health = JSON.stringify({ status: 'ok', version: 3, checks: [{ name: 'db', ms: 12 }], note: null });
const one = (assertion: Assertion, seen = observation(health)) => {
  const [outcome] = evaluateAssertions([assertionSchema.parse(assertion)], seen);
  return outcome;
};

describe('assertions: what each source and operator decide', () => {
  it.each<[string, Assertion, boolean, string | null]>([
    [
      'a JSON value equal',
      { source: 'jsonBody', path: '$.status', operator: 'equals', value: 'ok' },
      true,
      'ok',
    ],
    [
      'a JSON value different',
      { source: 'jsonBody', path: '$.status', operator: 'equals', value: 'degraded' },
      false,
      'ok',
    ],
    [
      'a number equals its text',
      { source: 'jsonBody', path: '$.version', operator: 'equals', value: '3' },
      true,
      '3',
    ],
    [
      'a number below',
      { source: 'jsonBody', path: '$.checks[0].ms', operator: 'lessThan', value: 100 },
      true,
      '12',
    ],
    [
      'a filter selects the node',
      { source: 'jsonBody', path: "$.checks[?@.name == 'db'].ms", operator: 'greaterThan', value: 20 },
      false,
      '12',
    ],
    ['a JSON null exists', { source: 'jsonBody', path: '$.note', operator: 'exists' }, true, 'null'],
    ['a missing member', { source: 'jsonBody', path: '$.missing', operator: 'notExists' }, true, null],
    [
      'missing, so not equal',
      { source: 'jsonBody', path: '$.missing', operator: 'notEquals', value: 'x' },
      true,
      null,
    ],
    [
      'missing, so not equal to it either',
      { source: 'jsonBody', path: '$.missing', operator: 'equals', value: 'x' },
      false,
      null,
    ],
    [
      'an object as JSON text',
      { source: 'jsonBody', path: '$.checks[0]', operator: 'contains', value: '"db"' },
      true,
      '{"name":"db","ms":12}',
    ],
    [
      'a header, its name in any case',
      { source: 'header', path: 'X-Cache', operator: 'equals', value: 'HIT' },
      true,
      'HIT',
    ],
    ['a header absent', { source: 'header', path: 'x-powered-by', operator: 'notExists' }, true, null],
    [
      'repeated headers joined',
      { source: 'header', path: 'vary', operator: 'contains', value: 'accept-encoding' },
      true,
      'accept, accept-encoding',
    ],
    [
      'a credential header is tested, its value not kept',
      { source: 'header', path: 'Set-Cookie', operator: 'contains', value: 'b=2' },
      true,
      '(not kept: a credential header)',
    ],
    ['the body matches', { source: 'body', operator: 'matches', value: '"version":\\s*\\d+' }, true, health],
    ['the status', { source: 'status', operator: 'equals', value: 200 }, true, '200'],
    ['the response time', { source: 'responseTime', operator: 'lessThan', value: 200 }, false, '250'],
  ])('%s', (_name, assertion, passed, actual) => {
    expect(one(assertion)).toMatchObject({ passed, actual });
  });

  it('a body that is not JSON fails a JSON assertion, saying so', () => {
    const outcome = one(
      { source: 'jsonBody', path: '$.status', operator: 'equals', value: 'ok' },
      observation('<html>Bad gateway</html>'),
    );
    expect(outcome).toMatchObject({ passed: false, problem: 'body is not JSON', actual: null });
    expect(outcome && failedAssertionLine(outcome)).toBe('$.status equals "ok": body is not JSON');
  });

  it('a comparison with a value that is no number fails as such', () => {
    expect(one({ source: 'jsonBody', path: '$.status', operator: 'lessThan', value: 5 })).toMatchObject({
      passed: false,
      problem: 'not a number',
    });
  });

  it('names what it found, cut to 200 characters', () => {
    const long = JSON.stringify({ status: 'x'.repeat(1000) });
    const outcome = one(
      { source: 'jsonBody', path: '$.status', operator: 'equals', value: 'ok' },
      observation(long),
    );
    expect(outcome?.actual).toHaveLength(200);
    expect(outcome && failedAssertionLine(outcome)).toMatch(/^\$\.status equals "ok": got x{199}…$/);
  });

  it('a catastrophic pattern runs in linear time: (a+)+$ on 50,000 a and a ! fails within milliseconds', () => {
    const started = performance.now();
    const outcome = one(
      { source: 'body', operator: 'matches', value: '^(a+)+$' },
      observation(`${'a'.repeat(50_000)}!`),
    );
    expect(outcome).toMatchObject({ passed: false });
    // JavaScript's backtracking engine takes longer than the age of the universe here.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('the assertions check', () => {
  it('is skipped without an answer: the request failure is the cause, not "no body"', () => {
    const config = {
      ...defaultCheckConfig('https://api.example.com/', () => true),
      assertions: [
        assertionSchema.parse({ source: 'jsonBody', path: '$.status', operator: 'equals', value: 'ok' }),
      ],
    };
    const failed = observation(null, { httpStatus: null, error: { code: 'CONNECT', message: 'refused' } });
    const { checks } = evaluate(failed, {
      config,
      alerting: { responseTimeThresholdMs: 1000, sslExpiryWarningDays: 14, domainExpiryWarningDays: 30 },
      now: new Date(),
    });
    expect(checks.find((check) => check.name === 'assertions')).toMatchObject({
      outcome: 'skipped',
      message: 'no response',
    });
  });
});

describe('assertionSchema: what is refused at write time, naming the field', () => {
  const errors = (input: unknown) => {
    const parsed = assertionSchema.safeParse(input);
    return parsed.success
      ? []
      : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };

  it.each<[string, unknown, string]>([
    [
      'a JSON path without $',
      { source: 'jsonBody', path: 'status', operator: 'exists' },
      'path: is not an RFC 9535 JSONPath',
    ],
    [
      'a JSONPath regex function',
      { source: 'jsonBody', path: "$[?match(@.a, '(a+)+$')]", operator: 'exists' },
      'path: may not use match() or search()',
    ],
    [
      'no path for a header',
      { source: 'header', operator: 'exists' },
      'path: is required for the source header',
    ],
    [
      'a path for the status',
      { source: 'status', path: '$.x', operator: 'equals', value: 200 },
      'path: is not used with the source status',
    ],
    [
      'a header name with a space',
      { source: 'header', path: 'x cache', operator: 'exists' },
      'path: is not a header name',
    ],
    [
      'no value to compare with',
      { source: 'body', operator: 'contains' },
      'value: is required with contains',
    ],
    [
      'a value for exists',
      { source: 'body', operator: 'exists', value: 'x' },
      'value: is not used with exists',
    ],
    [
      'a threshold that is no number',
      { source: 'responseTime', operator: 'lessThan', value: 'fast' },
      'value: must be a number for lessThan',
    ],
    [
      'a blank threshold (Number("") is 0)',
      { source: 'responseTime', operator: 'lessThan', value: ' ' },
      'value: must be a number for lessThan',
    ],
    [
      'a boolean threshold',
      { source: 'responseTime', operator: 'greaterThan', value: true },
      'value: must be a number for greaterThan',
    ],
    [
      'a path whose filters nest (cubic in the body)',
      { source: 'jsonBody', path: '$..[?$..[?$..*]]', operator: 'exists' },
      'path: may not',
    ],
    [
      'a filter querying from $',
      { source: 'jsonBody', path: '$.items[?$.x == 1]', operator: 'exists' },
      'path: may not query from "$" inside a filter',
    ],
    [
      '.. inside a filter',
      { source: 'jsonBody', path: '$.items[?@..id]', operator: 'exists' },
      'path: may not use ".." inside a filter',
    ],
    [
      '.. twice',
      { source: 'jsonBody', path: '$..a..b', operator: 'exists' },
      'path: may use ".." once at most',
    ],
    [
      'a backreference (not RE2)',
      { source: 'body', operator: 'matches', value: '(a)\\1' },
      'value: is not a regular expression RE2 runs',
    ],
    [
      'exists on the status',
      { source: 'status', operator: 'exists' },
      'operator: is not used with the source status',
    ],
  ])('%s', (_name, input, expected) => {
    expect(errors(input).join('\n')).toContain(expected);
  });
});
