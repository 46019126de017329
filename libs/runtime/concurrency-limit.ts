/** `run` refused a task: as many as the limit allows wait already. */
export class ConcurrencyLimitFullError extends Error {
  constructor(
    readonly maxWaiting: number,
    /** What is busy, for the answer to the caller (e.g. "MongoDB"). */
    readonly resource: string,
  ) {
    super(`${maxWaiting} tasks wait for a slot of ${resource} already`);
  }
}

export interface ConcurrencyLimitOptions {
  /**
   * Tasks that may wait for a slot; past that `run` throws `ConcurrencyLimitFullError` at once, so
   * callers arriving faster than tasks end (a stalled server) cannot pile up. @defaultValue unbounded
   */
  maxWaiting?: number;
  /** What the slots are of, named in `ConcurrencyLimitFullError`. @defaultValue "the service" */
  resource?: string;
}

/** Runs at most `max` tasks at once; the others wait their turn, first come first served. */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly max: number,
    private readonly options: ConcurrencyLimitOptions = {},
  ) {
    if (!Number.isInteger(max) || max < 1)
      throw new Error(`concurrency must be a positive integer, not ${max}`);
  }

  /** Tasks waiting for a slot now. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) {
      const { maxWaiting } = this.options;
      if (maxWaiting !== undefined && this.waiting.length >= maxWaiting)
        throw new ConcurrencyLimitFullError(maxWaiting, this.options.resource ?? 'the service');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so `running` never drops in between.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
