import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A group commit that starts within this long of the last one's end (a busy writer) waits
 * `GROUP_COMMIT_LINGER_MS` for company: under load most batches went out with one or two items,
 * each its own request and commit, for want of a few milliseconds.
 */
const BUSY_WITHIN_MS = 50;
const GROUP_COMMIT_LINGER_MS = 2;

interface Pending<T> {
  item: T;
  done: () => void;
  failed: (error: unknown) => void;
}

/** What one batch's write made of each item: undefined when it was written, else its error. */
export type BatchOutcome = ReadonlyArray<unknown>;

export interface GroupedWritesOptions {
  maxBatch?: number;
  /**
   * How long an item may wait for others (ms). 0: a group commit: an item goes out at once when no
   * batch is being written, and those arriving meanwhile go together as soon as it is done (no
   * added latency when idle; a busy writer's next batch waits 2 ms for company). @defaultValue 100
   */
  flushEveryMs?: number;
}

/**
 * Items written many to a request: each `add` settles with its own item's outcome, so a caller
 * awaiting it knows its item is stored (or why not) while the rest of the batch is.
 */
export class GroupedWrites<T> {
  private pending: Array<Pending<T>> = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  /** When the last group commit ended (performance.now()). */
  private lastCommitEndedAt = Number.NEGATIVE_INFINITY;

  constructor(
    /** Writes a batch: a thrown error fails every item; else each item's outcome by its index. */
    private readonly write: (items: T[]) => Promise<BatchOutcome>,
    private readonly options: GroupedWritesOptions = {},
  ) {}

  add(item: T): Promise<void> {
    return new Promise((done, failed) => {
      this.pending.push({ item, done, failed });
      if (this.pending.length >= (this.options.maxBatch ?? 500)) void this.flush();
      else if (this.options.flushEveryMs === 0) this.groupCommit();
      else this.timer ??= setTimeout(() => void this.flush(), this.options.flushEveryMs ?? 100);
    });
  }

  private groupCommit(): void {
    if (this.writing) return;
    const busy = performance.now() - this.lastCommitEndedAt < BUSY_WITHIN_MS;
    this.writing = (async () => {
      if (busy) await sleep(GROUP_COMMIT_LINGER_MS);
      while (this.pending.length > 0) await this.flush();
      this.lastCommitEndedAt = performance.now();
      this.writing = null;
    })();
  }

  /** Writes what is pending now (at shutdown, or when a batch is full). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    let outcome: BatchOutcome;
    try {
      outcome = await this.write(batch.map((entry) => entry.item));
    } catch (error) {
      for (const entry of batch) entry.failed(error);
      return;
    }
    for (const [index, entry] of batch.entries()) {
      const error = outcome[index];
      if (error === undefined) entry.done();
      else entry.failed(error);
    }
  }
}
