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
  status: WebsiteSummary['status'];
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
        ? { ...website, status: change.status, lastCheckedAt: change.check.at }
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

/** Websites and customers changed other than by a check (`website` and `customer` events). */
interface Touched {
  websites: Set<number>;
  customers: Set<number>;
}

/**
 * The rows of websites written, deleted, in or out of maintenance, or whose other monitors changed
 * (and every row of a customer written): their pictures read again and written into the list. A
 * website added or gone (or moved out of a client's sight) reads the list again; so many at once
 * that reading them by id costs more (an import) read everything again.
 */
async function readTouched(listKey: readonly unknown[], touched: Touched): Promise<void> {
  if (touched.customers.size > 0) void invalidate(['customers']);
  const list = queryClient.getQueryData<WebsiteSummary[]>(listKey) ?? [];
  const ids = new Set(touched.websites);
  for (const website of list) if (touched.customers.has(website.customerId)) ids.add(website.id);
  if (ids.size > IDS_PER_REQUEST) return invalidate(listKey, overviewKeys.pictures);
  const found = await readPictures([...ids]);
  queryClient.setQueryData<Pictures>(overviewKeys.pictures, (pictures) => {
    if (!pictures) return pictures;
    const next = new Map(pictures);
    for (const id of ids) {
      const picture = found.get(id);
      if (picture) next.set(id, picture);
      else next.delete(id);
    }
    return next;
  });
  const listed = new Set(list.map((website) => website.id));
  if ([...ids].some((id) => found.has(id) !== listed.has(id))) return invalidate(listKey);
  queryClient.setQueryData<WebsiteSummary[]>(listKey, (websites) =>
    websites?.map((website) => {
      const picture = found.get(website.id);
      if (!picture) return website;
      const { name, url, customerId, status, lastCheckedAt } = picture;
      return { ...website, name, url, customerId, status, lastCheckedAt };
    }),
  );
}

/** How the overview hears of changes: the stream, or (while it is down) reading again every 30 s. */
export type LiveState = 'connecting' | 'live' | 'polling';

/**
 * One stream per tab while the overview shows: each change is written into the cached list and
 * pictures, a few at a time, and the rows of websites or customers changed otherwise are read
 * again; `resync` (or a stream that came back after a break) reads them all again.
 */
export function useLiveOverview(listKey: readonly unknown[]): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  const keyText = JSON.stringify(listKey);
  useEffect(() => {
    let waiting: OverviewChange[] = [];
    let touched: Touched = { websites: new Set(), customers: new Set() };
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A stream reopened tells what was missed itself (replayed, or `resync`); one that failed
    // before it ever opened cannot: what the load showed is read again.
    let opened = false;
    let failedFirst = false;
    const readAgain = () => void invalidate(listKey, overviewKeys.pictures);
    const draw = () => {
      timer = undefined;
      applyChanges(listKey, waiting);
      waiting = [];
      if (touched.websites.size + touched.customers.size > 0) readTouched(listKey, touched).catch(readAgain);
      touched = { websites: new Set(), customers: new Set() };
    };
    const close = openEventStream('/api/dashboard/websites/stream', {
      open: () => {
        setState('live');
        if (failedFirst && !opened) readAgain();
        opened = true;
      },
      event: (event) => {
        if (event.type === 'resync') readAgain();
        if (event.type === 'change') waiting.push(JSON.parse(event.data) as OverviewChange);
        else if (event.type === 'website')
          touched.websites.add((JSON.parse(event.data) as { id: number }).id);
        else if (event.type === 'customer')
          touched.customers.add((JSON.parse(event.data) as { id: number }).id);
        else return;
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
