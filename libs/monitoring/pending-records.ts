import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import { ConcurrencyLimit } from '../runtime/index.js';

/** Monitors whose kept results are recorded at once when MongoDB answers again. */
const DRAIN_MONITORS_AT_ONCE = 32;

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
  /** Dropped (the buffer full) while a drain held them. */
  private readonly dropped = new Set<T>();
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
      if (dropped) {
        this.forget(dropped);
        // A drain under way holds it still: it is not recorded there.
        if (this.busy) this.dropped.add(dropped);
      }
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

  /**
   * Records waiting entries, each monitor's in order, monitors side by side (`DRAIN_MONITORS_AT_ONCE`):
   * one at a time, a buffer that filled during an outage drained slower than checks kept adding
   * to it (a monitor with a result waiting keeps its newer ones behind it), and never emptied.
   * A monitor stops at the first entry that cannot be recorded yet; once one meets MongoDB's
   * absence, no other starts a new entry.
   */
  private async drain(): Promise<void> {
    const queues = new Map<string, T[]>();
    for (const entry of this.entries) {
      const queue = queues.get(entry.key);
      if (queue) queue.push(entry);
      else queues.set(entry.key, [entry]);
    }
    const done = new Set<T>();
    let away = false;
    const limit = new ConcurrencyLimit(DRAIN_MONITORS_AT_ONCE);
    await Promise.all(
      [...queues.values()].map((queue) =>
        limit.run(async () => {
          for (const entry of queue) {
            if (away) return;
            if (this.dropped.has(entry)) continue;
            try {
              await this.options.record(entry);
            } catch (error) {
              if (this.options.isTransient(error)) {
                away = true;
                return;
              }
              // Not MongoDB's absence: retrying will not help, and it must not hold the others back.
              this.options.logger.error(
                { websiteId: entry.websiteId, err: errorMessage(error) },
                'a kept result could not be recorded: dropped',
              );
              this.options.onDropped(1);
            }
            done.add(entry);
            this.forget(entry);
          }
        }),
      ),
    );
    // Entries kept meanwhile stay, after the ones still waiting.
    const left = this.entries.filter((entry) => !done.has(entry) && !this.dropped.has(entry));
    this.entries.splice(0, this.entries.length, ...left);
    this.dropped.clear();
    const recorded = done.size;
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
