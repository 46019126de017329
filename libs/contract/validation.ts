import type { z } from 'zod';
import { type FieldError, invalidInput } from '../errors/index.js';

export type InputLocation = 'body' | 'query' | 'path';

const LOCATION_LABEL: Record<InputLocation, string> = {
  body: 'request body',
  query: 'query parameters',
  path: 'path parameters',
};

function dotted(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

const plural = (n: number | bigint, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * A bound's issue in words a person reads at a field ("At least 3 characters", "Must not be
 * empty"), where zod's own reads as a formula ("Too small: expected string to have >=1
 * characters"). A schema's own message is kept.
 */
function boundMessage(issue: z.core.$ZodIssue): string | null {
  if (issue.code !== 'too_small' && issue.code !== 'too_big') return null;
  if (!/^Too (small|big):/.test(issue.message)) return null;
  const small = issue.code === 'too_small';
  const limit = small ? issue.minimum : issue.maximum;
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      if (small && Number(limit) === 1) return 'Must not be empty';
      return `${small ? 'At least' : 'At most'} ${plural(limit, 'character')}`;
    case 'array':
    case 'set':
      if (small && Number(limit) === 1) return 'Choose at least one';
      return `${small ? 'At least' : 'At most'} ${plural(limit, 'item')}`;
    case 'number':
    case 'int':
    case 'bigint':
      if (inclusive) return `${small ? 'At least' : 'At most'} ${limit}`;
      return `${small ? 'More than' : 'Less than'} ${limit}`;
    default:
      return null;
  }
}

/** Zod issues as field errors: one per unknown key, "Required" for a missing field, bounds in words. */
function fieldErrorsOf(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[]): FieldError[] {
  return issues.flatMap((issue): FieldError[] => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: dotted([...path, key]), message: 'Unknown field' }));
    }
    // `input` is there because of reportInput below; it only tells missing from wrong, never leaves.
    if (issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined) {
      return [{ path: dotted(path), message: 'Required' }];
    }
    return [{ path: dotted(path), message: boundMessage(issue) ?? issue.message }];
  });
}

/** Parses `input` with `schema`; problems come as field errors, dotted paths below `prefix`. */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix: readonly PropertyKey[] = [],
): { success: true; data: z.output<S> } | { success: false; errors: FieldError[] } {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return { success: true, data: result.data };
  return { success: false, errors: fieldErrorsOf(result.error.issues, prefix) };
}

/** Fields named in a problem's detail; `errors` lists the same first ones (problem.middleware.ts). */
const FIELDS_IN_DETAIL = 10;

/** A 400 naming the bad fields: the first ones in the detail, and how many more there are. */
export function invalidFields(location: InputLocation, errors: FieldError[]) {
  const fields = [...new Set(errors.map((e) => e.path || '(root)'))];
  const more = fields.length - FIELDS_IN_DETAIL;
  const named = fields.slice(0, FIELDS_IN_DETAIL).join(', ');
  return invalidInput(
    `Invalid ${LOCATION_LABEL[location]}: ${named}${more > 0 ? ` and ${more} more` : ''}`,
    errors,
  );
}

/** Parses request input with its schema or throws a 400 that names the bad fields. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  location: InputLocation,
  prefix: readonly PropertyKey[] = [],
): z.output<S> {
  const result = validate(schema, input, prefix);
  if (result.success) return result.data;
  throw invalidFields(location, result.errors);
}

/**
 * A PATCH body: an object of optional fields that must name at least one. The rule is skipped when
 * the object already has issues (an unknown field), so that the error names only the real culprit.
 */
export function patchBody<S extends z.ZodType<Record<string, unknown>>>(schema: S) {
  return schema.refine((body) => Object.keys(body).length > 0, {
    message: 'send at least one field to change',
    when: (payload) => payload.issues.length === 0,
  });
}
