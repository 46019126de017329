import { PROBLEM_TYPES, type ProblemSlug } from './problem-types.js';

/** One field that failed validation; `path` is dotted (`customHeaders.X-Foo`). */
export interface FieldError {
  path: string;
  message: string;
}

export interface AppErrorOptions {
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** Extra members of the problem document (RFC 9457 extensions). */
  extensions?: Record<string, unknown>;
}

/** An error whose detail is safe to show; turned into an RFC 9457 response in one place. */
export class AppError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly errors?: FieldError[];
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;

  constructor(
    readonly slug: ProblemSlug,
    options: AppErrorOptions,
  ) {
    super(options.detail);
    this.name = 'AppError';
    this.status = PROBLEM_TYPES[slug].status;
    this.detail = options.detail;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions ?? {};
  }
}

export const validationError = (detail: string, errors: FieldError[]) =>
  new AppError('validation-error', { detail, errors });
export const notFound = (detail: string) => new AppError('not-found', { detail });
export const conflict = (detail: string) => new AppError('conflict', { detail });
export const forbidden = (detail: string) => new AppError('forbidden', { detail });
