import { describe, expect, it } from 'vitest';
import { createLogger } from '../logging/index.js';
import { PendingRecords } from './pending-records.js';

class Unavailable extends Error {}

function buffer(capacity: number) {
  const recorded: string[] = [];
  let dropped = 0;
  let up = false;
  const pending = new PendingRecords<{ key: string; websiteId: number; name: string; decided: 'yes' | null }>(
    {
      capacity,
      record: async (entry) => {
        if (!up) throw new Unavailable('MongoDB is away');
        if (entry.name === 'broken') throw new Error('cannot be stored');
        recorded.push(entry.name);
      },
      isTransient: (error) => error instanceof Unavailable,
      onDropped: (count) => {
        dropped += count;
      },
      logger: createLogger('test', 'silent'),
      retryEveryMs: 20,
    },
  );
  return {
    pending,
    recorded,
    dropped: () => dropped,
    comeBack: () => {
      up = true;
    },
  };
}

describe('results kept while MongoDB is away', () => {
  it('are recorded in the order they were made once it is back, each once', async () => {
    const { pending, recorded, comeBack } = buffer(10);
    pending.add({ key: '1', websiteId: 1, name: 'a1', decided: 'yes' });
    pending.add({ key: '2', websiteId: 2, name: 'b1', decided: null });
    pending.add({ key: '1', websiteId: 1, name: 'a2', decided: 'yes' });
    expect(pending.holds('1')).toBe(true);
    expect(pending.holds('3')).toBe(false);
    // Website 1's wait decided (their MongoDB part only), website 2's to be decided.
    expect([pending.holdsUndecided('1'), pending.holdsUndecided('2')]).toEqual([false, true]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(recorded).toEqual([]);
    comeBack();
    await expect.poll(() => recorded, { timeout: 2000, interval: 10 }).toEqual(['a1', 'b1', 'a2']);
    expect(pending.size).toBe(0);
    expect(pending.holds('1')).toBe(false);
    expect(pending.holdsUndecided('2')).toBe(false);
  });

  it('keeps each monitor in its own order: a website’s UDP check kept does not hold back its HTTP check', async () => {
    const { pending } = buffer(10);
    pending.add({ key: 'udp:7', websiteId: 1, name: 'udp', decided: null });
    expect([pending.holds('udp:7'), pending.holdsUndecided('udp:7')]).toEqual([true, true]);
    // The website's own HTTP check (key '1') is not behind it.
    expect([pending.holds('1'), pending.holdsUndecided('1')]).toEqual([false, false]);
  });

  it('past the bound, the oldest are dropped and counted', async () => {
    const { pending, recorded, dropped, comeBack } = buffer(2);
    for (const name of ['1', '2', '3', '4'])
      pending.add({ key: name, websiteId: Number(name), name, decided: null });
    expect(dropped()).toBe(2);
    expect([pending.holds('1'), pending.holdsUndecided('1')]).toEqual([false, false]);
    comeBack();
    await expect.poll(() => recorded, { timeout: 2000, interval: 10 }).toEqual(['3', '4']);
  });

  it('past the bound, results waiting to be decided go before decided ones (which carry what was told)', async () => {
    const { pending, recorded, dropped, comeBack } = buffer(2);
    pending.add({ key: '1', websiteId: 1, name: 'told', decided: 'yes' });
    pending.add({ key: '2', websiteId: 2, name: 'undecided', decided: null });
    pending.add({ key: '3', websiteId: 3, name: 'newest', decided: null });
    expect(dropped()).toBe(1);
    expect([pending.holds('2'), pending.holdsUndecided('2')]).toEqual([false, false]);
    comeBack();
    await expect.poll(() => recorded, { timeout: 2000, interval: 10 }).toEqual(['told', 'newest']);
  });

  it('one that can never be recorded is dropped, not holding the others back', async () => {
    const { pending, recorded, dropped, comeBack } = buffer(10);
    pending.add({ key: '1', websiteId: 1, name: 'broken', decided: null });
    pending.add({ key: '2', websiteId: 2, name: 'fine', decided: null });
    comeBack();
    await expect.poll(() => recorded, { timeout: 2000, interval: 10 }).toEqual(['fine']);
    expect(dropped()).toBe(1);
  });

  it('are recorded monitor beside monitor, each monitor’s in its order (a full buffer drains faster than one at a time)', async () => {
    const recorded: string[] = [];
    const inFlight = new Set<string>();
    let most = 0;
    let up = false;
    const pending = new PendingRecords<{ key: string; websiteId: number; name: string; decided: null }>({
      capacity: 1000,
      record: async (entry) => {
        if (!up) throw new Unavailable('MongoDB is away');
        // Two of one monitor never at once: its results are written in order.
        expect(inFlight.has(entry.key)).toBe(false);
        inFlight.add(entry.key);
        most = Math.max(most, inFlight.size);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight.delete(entry.key);
        recorded.push(entry.name);
      },
      isTransient: (error) => error instanceof Unavailable,
      onDropped: () => undefined,
      logger: createLogger('test', 'silent'),
      retryEveryMs: 20,
    });
    for (let n = 0; n < 3; n++)
      for (let key = 0; key < 100; key++)
        pending.add({ key: String(key), websiteId: key, name: `${key}/${n}`, decided: null });
    up = true;
    await expect.poll(() => recorded.length, { timeout: 10_000, interval: 10 }).toBe(300);
    expect(most).toBeGreaterThan(1);
    for (let key = 0; key < 100; key++)
      expect(recorded.filter((name) => name.startsWith(`${key}/`))).toEqual([
        `${key}/0`,
        `${key}/1`,
        `${key}/2`,
      ]);
    expect(pending.size).toBe(0);
  });

  it('at shutdown, what cannot be recorded in time is reported', async () => {
    const { pending } = buffer(10);
    pending.add({ key: '1', websiteId: 1, name: 'x', decided: null });
    expect(await pending.close(50)).toBe(1);
  });
});
