import { conflict, DomainError, type DomainErrorKind } from '../errors/index.js';
import { ERROR_SCHEMA } from './attributes.js';

/** RFC 7644 §3.12's `scimType`s webmon answers with. */
export type ScimType =
  | 'invalidFilter'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'invalidValue'
  | 'noTarget'
  | 'mutability'
  | 'uniqueness'
  | 'tooMany';

const SCIM_TYPES = new Set<string>([
  'invalidFilter',
  'invalidSyntax',
  'invalidPath',
  'invalidValue',
  'noTarget',
  'mutability',
  'uniqueness',
  'tooMany',
]);

/** A 400 with its `scimType`, naming the attribute at fault (`path`). */
export function scimInvalid(scimType: ScimType, path: string, message: string): DomainError {
  return new DomainError('invalid', `${path ? `${path}: ` : ''}${message}`, {
    code: scimType,
    errors: [{ path, message }],
  });
}

/** A 409 `uniqueness`: another resource holds the value. */
export function scimTaken(path: string, message: string): DomainError {
  const error = conflict(`${path}: ${message}`, [{ path, message }]);
  return new DomainError(error.kind, error.detail, { code: 'uniqueness', errors: error.errors });
}

export const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  'not-allowed': 403,
  'not-found': 404,
  conflict: 409,
  'too-many': 429,
  internal: 500,
  unavailable: 503,
};

/** RFC 7644 §3.12's error document (`status` is a string there). */
export interface ScimErrorBody {
  schemas: [typeof ERROR_SCHEMA];
  status: string;
  scimType?: ScimType;
  detail: string;
}

export function scimErrorBody(status: number, detail: string, scimType?: string): ScimErrorBody {
  return {
    schemas: [ERROR_SCHEMA],
    status: String(status),
    ...(scimType && SCIM_TYPES.has(scimType) ? { scimType: scimType as ScimType } : {}),
    detail,
  };
}

/**
 * A domain error as SCIM's error document: the kind's status, its `scimType` (a 400 without one
 * is `invalidValue`: zod's refusal of an attribute) and a detail naming the attributes at fault.
 */
export function scimErrorOf(error: DomainError): ScimErrorBody {
  const status = STATUS_OF_KIND[error.kind];
  const fields = error.errors?.filter((field) => field.path) ?? [];
  // zod's refusals (no code of their own) say each attribute and what is wrong with it.
  const detail =
    error.code === undefined && fields.length > 0
      ? fields
          .slice(0, 5)
          .map((field) => `${field.path}: ${field.message}`)
          .join('; ')
      : error.detail;
  return scimErrorBody(status, detail, error.code ?? (status === 400 ? 'invalidValue' : undefined));
}
