import { describe, expect, it } from 'vitest';
import { EventLoopTurns, mapInTurns } from './event-loop-turns.js';

/** Holds the thread for `ms`, as CPU-bound work does. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('work cut into turns of the event loop', () => {
  it('maps every item in order, with its index', async () => {
    expect(await mapInTurns(['a', 'b', 'c'], (item, index) => `${index}:${item}`)).toEqual([
      '0:a',
      '1:b',
      '2:c',
    ]);
  });

  it('a callback waiting meanwhile runs after a slice of work, not after the whole', async () => {
    const happened: string[] = [];
    setImmediate(() => happened.push('other request'));
    await mapInTurns(
      Array.from({ length: 10 }, (_, i) => i),
      (i) => {
        busyFor(2);
        happened.push(`item ${i}`);
      },
      new EventLoopTurns(5),
    );
    const other = happened.indexOf('other request');
    expect(other).toBeGreaterThan(0);
    // Within the first slice of 5 ms (3 items of 2 ms), not after all ten items (20 ms).
    expect(other).toBeLessThanOrEqual(4);
  });

  it('tasks of the process share one slice a turn: two at once do not hold the loop twice as long', async () => {
    const happened: string[] = [];
    // As two exports at once: each maps its items with the process's turns (the default).
    const task = (name: string) =>
      mapInTurns(
        Array.from({ length: 10 }, (_, i) => i),
        (i) => {
          busyFor(1.5);
          happened.push(`${name} ${i}`);
        },
      );
    // A request's callback waiting as they start: it runs after one slice of the two together.
    setImmediate(() => happened.push('other request'));
    await Promise.all([task('a'), task('b')]);
    const other = happened.indexOf('other request');
    // One slice of 2 ms between them: at most two items of 1.5 ms before it (a slice each: four).
    expect(other).toBeGreaterThan(0);
    expect(other).toBeLessThanOrEqual(2);
    expect(happened.filter((h) => h !== 'other request')).toHaveLength(20);
  });

  it('within a slice it does not give way (no turn for each item)', async () => {
    const happened: string[] = [];
    setImmediate(() => happened.push('other request'));
    await mapInTurns([1, 2, 3], (i) => happened.push(`item ${i}`), new EventLoopTurns(10_000));
    expect(happened).toEqual(['item 1', 'item 2', 'item 3']);
  });

  /** Background work of `items` × 1 ms on `turns`, beside a request's chain of 1 ms callbacks: the chain's steps meanwhile. */
  async function stepsBeside(turns: EventLoopTurns, items: number): Promise<number> {
    let steps = 0;
    let running = true;
    const step = () => {
      if (!running) return;
      busyFor(1);
      steps += 1;
      setImmediate(step);
    };
    setImmediate(step);
    await mapInTurns(
      Array.from({ length: items }, (_, i) => i),
      () => busyFor(1),
      turns,
    );
    running = false;
    return steps;
  }

  it('while others wait, it takes its share of the thread: others get more of it than with a slice every turn', async () => {
    const everyTurn = await stepsBeside(new EventLoopTurns(2, 1), 40);
    const halved = await stepsBeside(new EventLoopTurns(2, 0.5), 40);
    // A slice every turn: one step of the chain per 2 ms slice (~20); with a rest of a slice
    // after each: two or three more in each rest.
    expect(halved).toBeGreaterThan(everyTurn * 1.5);
  });

  it('alone, it does not rest: as quick with a share as without', async () => {
    const took = async (turns: EventLoopTurns) => {
      const start = performance.now();
      await mapInTurns(
        Array.from({ length: 40 }, (_, i) => i),
        () => busyFor(1),
        turns,
      );
      return performance.now() - start;
    };
    const everyTurn = await took(new EventLoopTurns(2, 1));
    const halved = await took(new EventLoopTurns(2, 0.5));
    // Resting would add ~40 ms to the 40 ms of work.
    expect(halved).toBeLessThan(everyTurn + 20);
  });

  it('after a quiet spell, the first slice rests a slice, not the spell (the others busy all along)', async () => {
    const turns = new EventLoopTurns(2, 0.5);
    let running = true;
    const step = () => {
      if (!running) return;
      busyFor(1);
      setImmediate(step);
    };
    setImmediate(step);
    try {
      await mapInTurns([1, 2, 3, 4], () => busyFor(1), turns);
      // Background work idle for 300 ms while the others go on.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const start = performance.now();
      await mapInTurns([1, 2, 3, 4], () => busyFor(1), turns);
      // Four items of 1 ms, two slices, each a rest of ~2 ms and the others' steps between.
      expect(performance.now() - start).toBeLessThan(100);
    } finally {
      running = false;
    }
  });
});
