import { afterEach, describe, expect, it, vi } from 'vitest';
import { RevisedCache } from './revised-cache.js';

describe('RevisedCache', () => {
  it('keeps found values within its byte budget, the least recently read going first', async () => {
    const cache = new RevisedCache<string>(60_000, { maxBytes: 100, sizeOf: (value) => value.length });
    const loads: string[] = [];
    const get = (key: string) =>
      cache.get(
        key,
        async () => 'r1',
        async () => {
          loads.push(key);
          return { revision: 'r1', value: key.repeat(40) };
        },
      );
    await get('a');
    await get('b');
    await get('a'); // read again: now b is the least recently read
    await get('c'); // 120 bytes with a and b: b goes
    expect(loads).toEqual(['a', 'b', 'c']);
    await get('a');
    await get('c');
    expect(loads).toEqual(['a', 'b', 'c']);
    await get('b');
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('keeps "not found" apart, 10,000 at most: made-up keys do not push out found values', async () => {
    const cache = new RevisedCache<string>(60_000);
    const loads: string[] = [];
    const get = (key: string) =>
      cache.get(
        key,
        async () => 'r1',
        async () => {
          loads.push(key);
          return { revision: 'r1', value: key.startsWith('page') ? key : null };
        },
      );
    await get('page');
    for (let n = 0; n <= 10_000; n++) expect(await get(`made-up ${n}`)).toBeNull();
    expect(await get('page')).toBe('page');
    expect(await get('made-up 10000')).toBeNull();
    expect(loads).toHaveLength(10_002);
    await get('made-up 0');
    expect(loads).toHaveLength(10_003);
  });
});

describe('RevisedCache, stale while refreshing', () => {
  const start = Date.UTC(2026, 10, 24, 12);
  afterEach(() => vi.useRealTimers());

  /** A cache of 30 s fresh, 60 s more while refreshing, whose loads the test resolves. */
  function cacheOf(revision: { current: string }) {
    const cache = new RevisedCache<string>({ maxAgeMs: 30_000, staleWhileRefreshMs: 60_000 });
    const loads: { background: boolean; settle: (value: string | Error) => void }[] = [];
    const get = () =>
      cache.get(
        'page',
        async () => revision.current,
        ({ background }) =>
          new Promise((resolve, reject) => {
            const seenRevision = revision.current;
            loads.push({
              background,
              settle: (value) =>
                value instanceof Error ? reject(value) : resolve({ revision: seenRevision, value }),
            });
          }),
      );
    return { get, loads };
  }
  const settled = () => new Promise((resolve) => setImmediate(resolve));
  /** The cache at `start`, its first load answered with `v1`. */
  async function loadedAtStart(revision: { current: string }) {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const cached = cacheOf(revision);
    const first = cached.get();
    await settled();
    cached.loads[0]?.settle('v1');
    expect(await first).toBe('v1');
    return cached;
  }

  it('answers a value past its age at once while one refresh runs, then the refreshed one', async () => {
    const { get, loads } = await loadedAtStart({ current: 'r1' });
    vi.setSystemTime(start + 45_000);
    expect(await Promise.all([get(), get(), get()])).toEqual(['v1', 'v1', 'v1']);
    expect(loads.map((load) => load.background)).toEqual([false, true]);
    loads[1]?.settle('v2');
    await settled();
    expect(await get()).toBe('v2');
    expect(loads).toHaveLength(2);
  });

  it('tries a failed refresh again a second later, not on every request', async () => {
    const { get, loads } = await loadedAtStart({ current: 'r1' });
    vi.setSystemTime(start + 40_000);
    await get();
    loads[1]?.settle(new Error('MongoDB does not answer'));
    await settled();
    expect(await get()).toBe('v1');
    expect(loads).toHaveLength(2);
    vi.setSystemTime(start + 41_500);
    expect(await get()).toBe('v1');
    expect(loads).toHaveLength(3);
  });

  it('never answers a stale value after its revision moved, nor past the stale window', async () => {
    const revision = { current: 'r1' };
    const { get, loads } = await loadedAtStart(revision);
    vi.setSystemTime(start + 40_000);
    revision.current = 'r2';
    const afterChange = get();
    await settled();
    expect(loads.map((load) => load.background)).toEqual([false, false]);
    loads[1]?.settle('v2');
    expect(await afterChange).toBe('v2');
    vi.setSystemTime(start + 40_000 + 91_000);
    const expired = get();
    await settled();
    expect(loads.map((load) => load.background)).toEqual([false, false, false]);
    loads[2]?.settle('v3');
    expect(await expired).toBe('v3');
  });

  it('a refresh begun before a change is not answered to a visitor who read the change', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const cache = new RevisedCache<string>({ maxAgeMs: 30_000, staleWhileRefreshMs: 60_000 });
    let revision = 'r1';
    let heldRevisionRead: ((value: string) => void) | undefined;
    const loads: Array<(value: string) => void> = [];
    const get = (holdRevisionRead = false) =>
      cache.get(
        'page',
        () =>
          holdRevisionRead
            ? new Promise<string>((resolve) => {
                heldRevisionRead = resolve;
              })
            : Promise.resolve(revision),
        () => {
          const seen = revision;
          return new Promise((resolve) => loads.push((value) => resolve({ revision: seen, value })));
        },
      );
    const first = get();
    await settled();
    loads[0]?.('page');
    await first;
    vi.setSystemTime(start + 40_000);
    expect(await get()).toBe('page'); // served stale; a refresh under r1 begins
    // A visitor's revision read is under way when the page is unpublished and the refresh lands.
    const visitor = get(true);
    await settled();
    revision = 'r2';
    loads[1]?.('page, refreshed under r1');
    await settled();
    heldRevisionRead?.('r2');
    await settled();
    expect(loads).toHaveLength(3);
    loads[2]?.('no page');
    expect(await visitor).toBe('no page');
  });
});
