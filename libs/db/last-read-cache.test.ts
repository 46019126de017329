import { describe, expect, it } from 'vitest';
import { LastReadCache } from './last-read-cache.js';
import { MongoDeadlineError } from './unavailable.js';

const MAX_AGE_MS = 40;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** A cache whose reads the test answers, one at a time per call, in the order they began. */
function cacheOf(options: { maxEntries?: number; readTimeoutMs?: number } = {}) {
  const mongo = { available: true };
  const cache = new LastReadCache<number, string>({
    maxAgeMs: MAX_AGE_MS,
    maxEntries: options.maxEntries ?? 100,
    readTimeoutMs: options.readTimeoutMs ?? 5_000,
    mongo,
    describe: (key) => `customer ${key}`,
  });
  const reads: { key: number; answer: (value: string | null | Error) => void }[] = [];
  const get = (key: number) =>
    cache.get(
      key,
      () =>
        new Promise<string | null>((resolve, reject) =>
          reads.push({ key, answer: (value) => (value instanceof Error ? reject(value) : resolve(value)) }),
        ),
    );
  /** The key known as `value`, read once. */
  const known = async (key: number, value: string) => {
    const got = get(key);
    await settled();
    reads.at(-1)?.answer(value);
    expect(await got).toBe(value);
  };
  return { get, reads, known, mongo };
}

describe('LastReadCache', () => {
  it('makes the first gets of a key wait for one read, and answers from memory after', async () => {
    const { get, reads } = cacheOf();
    const together = [get(7), get(7), get(7)];
    await settled();
    expect(reads).toHaveLength(1);
    reads[0]?.answer('Acme');
    expect(await Promise.all(together)).toEqual(['Acme', 'Acme', 'Acme']);
    expect(await get(7)).toBe('Acme');
    expect(reads).toHaveLength(1);
  });

  it('answers a value past its age at once while one read refreshes it, then the refreshed one', async () => {
    const { get, reads, known } = cacheOf();
    await known(7, 'Acme');
    await sleep(MAX_AGE_MS + 20);
    expect(await Promise.all([get(7), get(7), get(7)])).toEqual(['Acme', 'Acme', 'Acme']);
    expect(reads).toHaveLength(2);
    reads[1]?.answer('Acme Corp');
    await settled();
    expect(await get(7)).toBe('Acme Corp');
    expect(reads).toHaveLength(2);
  });

  it('keeps the value when its refresh fails, and the next get tries again', async () => {
    const { get, reads, known } = cacheOf();
    await known(7, 'Acme');
    await sleep(MAX_AGE_MS + 20);
    expect(await get(7)).toBe('Acme');
    reads[1]?.answer(new Error('MongoDB does not answer'));
    await settled();
    expect(await get(7)).toBe('Acme');
    expect(reads).toHaveLength(3);
  });

  it('fails the first get when its read fails or is given up, keeping nothing', async () => {
    const { get, reads } = cacheOf({ readTimeoutMs: 30 });
    const failed = get(7);
    await settled();
    reads[0]?.answer(new Error('MongoDB does not answer'));
    await expect(failed).rejects.toThrow('MongoDB does not answer');
    await expect(get(7)).rejects.toBeInstanceOf(MongoDeadlineError);
    expect(reads).toHaveLength(2);
  });

  it('keeps no null: a key read as gone is read again, and a refresh reading null drops the value', async () => {
    const { get, reads, known } = cacheOf();
    const gone = get(7);
    await settled();
    reads[0]?.answer(null);
    expect(await gone).toBeNull();
    await known(7, 'Acme');
    expect(reads).toHaveLength(2);
    await sleep(MAX_AGE_MS + 20);
    expect(await get(7)).toBe('Acme');
    reads[2]?.answer(null);
    await settled();
    const after = get(7);
    await settled();
    expect(reads).toHaveLength(4);
    reads[3]?.answer(null);
    expect(await after).toBeNull();
  });

  it('while MongoDB is away, answers a known value however old without a read', async () => {
    const { get, reads, known, mongo } = cacheOf();
    await known(7, 'Acme');
    mongo.available = false;
    await sleep(MAX_AGE_MS + 20);
    expect(await get(7)).toBe('Acme');
    expect(reads).toHaveLength(1);
    mongo.available = true;
    expect(await get(7)).toBe('Acme');
    expect(reads).toHaveLength(2);
  });

  it('keeps at most maxEntries keys, the least recently used going first', async () => {
    const { get, reads, known } = cacheOf({ maxEntries: 2 });
    await known(1, 'one');
    await known(2, 'two');
    expect(await get(1)).toBe('one'); // now 2 is the least recently used
    await known(3, 'three');
    expect(await get(1)).toBe('one');
    expect(await get(3)).toBe('three');
    expect(reads).toHaveLength(3);
    const again = get(2);
    await settled();
    expect(reads.map((read) => read.key)).toEqual([1, 2, 3, 2]);
    reads[3]?.answer('two');
    expect(await again).toBe('two');
  });
});
