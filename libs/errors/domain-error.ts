/** One field that failed validation; `path` is dotted (`customHeaders.X-Foo`). */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * What went wrong, in the domain's words. The HTTP layer turns each kind into a status and an
 * RFC 9457 problem type (invalid 400, unauthenticated 401, not-allowed 403, not-found 404, conflict
 * 409, too-many 429, internal 500, unavailable 503); nothing below it knows about HTTP.
 */
export type DomainErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'not-allowed'
  | 'not-found'
  | 'conflict'
  | 'too-many'
  | 'internal'
  | 'unavailable';

export interface DomainErrorOptions {
  /** The fields at fault, for `invalid`, `not-allowed` and a `conflict` that names its items. */
  errors?: FieldError[];
  /** When trying again later may succeed (a lock held by another request, a budget refilled). */
  retryAfterSeconds?: number;
  /** `too-many`: the budget or share used up, a stable name the caller can act on (`mail-per-recipient`). */
  budget?: string;
  /** Which of a kind's cases it is, for a caller that acts on it (`totp-required`). */
  code?: string;
}

/** An error whose detail is safe to show to the caller (it says what to do, never a secret). */
export class DomainError extends Error {
  readonly errors: FieldError[] | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly budget: string | undefined;
  readonly code: string | undefined;

  constructor(
    readonly kind: DomainErrorKind,
    readonly detail: string,
    options: DomainErrorOptions = {},
  ) {
    super(detail);
    this.name = 'DomainError';
    this.errors = options.errors;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.budget = options.budget;
    this.code = options.code;
  }
}

export const invalidInput = (detail: string, errors: FieldError[]) =>
  new DomainError('invalid', detail, { errors });
/** Not allowed to this caller or by the customer's package (a feature, a limit). */
export const notAllowed = (detail: string, errors?: FieldError[]) =>
  new DomainError('not-allowed', detail, { errors });
export const notFound = (detail: string) => new DomainError('not-found', detail);
export const conflict = (detail: string, errors?: FieldError[]) =>
  new DomainError('conflict', detail, { errors });
/** A budget or share is used up: `budget` names it, and it refills in `retryAfterSeconds` (at least 1). */
export const tooMany = (detail: string, budget: string, retryAfterSeconds: number) =>
  new DomainError('too-many', detail, {
    budget,
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)),
  });
