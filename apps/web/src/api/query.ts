import { QueryClient, QueryClientProvider, type QueryKey, useQuery } from '@tanstack/preact-query';
import { type ComponentChildren, createElement } from 'preact';
import { errorMessage } from '../../../../libs/errors/error-message.js';
import { ApiProblem } from './client.js';

/**
 * The app's one cache of what the API answered (TanStack Query for Preact). A screen asks through
 * a resource's hook (`api/<resource>.ts`); a write marks the queries it changes stale with `write`,
 * and the screens showing them read again. What a failed read shows is decided here, once.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A problem the API answered (404, 403, a bad query) is not asked again; an unanswered
      // request (the network, a deploy, a 5xx) is, once.
      retry: (failures, error) => failures < 1 && !(error instanceof ApiProblem && error.status < 500),
      // Shown at once from the cache when a screen opens again, and read afresh behind it.
      staleTime: 0,
      // Not on every return to the tab: some reads are many requests (every website's windows);
      // what must stay fresh polls (`pollMs`).
      refetchOnWindowFocus: false,
    },
  },
});

/** The cache for the screens below it. */
export function QueryProvider({ children }: { children: ComponentChildren }) {
  return createElement(QueryClientProvider, { client: queryClient }, children);
}

/** What a screen has of a read: its data (kept while read again), or why it failed. */
export interface Loaded<T> {
  data: T | undefined;
  /** What to show for a failed read (the API's problem in words), null while none failed. */
  error: string | null;
  /** 404 of the thing asked for (or another customer's, which a client is told the same way). */
  notFound: boolean;
  /** Reads again now (after a change this screen cannot name a query for). */
  reload: () => Promise<void>;
}

export interface ApiQueryOptions<T = unknown> {
  /**
   * Read again this often while the tab is visible; or, as a function of what was read, this often
   * while it answers a number (a run's progress, polled until it ends).
   */
  pollMs?: number | ((data: T | undefined) => number | undefined) | undefined;
  /** false: not asked yet (a parameter it needs is missing). @defaultValue true */
  enabled?: boolean | undefined;
}

/**
 * A read of the API under `key` (a resource's name first, then what narrows it: `['channels', ref]`),
 * shared by every screen asking with the same key. `load` returns the data or throws the API's
 * problem (`must`).
 */
export function useApiQuery<T>(
  key: QueryKey,
  load: () => Promise<T>,
  options: ApiQueryOptions<T> = {},
): Loaded<T> {
  const { pollMs } = options;
  const query = useQuery({
    queryKey: key,
    queryFn: load,
    enabled: options.enabled ?? true,
    refetchInterval:
      typeof pollMs === 'function' ? (query) => pollMs(query.state.data) ?? false : (pollMs ?? false),
  });
  return {
    data: query.data,
    // The API's problem as it says it (ApiProblem's message), anything else by its message.
    error: query.error ? errorMessage(query.error) : null,
    notFound: query.error instanceof ApiProblem && query.error.status === 404,
    reload: async () => {
      await query.refetch();
    },
  };
}

/**
 * Sends a write and, once it succeeded, marks the queries under each of `changes` stale (every key
 * starting with it): the ones on screen are read again before this resolves, the others when next
 * shown. The answer is returned as sent, for the form to show its problem at the fields it names.
 */
export async function write<Answer extends { response: Response }>(
  call: Promise<Answer>,
  ...changes: QueryKey[]
): Promise<Answer> {
  const answer = await call;
  if (answer.response.ok) await invalidate(...changes);
  return answer;
}

/** Marks the queries under each key stale (a change made another way than `write`: an upload, a stream). */
export async function invalidate(...changes: QueryKey[]): Promise<void> {
  await Promise.all(changes.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
