import type { FieldError } from '../errors/index.js';
import { PROBLEM_TYPES, type ProblemSlug } from './problem-types.js';

export interface AppErrorOptions {
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** Extra members of the problem document (RFC 9457 extensions). */
  extensions?: Record<string, unknown>;
}

/**
 * An HTTP-level problem (authentication, rate limit, malformed request, unavailable server) whose
 * detail is safe to show; the domain's own errors are `DomainError`s, mapped to these in one place.
 */
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
