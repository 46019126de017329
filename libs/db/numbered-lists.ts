import type { Collection, Db } from 'mongodb';
import { BatchInserter } from './batch-inserter.js';
import { isDuplicateKey } from './counters.js';

/** Lists whose last number a process remembers, and numbers tried past it before the counter is read. */
const LISTS_REMEMBERED = 10_000;
const HINT_TRIES = 3;
/** A reader's probes past the counter sent together (no more than the entries it may lag by). */
const PROBES_AT_ONCE = 8;

/**
 * Where writers in every process leave each list's last number (Redis, `ListTopHints`): a writer
 * new to a list starts after it instead of reading the counter and probing past it. A hint only
 * ever names an entry written; it may lag (another writer appended since, or it was lost), which
 * the next insert's duplicate key shows.
 */
export interface ListHints {
  get(list: string): Promise<number | null>;
  set(list: string, n: number): Promise<void>;
}

/**
 * Append-only lists read newest first by primary key: entry `n` of list `L` is the document
 * `_id: "L/<n>"` (1, 2, …), claimed by an insert (a duplicate key: another writer took `n`, try
 * `n + 1`), and `_id: "L/top"` remembers the highest claimed. FerretDB 1.24 reads only an `_id`
 * equality without a scan (not a range of `_id`s, not another field), and its updates are not
 * atomic: the `top` counter may lag behind (two writers at once), so readers probe upward from it
 * until a miss. Several writers may append to one list at once; each entry is written once.
 */
export class NumberedLists<E extends object> {
  /** Entries (`E` and their `_id`) and the `top` counters (`n`). */
  private readonly entries: Collection<{ _id: string; n?: number }>;
  /** The number this process last appended to each list (the most recent lists). */
  private readonly lastAppended = new Map<string, number>();
  private readonly group: BatchInserter<{ _id: string; n?: number }> | null;

  constructor(
    db: Db,
    collection: string,
    private readonly options: {
      /**
       * The `top` counter is raised on every `raiseTopEvery`th entry only (1: each): a write saved per
       * append, for at most that many more reads of a reader probing upward (a log written far
       * more often than read).
       */
      raiseTopEvery?: number;
      /**
       * Appends made at once go to MongoDB together (a group commit: one insert for those waiting
       * while the one before is written, each settling with its own outcome): one write per batch
       * instead of per entry (FerretDB on SQLite commits each write on its own). `timeoutMS`
       * bounds each batch.
       */
      groupCommit?: { timeoutMS: number };
      /** Last numbers shared between processes (see `ListHints`). */
      hints?: ListHints;
    } = {},
  ) {
    this.entries = db.collection(collection);
    this.group = options.groupCommit
      ? new BatchInserter(this.entries, { flushEveryMs: 0, timeoutMS: options.groupCommit.timeoutMS })
      : null;
  }

  /**
   * The highest entry of `list` (0: none): the counter, then probes past it. A writer probes one at
   * a time (it usually appends to a list it or another writer just raised); a reader, `probes` at once.
   */
  async top(list: string, options: { timeoutMS?: number; probes?: number } = {}): Promise<number> {
    const { probes = 1, ...bound } = options;
    const counter = await this.entries.findOne({ _id: `${list}/top` }, bound);
    let n = counter?.n ?? 0;
    for (;;) {
      const found = await Promise.all(
        Array.from({ length: probes }, (_, i) =>
          this.entries.findOne({ _id: `${list}/${n + 1 + i}` }, { projection: { _id: 1 }, ...bound }),
        ),
      );
      const missing = found.indexOf(null);
      if (missing !== -1) return n + missing;
      n += probes;
    }
  }

  /** Whether appending `from`…`to` passes a number the counter is raised at. */
  private raisesTop(from: number, to: number): boolean {
    const every = this.options.raiseTopEvery ?? 1;
    return Math.floor(to / every) > Math.floor((from - 1) / every);
  }

