import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { asBulkWork, BULK_READS_AT_ONCE, readFanOut } from './bulk-reads.js';

/** A read that takes a few milliseconds and counts how many run at once. */
function countingReads() {
  let running = 0;
  let most = 0;
  return {
    read: async () => {
      running += 1;
      most = Math.max(most, running);
      await sleep(3);
      running -= 1;
    },
    most: () => most,
  };
}

describe('bulk reads: a process-wide share of MongoDB for bulk work', () => {
  it('bulk work’s fan-outs side by side keep to the process’s bulk slots together', async () => {
    const reads = countingReads();
    const build = (owner: string) =>
      asBulkWork(owner, async () => {
        const fanOut = readFanOut(8);
        await Promise.all(Array.from({ length: 20 }, () => fanOut.run(reads.read)));
      });
    await Promise.all([build('organization:1'), build('organization:1'), build('organization:2')]);
    expect(reads.most()).toBe(BULK_READS_AT_ONCE);
  });

  it('reads outside bulk work keep only their own fan-out’s limit, and never wait for bulk slots', async () => {
    const reads = countingReads();
    const fanOut = readFanOut(8);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Every bulk slot held until the person's reads are done.
    const bulk = asBulkWork('organization:1', () =>
      Promise.all(Array.from({ length: BULK_READS_AT_ONCE }, () => readFanOut(8).run(() => held))),
    );
    await Promise.all(Array.from({ length: 20 }, () => fanOut.run(reads.read)));
    expect(reads.most()).toBe(8);
    release();
    await bulk;
  });

  it('a read that fans out again inside its slot keeps it instead of waiting for another', async () => {
    const reads = countingReads();
    const outer = readFanOut(4);
    const done = asBulkWork('organization:1', () =>
      Promise.all(
        Array.from({ length: 6 }, () =>
          outer.run(async () => {
            const inner = readFanOut(3);
            await Promise.all(Array.from({ length: 3 }, () => inner.run(reads.read)));
          }),
        ),
      ),
    );
    // With every slot held by an outer read waiting for its inner ones, a nested wait would hang.
    await expect(Promise.race([done.then(() => 'done'), sleep(2_000, 'hung')])).resolves.toBe('done');
    expect(reads.most()).toBe(BULK_READS_AT_ONCE * 3);
  });

  it('owners take the slots in turn: one read of another organization waits one of the first’s, not all of them', async () => {
    const finished: string[] = [];
    const read = (name: string) => async () => {
      await sleep(2);
      finished.push(name);
    };
    const first = asBulkWork('organization:1', () => {
      const fanOut = readFanOut(40);
      return Promise.all(Array.from({ length: 40 }, (_, i) => fanOut.run(read(`a${i}`))));
    });
    await sleep(1);
    const finishedBefore = finished.length;
    await asBulkWork('organization:2', () => readFanOut(8).run(read('b')));
    await first;
    // Served in turn: B's read after the reads running when it came and one more of A's at most.
    expect(finished.indexOf('b')).toBeLessThanOrEqual(finishedBefore + BULK_READS_AT_ONCE + 1);
    expect(finished).toHaveLength(41);
  });
});
