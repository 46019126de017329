import type { Logger } from '../logging/index.js';

/**
 * Checks whose result could not be stored (MongoDB unreachable or stalled), kept in the worker in
 * the order they were made and recorded when MongoDB answers again, each once: some decided
 * already (on the hot state; what MongoDB owes for the decision waits with them), some waiting to
 * be decided. While a monitor (a website's HTTP check, any other monitor: its `key`, as
 * `monitorKey` names it) has one waiting, what MongoDB gets of its later results waits behind it,
 * so it is written in order; while one waits to be decided, its later results wait undecided. Each
 * monitor's order is its own: a website's UDP check kept does not hold back its HTTP check.
 * Bounded: past `capacity` the oldest is dropped, counted, and logged once per outage.
 */
export class PendingRecords<T extends { key: string; websiteId: number; decided: unknown }> {
  private readonly entries: T[] = [];
  private readonly perKey = new Map<string, number>();
  private readonly undecidedPerKey = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> = Promise.resolve();
  private busy = false;
  private droppedThisOutage = 0;

  constructor(
    private readonly options: {
      capacity: number;
      /** Stores the entry and decides its status; throws while MongoDB cannot be reached. */
      record: (entry: T) => Promise<void>;
      /** True when the error means "try again later" rather than "this entry cannot be recorded". */
      isTransient: (error: unknown) => boolean;
      onDropped: (count: number) => void;
      logger: Logger;
      retryEveryMs?: number;
    },
  ) {}

  get size(): number {
    return this.entries.length;
  }

  /** Whether a result of this monitor is waiting (what MongoDB gets of a newer one waits behind it). */
  holds(key: string): boolean {
    return (this.perKey.get(key) ?? 0) > 0;
  }

  /** Whether a result of this monitor waits to be decided (a newer one is decided after it). */
  holdsUndecided(key: string): boolean {
    return (this.undecidedPerKey.get(key) ?? 0) > 0;
  }

  add(entry: T): void {
    if (this.entries.length >= this.options.capacity) {
      // The oldest undecided result goes first: a decided one carries what subscribers were told
      // (the hot state says so already), which nothing would tell again.
      const undecided = this.entries.findIndex((kept) => kept.decided === null);
      const [dropped] = this.entries.splice(Math.max(0, undecided), 1);
      if (dropped) this.forget(dropped);
      this.options.onDropped(1);
      if (this.droppedThisOutage++ === 0)
        this.options.logger.error(
          { capacity: this.options.capacity },
          'result buffer full while MongoDB is away: the oldest results are being dropped, undecided ones first (raise WORKER_RESULT_BUFFER)',
        );
    }
    if (this.entries.length === 0)
      this.options.logger.warn('MongoDB cannot store results now: keeping them until it can');
    this.entries.push(entry);
    count(this.perKey, entry.key, 1);
    if (entry.decided === null) count(this.undecidedPerKey, entry.key, 1);
    this.timer ??= setInterval(() => this.drainSoon(), this.options.retryEveryMs ?? 1000);
  }

  private forget(entry: T): void {
    count(this.perKey, entry.key, -1);
    if (entry.decided === null) count(this.undecidedPerKey, entry.key, -1);
  }

  private drainSoon(): void {
    if (this.busy) return;
    this.busy = true;
    this.draining = this.drain().finally(() => {
      this.busy = false;
    });
  }

  /** Records waiting entries in order until one cannot be recorded yet. */
  private async drain(): Promise<void> {
    let recorded = 0;
    while (this.entries.length > 0) {
      const entry = this.entries[0] as T;
      try {
        await this.options.record(entry);
        recorded++;
      } catch (error) {
        if (this.options.isTransient(error)) break;
        // Not MongoDB's absence: retrying will not help, and it must not hold the others back.
        this.options.logger.error(
          { websiteId: entry.websiteId, err: error instanceof Error ? error.message : String(error) },
          'a kept result could not be recorded: dropped',
        );
        this.options.onDropped(1);
      }
      this.entries.shift();
      this.forget(entry);
    }
    if (recorded > 0)
      this.options.logger.info({ recorded, waiting: this.entries.length }, 'kept results recorded');
    if (this.entries.length === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.droppedThisOutage = 0;
    }
  }

  /** At shutdown: one last try to record what waits (bounded by `withinMs`); returns what is left. */
  async close(withinMs: number): Promise<number> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.draining;
    if (this.entries.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.drain(),
        new Promise((resolve) => {
          timer = setTimeout(resolve, withinMs);
        }),
      ]);
      clearTimeout(timer);
    }
    return this.entries.length;
  }
}

function count(counts: Map<string, number>, key: string, by: 1 | -1): void {
  const left = (counts.get(key) ?? 0) + by;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
