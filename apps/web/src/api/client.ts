import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type Schemas = components['schemas'];
export type Problem = Schemas['Problem'];

const TOKEN_KEY = 'webmon-token';

/** A pasted API token (automation accounts): this tab only, sent as a bearer token instead of the cookie. */
export const pastedToken = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

const SIGNED_IN_KEY = 'webmon-signed-in';

/**
 * Whether someone signed in from this browser last time (the session cookie itself is HttpOnly):
 * reads made before the session is looked up are only worth their cost then — a signed-out visit
 * would spend them as failed authentications, counted against the address's budget.
 */
export const signedInHere = {
  get: (): boolean => localStorage.getItem(SIGNED_IN_KEY) !== null,
  set: (signedIn: boolean) =>
    signedIn ? localStorage.setItem(SIGNED_IN_KEY, '1') : localStorage.removeItem(SIGNED_IN_KEY),
};

type Listener = (status: 401 | 'enrol') => void;
const listeners = new Set<Listener>();
/** Told when the API says the caller is signed out (401) or must enrol two-factor first. */
export function onAuthLost(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells the listeners the API said so (a call outside this client, such as the overview's stream). */
export function tellAuthLost(status: 401 | 'enrol'): void {
  for (const listener of listeners) listener(status);
}

const auth: Middleware = {
  onRequest({ request }) {
    const token = pastedToken.get();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
  async onResponse({ request, response }) {
    const path = new URL(request.url).pathname;
    if (response.status === 401 && !path.startsWith('/api/auth/')) tellAuthLost(401);
    if (response.status === 403) {
      const problem = (await response
        .clone()
        .json()
        .catch(() => null)) as { reason?: string } | null;
      if (problem?.reason === 'two-factor-enrolment-required') tellAuthLost('enrol');
    }
    return response;
  },
};

/** The one data layer: every call is typed by the contract (schema.d.ts, generated from /openapi.json). */
export const api = createClient<paths>({ baseUrl: location.origin });
api.use(auth);

/** The API's RFC 9457 `errors`, by the field they name (`customHeaders.X-Key` → that path). */
export function fieldErrors(problem: Problem | undefined): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const error of problem?.errors ?? []) errors[error.path] ??= error.message;
  return errors;
}

/** What to show for a problem that names no field (or all of them when no field shows them). */
export function problemText(problem: Problem | undefined): string {
  if (!problem) return 'Something went wrong; try again.';
  return problem.detail || problem.title;
}

/** The data of an answer, or throws its problem (for loads whose failure the page shows as a whole). */
export function must<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined && answer.response.status !== 204)
    throw new ApiProblem(answer.error as Problem | undefined, answer.response.status);
  return answer.data as T;
}

export class ApiProblem extends Error {
  constructor(
    readonly problem: Problem | undefined,
    readonly status: number,
  ) {
    super(problemText(problem));
  }
}

/** A problem read as text (a call made with `parseAs: 'text'`). */
export function parseProblem(text: unknown): Problem | undefined {
  try {
    return typeof text === 'string' ? (JSON.parse(text) as Problem) : (text as Problem | undefined);
  } catch {
    return undefined;
  }
}
