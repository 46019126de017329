/**
 * The kinds of problem the API answers with (RFC 9457). Each `type` is `/problems/<slug>`, a
 * relative URI that the API itself serves, so a client can look up what a problem means.
 */
export const PROBLEM_TYPES = {
  'validation-error': {
    status: 400,
    title: 'Request validation failed',
    description:
      'A field of the body, query or path is missing, of the wrong type, out of range or unknown. `errors` names each field.',
  },
  'malformed-json': {
    status: 400,
    title: 'Malformed JSON body',
    description: 'The body is not a JSON object or array.',
  },
  unauthorized: {
    status: 401,
    title: 'Authentication required',
    description: 'Send `Authorization: Bearer <token>` with a valid, unrevoked API token.',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    description:
      "The token lacks the scope, or the organization's package lacks the feature, this request needs.",
  },
  'not-found': {
    status: 404,
    title: 'Not found',
    description: 'No such route, or no resource with this id in your organization.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    description: 'The route exists but not with this method; `Allow` lists the methods it takes.',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    description: 'The request conflicts with the current state of the resource.',
  },
  'payload-too-large': {
    status: 413,
    title: 'Payload too large',
    description: 'Request bodies are limited to 1 MiB.',
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported media type',
    description: 'Bodies must be sent as `Content-Type: application/json`.',
  },
  'rate-limited': {
    status: 429,
    title: 'Too many requests',
    description:
      'A request budget is used up: per token (or signed-in user) on the API, per client address on public pages and badges, of failed authentications or sign-ins, an organization’s share of exports, report builds, PDFs or imports, or its mail budgets; `reason`, when present, names it; retry after `Retry-After` seconds.',
  },
  'internal-error': {
    status: 500,
    title: 'Internal server error',
    description: 'An unexpected error; the response carries a `requestId` to quote when reporting it.',
  },
  'service-unavailable': {
    status: 503,
    title: 'Service unavailable',
    description: 'MongoDB or Redis cannot be reached right now; the request can be retried.',
  },
} as const satisfies Record<string, { status: number; title: string; description: string }>;

export type ProblemSlug = keyof typeof PROBLEM_TYPES;

export function problemTypeUri(slug: ProblemSlug): string {
  return `/problems/${slug}`;
}

/** The problem kind to use for a bare HTTP status (errors thrown by Koa, the router, the body parser). */
export function slugForStatus(status: number): ProblemSlug {
  const found = (Object.keys(PROBLEM_TYPES) as ProblemSlug[]).find(
    (slug) => PROBLEM_TYPES[slug].status === status,
  );
  if (found) return found;
  return status >= 500 ? 'internal-error' : 'validation-error';
}
