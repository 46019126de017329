import { describe, expect, it } from 'vitest';
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
});
