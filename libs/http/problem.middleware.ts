import type { Middleware } from 'koa';
import { DomainError, type DomainErrorKind, errorMessage, type FieldError } from '../errors/index.js';
import { ConcurrencyLimitFullError } from '../runtime/index.js';
import { AppError } from './app-error.js';
import type { AppState } from './context.js';
import { PROBLEM_TYPES, type ProblemSlug, problemTypeUri, slugForStatus } from './problem-types.js';

/** A server whose failures mean "unavailable, retry" (503) rather than a fault of the request. */
export interface Outage {
  name: string;
  /** True for an error that means this server cannot be reached or does not answer now. */
  causes(error: unknown): boolean;
}

const PROBLEM_OF_KIND: Record<DomainErrorKind, ProblemSlug> = {
  invalid: 'validation-error',
  unauthenticated: 'unauthorized',
  'not-allowed': 'forbidden',
  'not-found': 'not-found',
  conflict: 'conflict',
  'too-many': 'rate-limited',
  internal: 'internal-error',
  unavailable: 'service-unavailable',
};

const RETRY_AFTER_UNAVAILABLE_SECONDS = '5';

/** 503 with Retry-After: `what` (MongoDB, Redis) cannot serve the request now. */
export function serviceUnavailable(what: string): AppError {
  return new AppError('service-unavailable', {
    detail: `${what} is unavailable; retry shortly.`,
    headers: { 'Retry-After': RETRY_AFTER_UNAVAILABLE_SECONDS },
  });
}

/** A problem lists this many bad fields at most; a request with thousands must not get them all back. */
export const MAX_LISTED_FIELD_ERRORS = 10;
/** Echoed text (a path, a parameter name, a message quoting input) is cut here. */
const MAX_ECHOED_CHARS = 200;

function truncated(text: string, max = MAX_ECHOED_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The first bad fields, their echoes cut short, and how many more there were. */
function boundedErrors(errors: readonly FieldError[]): { errors: FieldError[]; errorsOmitted?: number } {
  const listed = errors
    .slice(0, MAX_LISTED_FIELD_ERRORS)
    .map(({ path, message }) => ({ path: truncated(path), message: truncated(message) }));
  const omitted = errors.length - listed.length;
  return omitted > 0 ? { errors: listed, errorsOmitted: omitted } : { errors: listed };
}

/** Errors thrown by Koa, the router and the body parser carry a status and say if they may be shown. */
function httpStatusOf(
  error: unknown,
): { status: number; expose: boolean; headers?: Record<string, string> } | null {
  if (typeof error !== 'object' || error === null) return null;
  const candidate = error as { status?: unknown; expose?: unknown; headers?: unknown };
  if (typeof candidate.status !== 'number' || candidate.status < 400 || candidate.status > 599) return null;
  return {
    status: candidate.status,
    expose: candidate.expose === true,
    headers:
      typeof candidate.headers === 'object' ? (candidate.headers as Record<string, string>) : undefined,
  };
}

function toAppError(error: unknown, outages: readonly Outage[]): AppError | null {
  if (error instanceof AppError) return error;
  if (error instanceof DomainError) {
    return new AppError(PROBLEM_OF_KIND[error.kind], {
      detail: error.detail,
      errors: error.errors,
      headers:
        error.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(error.retryAfterSeconds) },
      // Named as the sign-in budgets name theirs.
      extensions: {
        ...(error.budget === undefined ? {} : { reason: error.budget }),
        ...(error.code === undefined ? {} : { code: error.code }),
      },
    });
  }
  // A bounded queue is full (page builds, overviews, PDF prints, public reads): 503 with Retry-After.
  if (error instanceof ConcurrencyLimitFullError) return serviceUnavailable(error.resource);
  const outage = outages.find((candidate) => candidate.causes(error));
  if (outage) return serviceUnavailable(outage.name);
  const http = httpStatusOf(error);
  if (!http || http.status >= 500) return null;
  const slug = slugForStatus(http.status);
  const detail = http.expose && error instanceof Error ? error.message : PROBLEM_TYPES[slug].title;
  return new AppError(slug, { detail, headers: http.headers });
}

/**
 * A refusal for too many requests (429) is answered this long after it is decided (its Retry-After
 * if sooner): a client that sends again as soon as it is answered, ignoring Retry-After, then asks
 * a few times a second instead of hundreds, and the requests of everyone else are not left
 * waiting behind its refusals. Past `REFUSALS_HELD_AT_ONCE` held answers, refusals go at once (a
 * held answer keeps its socket).
 */
const REFUSAL_PAUSE_MS = 250;
const REFUSALS_HELD_AT_ONCE = 2_000;

/**
 * The outermost middleware: every failure becomes an RFC 9457 problem document. Unknown errors are
 * logged with their stack and answered with a 500 that shows only the request id.
 */
export function problemMiddleware(outages: readonly Outage[]): Middleware<AppState> {
  let held = 0;
  const pauseRefusal = async (retryAfter: string | undefined) => {
    if (held >= REFUSALS_HELD_AT_ONCE) return;
    const seconds = Number(retryAfter);
    const ms =
      Number.isFinite(seconds) && seconds >= 0
        ? Math.min(REFUSAL_PAUSE_MS, seconds * 1000)
        : REFUSAL_PAUSE_MS;
    held++;
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
    } finally {
      held--;
    }
  };
  return async (ctx, next) => {
    try {
      await next();
      // The router answers an unknown path with a bare 404.
      if (ctx.status === 404 && (ctx.body === undefined || ctx.body === null))
        throw new AppError('not-found', { detail: `No route for ${ctx.method} ${truncated(ctx.path)}` });
    } catch (error) {
      let appError = toAppError(error, outages);
      if (!appError) {
        ctx.state.log.error({ err: error }, 'unhandled error');
        appError = new AppError('internal-error', {
          detail: `An unexpected error occurred; quote request id ${ctx.state.requestId} when reporting it.`,
        });
      } else if (appError.status >= 500) {
        const message = errorMessage(error);
        if (appError.status === 503) ctx.state.log.warn({ err: message }, 'dependency unavailable');
        else ctx.state.log.error({ err: message }, appError.detail);
      }
      if (appError.status === 429) await pauseRefusal(appError.headers['Retry-After']);
      ctx.status = appError.status;
      for (const [name, value] of Object.entries(appError.headers)) ctx.set(name, value);
      ctx.type = 'application/problem+json';
      ctx.body = {
        type: problemTypeUri(appError.slug),
        title: PROBLEM_TYPES[appError.slug].title,
        status: appError.status,
        // A detail may list bad fields; 1,000 characters hold the first ones and their names.
        detail: truncated(appError.detail, 1000),
        instance: truncated(ctx.path),
        requestId: ctx.state.requestId,
        ...(appError.errors ? boundedErrors(appError.errors) : {}),
        ...appError.extensions,
      };
    }
  };
}
