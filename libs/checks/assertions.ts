import { query } from 'jsonpath-rfc9535';
import parseJsonPath from 'jsonpath-rfc9535/parser';
import { RE2JS } from 're2js';
import { z } from 'zod';
import { CREDENTIAL_HEADERS } from './evidence.js';
import type { Observation } from './observation.js';

/** At most this many assertions a website; each actual value is shown cut to this many characters. */
export const MAX_ASSERTIONS = 20;
const SHOWN_CHARS = 200;
/** Bodies longer than this are not parsed as JSON for an assertion (the probe's read cap still applies). */
const MAX_JSON_BYTES = 2 * 1024 * 1024;
/** `matches` looks at this much of the text at most: RE2 is linear (~1 ms per KiB in JS), this bounds the line. */
const MATCHED_CHARS = 64 * 1024;
/** The assertions of one result together: those not evaluated within it fail, saying so. */
const ASSERTIONS_BUDGET_MS = 250;
/** Compiled patterns kept (a worker checks the same websites again and again). */
const PATTERNS_KEPT = 1000;
const compiled = new Map<string, RE2JS>();

function pattern(source: string): RE2JS {
  let found = compiled.get(source);
  if (!found) {
    if (compiled.size >= PATTERNS_KEPT) compiled.delete(compiled.keys().next().value as string);
    found = RE2JS.compile(source);
    compiled.set(source, found);
  }
  return found;
}

export const ASSERTION_SOURCES = ['jsonBody', 'header', 'body', 'status', 'responseTime'] as const;
export const ASSERTION_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'matches',
  'lessThan',
  'greaterThan',
  'exists',
  'notExists',
] as const;
type Operator = (typeof ASSERTION_OPERATORS)[number];
const WITHOUT_VALUE: ReadonlySet<Operator> = new Set(['exists', 'notExists']);
const NUMERIC: ReadonlySet<Operator> = new Set(['lessThan', 'greaterThan']);

/**
 * Why a JSONPath cannot be used, or null. Beyond RFC 9535 syntax, what keeps its cost linear in the
 * body: the library evaluates a filter's queries again for every node it tests and caches nothing,
 * so `$..[?$..[?$..*]]` is cubic. Hence at most one descendant segment (`..`), and inside a filter
 * only queries of the current node (`@.a`, `@.*`): no `..`, no `$`, no filter in a filter; and no
 * `match()`/`search()`, whose I-Regexp patterns the library runs as JavaScript regexes (which a
 * hostile pattern makes backtrack for minutes; the operator `matches` runs RE2 instead).
 */
export function jsonPathProblem(path: string): string | null {
  let ast: unknown;
  try {
    ast = parseJsonPath(path);
  } catch (error) {
    return `is not an RFC 9535 JSONPath: ${(error as Error).message}`;
  }
  let descendants = 0;
  const walk = (node: unknown, inFilter: boolean, root: boolean): string | null => {
    if (Array.isArray(node)) {
      for (const item of node) {
        const problem = walk(item, inFilter, false);
        if (problem) return problem;
      }
      return null;
    }
    if (node === null || typeof node !== 'object') return null;
    const record = node as Record<string, unknown>;
    const type = record.type;
    if (type === 'FunctionExpr' && (record.name === 'match' || record.name === 'search'))
      return 'may not use match() or search(): use the operator "matches"';
    if (inFilter && type === 'DescendantSegment') return 'may not use ".." inside a filter';
    if (inFilter && type === 'FilterSelector') return 'may not nest a filter in a filter';
    if (inFilter && ((type === 'JsonPathQuery' && !root) || type === 'AbsSingularQuery'))
      return 'may not query from "$" inside a filter: use "@"';
    if (type === 'DescendantSegment' && ++descendants > 1) return 'may use ".." once at most';
    for (const [key, value] of Object.entries(record)) {
      if (key === 'type') continue;
      const problem = walk(value, inFilter || type === 'FilterSelector', false);
      if (problem) return problem;
    }
    return null;
  };
  return walk(ast, false, true);
}

/**
 * Whether the RE2 pattern finds a match in the text (its first 64 KiB): linear in the text
 * whatever the pattern, so a hostile one cannot stall the worker.
 */
