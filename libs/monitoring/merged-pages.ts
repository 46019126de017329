import { invalidInput } from '../errors/index.js';

/**
 * One log a page of results is merged from (a website's HTTP results, a monitor's log), read
 * newest first from a position it names itself.
 */
export interface PagedSource<T> {
  /** Its name in the cursor: unique among the sources of one page, `[a-z0-9]+`. */
  key: string;
  /**
   * At most `limit` entries, newest first, from `position` (undefined: from its newest). Each
   * names the position below it and the one that reads it again (a page that lists none of a
   * source pins it there, so what it logs after the first page is not slipped into the next).
   */
  read(position: string | undefined, limit: number): Promise<Array<PagedEntry<T>>>;
}
export interface PagedEntry<T> {
  at: Date;
  item: T;
  below: string;
  from: string;
}

/** Where each source's part of a page ended; 0: it has nothing more. */
type Positions = Record<string, string | 0>;

/** The answer to a cursor these pages did not write (or a position in it its source cannot read). */
export function notACursor() {
  return invalidInput('Not a cursor of these results', [
    { path: 'cursor', message: 'use the nextCursor of the page before, as it was given' },
  ]);
}

function decode(cursor: string): Positions {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (
      parsed &&
      typeof parsed === 'object' &&
      !Array.isArray(parsed) &&
      Object.entries(parsed).every(
        ([key, at]) =>
          /^[a-z0-9]+$/.test(key) &&
          ((typeof at === 'string' && at.length <= 200) || (Number.isInteger(at) && at >= 0)),
      )
    )
      // A number is a log's position as cursors before the merge of every kind wrote it.
      return Object.fromEntries(
        Object.entries(parsed as Record<string, string | number>).map(([key, at]) => [
          key,
          at === 0 ? 0 : String(at),
        ]),
      );
  } catch {
    // Answered below.
  }
  throw notACursor();
}

/**
 * A page of several logs merged newest first: each source is read at most `limit` deep from where
 * the page before ended with it (by position, no scan whatever the depth), then the newest `limit`
 * of them all are the page. A cursor that names none of the sources is refused.
 */
export async function mergedPage<T>(
  sources: ReadonlyArray<PagedSource<T>>,
  options: { limit: number; cursor?: string | undefined },
): Promise<{ items: T[]; nextCursor: string | null }> {
  const positions = options.cursor ? decode(options.cursor) : null;
  if (positions && sources.length > 0 && !sources.some((source) => source.key in positions))
    throw notACursor();
  const queues = await Promise.all(
    sources.map(async (source) => {
      // The first page reads each from its newest; a later one a source it lacks as done.
      const position = positions ? (positions[source.key] ?? 0) : undefined;
      return position === 0 ? [] : source.read(position, options.limit + 1);
    }),
  );
  // A k-way merge by time of each source's head: each is taken in its own order (a prefix of it),
  // so where it stops is one position, and nothing above it is skipped.
  const page: Array<{ source: number; entry: PagedEntry<T> }> = [];
  while (page.length < options.limit) {
    let newest = -1;
    for (const [i, queue] of queues.entries()) {
      const head = queue[0];
      const best = queues[newest]?.[0];
      if (head && (!best || head.at > best.at)) newest = i;
    }
    const entry = queues[newest]?.shift();
    if (!entry) break;
    page.push({ source: newest, entry });
  }
  const next: Positions = {};
  for (const [i, source] of sources.entries()) {
    const last = page.findLast((p) => p.source === i);
    const waiting = queues[i]?.[0];
    next[source.key] = last ? last.entry.below : waiting ? waiting.from : 0;
  }
  const more = queues.some((queue) => queue.length > 0);
  return {
    items: page.map(({ entry }) => entry.item),
    nextCursor: more ? Buffer.from(JSON.stringify(next)).toString('base64url') : null,
  };
}
