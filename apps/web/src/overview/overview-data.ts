import { useEffect, useState } from 'preact/hooks';
import { api, must, type Schemas } from '../api/client.js';
import type { WebsiteSummary } from '../api/organization.js';
import { invalidate, type Loaded, queryClient, useApiQuery } from '../api/query.js';
import { openEventStream } from './event-stream.js';

/** A website's pictures: its last checks, response times of the last day, uptime 24 h and 30 days. */
export type WebsitePicture = Schemas['WebsiteOverview'];
export type RecentCheck = Schemas['RecentCheck'];
/** A change as the stream tells it (`GET /api/dashboard/websites/stream`, event `change`). */
export interface OverviewChange {
  id: number;
  status: string;
  check: RecentCheck;
}

export const overviewKeys = {
  /** Every website the caller sees (a client user: its customer's), in a few fields each. */
  websites: (customerId: number | null) => ['websites', 'overview', customerId ?? 'all'] as const,
  /** The pictures read so far, by website id: one entry of the cache, added to as rows show. */
  pictures: ['dashboard', 'websites'] as const,
};

/** The API's bound on ids a request. */
const IDS_PER_REQUEST = 200;
/** Rows shown in a burst (the pages of the list arriving, a search typed) are read together. */
const GATHER_MS = 150;
/** Changes are drawn together at most this often (1,000 websites checked every minute: ~17 a second). */
const DRAW_CHANGES_MS = 500;
/** While the stream is down, what is shown is read again this often. */
export const SLOW_REFRESH_MS = 30_000;
const RECENT_CHECKS = 30;

type Pictures = Map<number, WebsitePicture>;

/** The pictures of these websites, 200 a request, one after the other (the API builds a few at once). */
async function readPictures(ids: readonly number[]): Promise<Pictures> {
  const found: Pictures = new Map();
  for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
    const chunk = ids.slice(start, start + IDS_PER_REQUEST).join(',');
    const answer = must(await api.GET('/api/dashboard/websites', { params: { query: { ids: chunk } } }));
    for (const item of answer.items) found.set(item.id, item);
  }
  return found;
}

/** Ids being read now, so two tables showing them at once ask once. */
const reading = new Set<number>();

/**
 * The pictures known so far (the shared entry: what was read for any row shown, kept up to date by
 * the stream). `read`: these websites' pictures are wanted now; those not known yet are read, a
 * moment later, together. Reading again (30 s while the stream is down, or a resync) re-reads the
 * known ones.
 */
export function usePictures(read: readonly number[], pollMs?: number): Loaded<Pictures> {
  const known = useApiQuery(
    overviewKeys.pictures,
    () => readPictures([...(queryClient.getQueryData<Pictures>(overviewKeys.pictures)?.keys() ?? [])]),
    { pollMs },
  );
  const missing = read.filter((id) => !known.data?.has(id) && !reading.has(id));
  const missingKey = missing.join(',');
  useEffect(() => {
    if (missing.length === 0 || !known.data) return;
    const timer = setTimeout(() => {
      const ids = missing.filter((id) => !reading.has(id));
      for (const id of ids) reading.add(id);
      readPictures(ids)
        .then((found) =>
          queryClient.setQueryData<Pictures>(
            overviewKeys.pictures,
            (old) => new Map([...(old ?? []), ...found]),
          ),
        )
        // Not shown as a failure: the rows keep their placeholder and the next read asks again.
        .catch(() => undefined)
        .finally(() => {
          for (const id of ids) reading.delete(id);
        });
    }, GATHER_MS);
    return () => clearTimeout(timer);
  }, [missingKey, known.data === undefined]);
  return known;
}

/** A website's picture with a newer check added (a check it shows already leaves it as it is). */
export function withCheck(picture: WebsitePicture, change: OverviewChange): WebsitePicture {
  const last = picture.recentChecks.at(-1);
  if (last && last.at >= change.check.at) return picture;
  return {
    ...picture,
    status: change.status,
    lastCheckedAt: change.check.at,
    lastResponseMs: change.check.responseMs,
    recentChecks: [...picture.recentChecks, change.check].slice(-RECENT_CHECKS),
  };
}

/** The changes written into the cached list and pictures: what shows them draws again, nothing is read. */
function applyChanges(listKey: readonly unknown[], changes: readonly OverviewChange[]): void {
  const latest = new Map<number, OverviewChange>();
  for (const change of changes) latest.set(change.id, change);
  queryClient.setQueryData<WebsiteSummary[]>(listKey, (list) =>
    list?.map((website) => {
      const change = latest.get(website.id);
      return change && (website.lastCheckedAt ?? '') < change.check.at
        ? { ...website, status: change.status as WebsiteSummary['status'], lastCheckedAt: change.check.at }
        : website;
    }),
  );
  queryClient.setQueriesData<Map<number, WebsitePicture>>({ queryKey: overviewKeys.pictures }, (pictures) => {
    if (!pictures || !changes.some((change) => pictures.has(change.id))) return pictures;
    const next = new Map(pictures);
    for (const change of changes) {
      const picture = next.get(change.id);
      if (picture) next.set(change.id, withCheck(picture, change));
    }
    return next;
  });
}

/** How the overview hears of changes: the stream, or (while it is down) reading again every 30 s. */
export type LiveState = 'connecting' | 'live' | 'polling';

/**
 * One stream per tab while the overview shows: each change is written into the cached list and
 * pictures, a few at a time; `resync` (or a stream that came back after a break) reads them again.
 */
export function useLiveOverview(listKey: readonly unknown[]): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  const keyText = JSON.stringify(listKey);
  useEffect(() => {
    let waiting: OverviewChange[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A stream reopened tells what was missed itself (replayed, or `resync`); one that failed
    // before it ever opened cannot: what the load showed is read again.
    let opened = false;
    let failedFirst = false;
    const draw = () => {
      timer = undefined;
      applyChanges(listKey, waiting);
      waiting = [];
    };
    const readAgain = () => void invalidate(listKey, overviewKeys.pictures);
    const close = openEventStream('/api/dashboard/websites/stream', {
      open: () => {
        setState('live');
        if (failedFirst && !opened) readAgain();
        opened = true;
      },
      event: (event) => {
        if (event.type === 'resync') readAgain();
        if (event.type !== 'change') return;
        waiting.push(JSON.parse(event.data) as OverviewChange);
        timer ??= setTimeout(draw, DRAW_CHANGES_MS);
      },
      broken: () => {
        failedFirst ||= !opened;
        setState('polling');
      },
    });
    return () => {
      close();
      clearTimeout(timer);
    };
  }, [keyText]);
  return state;
}
