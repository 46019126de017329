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
   * added latency when idle). @defaultValue 100
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
    this.writing = (async () => {
      while (this.pending.length > 0) await this.flush();
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