export function matchesPattern(source: string, text: string): boolean {
  return pattern(source).matcher(text.slice(0, MATCHED_CHARS)).find();
}

/** Why a pattern cannot be used, or null: RE2 syntax (linear time, so no backreferences or lookaround). */
export function patternProblem(pattern: string): string | null {
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (error) {
    return `is not a regular expression RE2 runs (no backreferences or lookaround): ${(error as Error).message}`;
  }
}

/** A number, or a text that is one (not blank); null otherwise (booleans too). */
function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

export const assertionSchema = z
  .object({
    source: z.enum(ASSERTION_SOURCES).describe('What is tested'),
    path: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('jsonBody: an RFC 9535 JSONPath (its first node is tested); header: the header name'),
    operator: z.enum(ASSERTION_OPERATORS),
    value: z
      .union([z.string().max(1000), z.number(), z.boolean()])
      .optional()
      .describe('What the actual value is compared with (not for exists/notExists); matches: an RE2 pattern'),
  })
  .superRefine((assertion, ctx) => {
    const { source, path, operator, value } = assertion;
    const needsPath = source === 'jsonBody' || source === 'header';
    if (needsPath && path === undefined)
      ctx.addIssue({ code: 'custom', path: ['path'], message: `is required for the source ${source}` });
    if (!needsPath && path !== undefined)
      ctx.addIssue({ code: 'custom', path: ['path'], message: `is not used with the source ${source}` });
    if (source === 'jsonBody' && path !== undefined) {
      const problem = jsonPathProblem(path);
      if (problem) ctx.addIssue({ code: 'custom', path: ['path'], message: problem });
    }
    if (source === 'header' && path !== undefined && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(path))
      ctx.addIssue({ code: 'custom', path: ['path'], message: 'is not a header name' });
    if ((source === 'status' || source === 'responseTime') && WITHOUT_VALUE.has(operator))
      ctx.addIssue({ code: 'custom', path: ['operator'], message: `is not used with the source ${source}` });
    if (WITHOUT_VALUE.has(operator)) {
      if (value !== undefined)
        ctx.addIssue({ code: 'custom', path: ['value'], message: `is not used with ${operator}` });
      return;
    }
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `is required with ${operator}` });
      return;
    }
    if (NUMERIC.has(operator) && numberOf(value) === null)
      ctx.addIssue({ code: 'custom', path: ['value'], message: `must be a number for ${operator}` });
    if (operator === 'matches') {
      const problem = patternProblem(String(value));
      if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
    }
  });

export type Assertion = z.output<typeof assertionSchema>;

/** One assertion's verdict on a result, stored with it. */
export const assertionOutcomeSchema = z.object({
  source: z.enum(ASSERTION_SOURCES),
  path: z.string().optional(),
  operator: z.enum(ASSERTION_OPERATORS),
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
  passed: z.boolean(),
  /** What was found, as text cut to 200 characters (null: nothing there). */
  actual: z.string().nullable(),
  /** Why it failed, when it could not be compared (no JSON body, not a number…). */
  problem: z.string().optional(),
});
export type AssertionOutcome = z.output<typeof assertionOutcomeSchema>;

const shown = (actual: unknown): string | null => {
  if (actual === undefined || actual === null) return actual === null ? 'null' : null;
  const text = typeof actual === 'string' ? actual : JSON.stringify(actual);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text;
};

/** What an assertion tests, or why nothing can be (the check then fails). */
type Found = { present: boolean; actual: unknown } | { problem: string };

function find(
  assertion: Assertion,
  observation: Observation,
  text: () => string | null,
  json: () => Found,
): Found {
  switch (assertion.source) {
    case 'status':
      return observation.httpStatus === null
        ? { problem: 'no response' }
        : { present: true, actual: observation.httpStatus };
    case 'responseTime':
      return { present: true, actual: Math.round(observation.timings.total) };
    case 'header': {
      const value = observation.headers[(assertion.path as string).toLowerCase()];
      return { present: value !== undefined, actual: value };
    }
    case 'body': {
      const body = text();
      return body === null ? { problem: 'no body' } : { present: true, actual: body };
    }
    case 'jsonBody': {
      const document = json();
      if ('problem' in document) return document;
      const nodes = query(document.actual as Parameters<typeof query>[0], assertion.path as string);
      return { present: nodes.length > 0, actual: nodes[0] };
    }
  }
}

