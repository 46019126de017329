import type { z } from 'zod';
import { type FieldError, validationError } from './app-error.js';

export type InputLocation = 'body' | 'query' | 'path';

const LOCATION_LABEL: Record<InputLocation, string> = {
  body: 'request body',
  query: 'query parameters',
  path: 'path parameters',
};

function dotted(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** Zod issues as field errors: one per unknown key, and "Required" for a missing field. */
export function fieldErrorsOf(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.flatMap((issue): FieldError[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: dotted([...issue.path, key]), message: 'Unknown field' }));
    }
    if (issue.code === 'invalid_type' && issue.input === undefined) {
      return [{ path: dotted(issue.path), message: 'Required' }];
    }
    return [{ path: dotted(issue.path), message: issue.message }];
  });
}

/** Parses request input with its schema or throws a 400 that names every bad field. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  location: InputLocation,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = fieldErrorsOf(result.error.issues);
  const fields = [...new Set(errors.map((e) => e.path || '(root)'))].join(', ');
  throw validationError(`Invalid ${LOCATION_LABEL[location]}: ${fields}`, errors);
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
