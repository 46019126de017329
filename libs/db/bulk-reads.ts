import { AsyncLocalStorage } from 'node:async_hooks';
import { ConcurrencyLimit } from '../runtime/index.js';

/**
 * Reads of bulk work (a report's build: ~1,800 primary-key reads for 200 websites) in flight at
 * once in this process, whatever number of such builds run. Each fan-out of a build read 8–16 at
 * once, six fan-outs side by side, two builds at once: ~100 reads queued in the driver's pool and
 * in FerretDB, where another organization's single read waited behind them (its token's lookup
 * took 117 ms on average during a PDF flood, its requests' p50 395 ms; `bench:noisy-neighbours`).
 * At 2, a person's read meets at most two of them there, as the public lookups' `publicReads` do.
 */
export const BULK_READS_AT_ONCE = 2;

const bulkSlots = new ConcurrencyLimit(BULK_READS_AT_ONCE);

/** Inside bulk work: whether this async path holds one of the process's bulk slots already. */
const bulkWork = new AsyncLocalStorage<{ holdsSlot: boolean }>();

/**
 * Runs `work` as bulk work: every read it makes through a `readFanOut` takes one of the process's
 * bulk slots, so it yields MongoDB to people's requests instead of flooding it.
 */
export function asBulkWork<T>(work: () => Promise<T>): Promise<T> {
  return bulkWork.run({ holdsSlot: false }, work);
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
      return local.run(() => bulkSlots.run(() => bulkWork.run({ holdsSlot: true }, read)));
    },
  };
}