function compare(operator: Operator, found: { present: boolean; actual: unknown }, value: unknown) {
  if (operator === 'exists') return { passed: found.present };
  if (operator === 'notExists') return { passed: !found.present };
  if (!found.present) return { passed: operator === 'notEquals' || operator === 'notContains' };
  const text = typeof found.actual === 'string' ? found.actual : JSON.stringify(found.actual);
  const expected = String(value);
  switch (operator) {
    case 'equals':
    case 'notEquals': {
      // A number or boolean equals its text ("200" and 200 alike); anything else compares as text.
      const same =
        typeof found.actual === 'number' && Number.isFinite(Number(expected)) && expected.trim() !== ''
          ? found.actual === Number(expected)
          : text === expected;
      return { passed: same === (operator === 'equals') };
    }
    case 'contains':
      return { passed: text.includes(expected) };
    case 'notContains':
      return { passed: !text.includes(expected) };
    case 'matches':
      // RE2: linear in the text whatever the pattern, so a hostile one cannot stall the worker.
      return { passed: matchesPattern(expected, text) };
    case 'lessThan':
    case 'greaterThan': {
      const actual = numberOf(found.actual);
      const bound = numberOf(value);
      if (actual === null || bound === null) return { passed: false, problem: 'not a number' };
      return { passed: operator === 'lessThan' ? actual < bound : actual > bound };
    }
  }
}

/** Each assertion's verdict on what a check run saw (the body decoded, and parsed as JSON, once). */
export function evaluateAssertions(
  assertions: readonly Assertion[],
  observation: Observation,
): AssertionOutcome[] {
  let decoded: string | null | undefined;
  const text = () => {
    decoded ??= observation.body === null ? null : observation.body.toString('utf8');
    return decoded;
  };
  let parsed: Found | undefined;
  const json = (): Found => {
    parsed ??= (() => {
      const body = text();
      if (body === null) return { problem: 'no body' };
      if (observation.bodyTruncated || body.length > MAX_JSON_BYTES)
        return { problem: 'body too large to parse as JSON' };
      try {
        return { present: true, actual: JSON.parse(body) as unknown };
      } catch {
        return { problem: 'body is not JSON' };
      }
    })();
    return parsed;
  };
  const started = performance.now();
  return assertions.map((assertion) => {
    const { source, path, operator, value } = assertion;
    const described = { source, ...(path === undefined ? {} : { path }), operator };
    const withValue = value === undefined ? described : { ...described, value };
    if (performance.now() - started > ASSERTIONS_BUDGET_MS)
      return {
        ...withValue,
        passed: false,
        actual: null,
        problem: `not evaluated: the assertions took over ${ASSERTIONS_BUDGET_MS} ms`,
      };
    const found = find(assertion, observation, text, json);
    if ('problem' in found) return { ...withValue, passed: false, actual: null, problem: found.problem };
    const verdict = compare(operator, found, value);
    const secret = source === 'header' && CREDENTIAL_HEADERS.has((path as string).toLowerCase());
    const actual = !found.present ? null : secret ? '(not kept: a credential header)' : shown(found.actual);
    return { ...withValue, ...verdict, actual };
  });
}

/** An assertion in words: `$.status equals "ok"`, `header x-cache exists`. */
export function describeAssertion(
  outcome: Pick<AssertionOutcome, 'source' | 'path' | 'operator' | 'value'>,
): string {
  const subject =
    outcome.source === 'jsonBody'
      ? (outcome.path as string)
      : outcome.source === 'header'
        ? `header ${outcome.path}`
        : outcome.source === 'responseTime'
          ? 'response time'
          : outcome.source;
  return outcome.value === undefined
    ? `${subject} ${outcome.operator}`
    : `${subject} ${outcome.operator} ${JSON.stringify(outcome.value)}`;
}

/** A failed assertion in one line: what was asked and what was found. */
export function failedAssertionLine(outcome: AssertionOutcome): string {
  const found = outcome.problem ?? (outcome.actual === null ? 'not found' : `got ${outcome.actual}`);
  return `${describeAssertion(outcome)}: ${found}`;
}
