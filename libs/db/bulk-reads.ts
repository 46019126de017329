import { AsyncLocalStorage } from 'node:async_hooks';
import { ConcurrencyLimit, RoundRobinQueue } from '../runtime/index.js';

/**
 * Reads of bulk work (a report's build: ~1,800 primary-key reads for 200 websites) in flight at
 * once in this process, whatever number of such builds run. Each fan-out of a build read 8–16 at
 * once, six fan-outs side by side, two builds at once: ~100 reads queued in the driver's pool and
 * in FerretDB, where another organization's single read waited behind them (its token's lookup
 * took 117 ms on average during a PDF flood, its requests' p50 395 ms; `bench:noisy-neighbours`).
 * At 2, a person's read meets at most two of them there, as the public lookups' `publicReads` do.
 */
export const BULK_READS_AT_ONCE = 2;

/**
 * The process's bulk slots, served in turn across owners when they are all taken: a report of one
 * organization waits one read of another's at most, not behind every read its builds queued.
 */
class BulkSlots {
  private free = BULK_READS_AT_ONCE;
  private readonly waiting = new RoundRobinQueue<string, () => void>();

  async run<T>(owner: string, read: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(owner, resolve));
    try {
      return await read();
    } finally {
      // The slot passes straight to the next in turn, so `free` never rises in between.
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

const bulkSlots = new BulkSlots();

/** Inside bulk work: whose it is, and whether this async path holds one of its bulk slots already. */
const bulkWork = new AsyncLocalStorage<{ owner: string; holdsSlot: boolean }>();

/**
 * Runs `work` as bulk work of `owner` (an organization): every read it makes through a `readFanOut`
 * takes one of the process's bulk slots, in turn with other owners', so it yields MongoDB to
 * people's requests instead of flooding it.
 */
export function asBulkWork<T>(owner: string, work: () => Promise<T>): Promise<T> {
  return bulkWork.run({ owner, holdsSlot: false }, work);
}

/** A fan-out of reads, `atOnce` of them at a time (bulk work: within the process's bulk slots too). */
export interface ReadFanOut {
  run<T>(read: () => Promise<T>): Promise<T>;
}

/**
 * A fan-out's limit of `atOnce` reads; inside bulk work each read also waits for a bulk slot. A
 * read that fans out again inside its slot keeps it (a nested fan-out would otherwise wait for a
 * slot its own caller holds).
 */
export function readFanOut(atOnce: number): ReadFanOut {
  const local = new ConcurrencyLimit(atOnce);
  return {
    run(read) {
      const context = bulkWork.getStore();
      if (!context || context.holdsSlot) return local.run(read);
      return local.run(() =>
        bulkSlots.run(context.owner, () => bulkWork.run({ owner: context.owner, holdsSlot: true }, read)),
      );
    },
  };
}
