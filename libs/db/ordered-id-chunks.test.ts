import { describe, expect, it } from 'vitest';
import { chunkIndexFor } from './ordered-id-chunks.js';
import { serializedInProcess } from './serialized-in-process.js';

describe('chunkIndexFor', () => {
  const chunks = [{ first: 0 }, { first: 500 }, { first: 1_200 }];

  it('is the last chunk starting at or below the id', () => {
    expect(chunkIndexFor(chunks, 1)).toBe(0);
    expect(chunkIndexFor(chunks, 499)).toBe(0);
    expect(chunkIndexFor(chunks, 500)).toBe(1);
    expect(chunkIndexFor(chunks, 1_199)).toBe(1);
    expect(chunkIndexFor(chunks, 1_200)).toBe(2);
    expect(chunkIndexFor(chunks, 10 ** 9)).toBe(2);
  });

  it('is the first chunk for an id below every start, and -1 without chunks', () => {
    expect(chunkIndexFor([{ first: 50 }, { first: 90 }], 3)).toBe(0);
    expect(chunkIndexFor([], 3)).toBe(-1);
  });
});

describe('serializedInProcess', () => {
  it("runs one owner's work one at a time, in order, and other owners' beside it; a failure does not stop the next", async () => {
    const serialize = serializedInProcess();
    const log: string[] = [];
    const step = (owner: number, name: string, ms: number, fail = false) =>
      serialize(owner, async () => {
        log.push(`${name} start`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([step(1, 'a', 20, true), step(1, 'b', 1), step(2, 'c', 5)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    // Owner 2's work ran while owner 1's first was still running; owner 1's second only after it.
    expect(log.indexOf('c start')).toBeLessThan(log.indexOf('a end'));
    expect(log.indexOf('b start')).toBeGreaterThan(log.indexOf('a end'));
  });
});
