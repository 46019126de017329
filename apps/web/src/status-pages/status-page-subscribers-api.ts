import { keepPreviousData, useInfiniteQuery } from '@tanstack/preact-query';
import { errorMessage } from '../../../../libs/errors/error-message.js';
import { ApiProblem, api, must, type Schemas } from '../api/client.js';
import { statusPageKeys } from '../api/status-pages.js';

export type Subscriber = Schemas['StatusPageSubscriber'];
export type SubscriberState = Subscriber['state'];
type SubscribersPage = Schemas['StatusPageSubscribers'];

/** How many rows one "Load more" adds. */
const PAGE_SIZE = 50;

export const subscriberKeys = {
  of: (pageId: number) => [...statusPageKeys.one(pageId), 'subscribers'] as const,
};

/** The address of every subscriber of a page as CSV: a plain link, so the session cookie goes with it. */
export const subscribersCsvUrl = (pageId: number) => `/api/status-pages/${pageId}/subscribers?format=csv`;

export interface LoadedSubscribers {
  /** Every row loaded so far (page after page), undefined before the first answer. */
  subscribers: Subscriber[] | undefined;
  counts: SubscribersPage['counts'] | undefined;
  error: string | null;
  notFound: boolean;
  /** Whether the API holds more rows past those loaded. */
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

/**
 * A page's subscribers, in the API's stable order, page after page ("Load more" follows
 * `nextAfter`). One cache entry per filter under the page's key: a removal (`write` with
 * `subscriberKeys.of`) reads again every page loaded, so counts and rows agree.
 */
export function useSubscribers(pageId: number, state: SubscriberState | null): LoadedSubscribers {
  const query = useInfiniteQuery({
    queryKey: [...subscriberKeys.of(pageId), state ?? 'all'],
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) => {
      const answer = must(
        await api.GET('/api/status-pages/{id}/subscribers', {
          params: {
            path: { id: pageId },
            query: {
              limit: PAGE_SIZE,
              format: 'json',
              ...(state ? { state } : {}),
              ...(pageParam ? { after: pageParam } : {}),
            },
          },
        }),
      );
      if (typeof answer !== 'object') throw new Error('The subscribers came back as text, not JSON');
      return answer;
    },
    getNextPageParam: (last) => last.nextAfter,
    // Another filter keeps the rows shown until its own arrive: the screen (and the focused filter) stays.
    placeholderData: keepPreviousData,
  });
  const pages = query.data?.pages;
  return {
    subscribers: pages?.flatMap((p) => p.subscribers),
    // The newest answer's counts: a removal since the first page is counted.
    counts: pages?.at(-1)?.counts,
    error: query.error ? errorMessage(query.error) : null,
    notFound: query.error instanceof ApiProblem && query.error.status === 404,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}