  /**
   * Appends `entry` to `list`; says its number. The number after this process's last append to the
   * list is tried first (no read of the counter); taken (another writer appended since), the
   * counter is read again after a few tries.
   */
  async append(
    list: string,
    entry: E,
    options: { timeoutMS?: number; tried?: (n: number) => void } = {},
  ): Promise<number> {
    const bound = options.timeoutMS === undefined ? {} : { timeoutMS: options.timeoutMS };
    const hint = await this.lastKnown(list);
    let n = hint === undefined ? (await this.top(list, bound)) + 1 : hint + 1;
    for (let taken = 0; ; taken++) {
      options.tried?.(n);
      try {
        const document = { ...entry, _id: `${list}/${n}` } as never;
        await (this.group ? this.group.insert(document) : this.entries.insertOne(document, bound));
        break;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        n = taken === HINT_TRIES ? (await this.top(list, bound)) + 1 : n + 1;
      }
    }
    await this.remember(list, n);
    if (!this.raisesTop(n, n)) return n;
    // Only ever raised; a lost race leaves it lower, which readers' probing covers (as it does an
    // upsert that met another writer's first counter: a duplicate key).
    await this.entries
      .updateOne({ _id: `${list}/top` }, { $max: { n } }, { upsert: true, ...bound })
      .catch((error: unknown) => {
        if (!isDuplicateKey(error)) throw error;
      });
    return n;
  }

  /** The last number this process appended to `list`, else the one another writer left as a hint. */
  private async lastKnown(list: string): Promise<number | undefined> {
    const here = this.lastAppended.get(list);
    if (here !== undefined || !this.options.hints) return here;
    // A hint is a saving, never a need: one that cannot be read is none.
    return (await this.options.hints.get(list).catch(() => null)) ?? undefined;
  }

  /** After entry `n` of `list` was written: here, and as the hint for other writers. */
  private async remember(list: string, n: number): Promise<void> {
    this.lastAppended.delete(list);
    if (this.lastAppended.size >= LISTS_REMEMBERED)
      this.lastAppended.delete(this.lastAppended.keys().next().value as string);
    this.lastAppended.set(list, n);
    await this.options.hints?.set(list, n).catch(() => undefined);
  }

  /** Entry `n` of `list` (null: none). */
  entry(list: string, n: number): Promise<(E & { _id: string }) | null> {
    return this.entries.findOne({ _id: `${list}/${n}` }) as Promise<(E & { _id: string }) | null>;
  }

  /**
   * Appends `entries` in order with one insert when the numbers after the last known are free (one
   * round trip and the counter's raise instead of those per entry); from the first number taken by
   * another writer, the rest go one at a time as `append` does.
   */
  async appendMany(list: string, entries: readonly E[], options: { timeoutMS?: number } = {}): Promise<void> {
    const [first, ...rest] = entries;
    if (!first) return;
    if (rest.length === 0) {
      await this.append(list, first, options);
      return;
    }
    const hint = await this.lastKnown(list);
    const start = (hint === undefined ? await this.top(list, options) : hint) + 1;
    let written = entries.length;
    try {
      await this.entries.insertMany(
        entries.map((entry, i) => ({ ...entry, _id: `${list}/${start + i}` }) as never),
        { ordered: true, ...options },
      );
    } catch (error) {
      const failed = (error as { writeErrors?: Array<{ index: number }> | { index: number } }).writeErrors;
      const firstFailed = Array.isArray(failed) ? failed[0] : failed;
      if (!isDuplicateKey(error) || firstFailed === undefined) throw error;
      written = firstFailed.index;
    }
    if (written > 0) {
      const last = start + written - 1;
      await this.remember(list, last);
      if (this.raisesTop(start, last))
        await this.entries
          .updateOne({ _id: `${list}/top` }, { $max: { n: last } }, { upsert: true, ...options })
          .catch((error: unknown) => {
            if (!isDuplicateKey(error)) throw error;
          });
    }
    for (const entry of entries.slice(written)) await this.append(list, entry, options);
  }

  /**
   * The entries of `list`, newest first, `batch` primary-key reads at a time; stops at the first
   * missing entry (the list's start). With `below`, from the entry before number `below` (a page
   * after one that ended there).
   */
  async *newestFirst(list: string, batch = 8, below?: number): AsyncGenerator<E & { n: number }> {
    const probes = Math.min(this.options.raiseTopEvery ?? 1, PROBES_AT_ONCE);
    let next = below === undefined ? await this.top(list, { probes }) : below - 1;
    while (next > 0) {
      const numbers = Array.from({ length: Math.min(batch, next) }, (_, i) => next - i);
      const found = await Promise.all(numbers.map((n) => this.entries.findOne({ _id: `${list}/${n}` })));
      for (const [i, entry] of found.entries()) {
        if (!entry) return;
        const { _id, ...fields } = entry as unknown as E & { _id: string };
        yield { ...(fields as unknown as E), n: numbers[i] as number };
      }
      next -= numbers.length;
    }
  }
}
