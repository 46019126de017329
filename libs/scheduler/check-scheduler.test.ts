import { describe, expect, it } from 'vitest';
import { nextCheckAfterRun, nextCheckAt, spreadOffsetMs } from './check-scheduler.js';
import { nextSlotAfter } from './due-set.js';

describe('spreadOffsetMs', () => {
  it('stays within the interval and is never 0', () => {
    for (let id = 1; id <= 5000; id++) {
      const offset = spreadOffsetMs(id, 300_000);
      expect(offset).toBeGreaterThanOrEqual(1);
      expect(offset).toBeLessThan(300_000);
    }
  });

  it('spreads 10,000 websites with one interval: no second holds more than a few', () => {
    const perSecond = new Map<number, number>();
    for (let id = 1; id <= 10_000; id++) {
      const second = Math.floor(spreadOffsetMs(id, 300_000) / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    expect(perSecond.size).toBeGreaterThan(290);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(3 * Math.ceil(10_000 / 300));
  });

  it('is stable for a website', () => {
    expect(spreadOffsetMs(42, 60_000)).toBe(spreadOffsetMs(42, 60_000));
  });
});

describe('nextSlotAfter', () => {
  it('is the first slot of the cadence after now, whatever the moment asked', () => {
    const offset = spreadOffsetMs(77, 10_000);
    for (const now of [0, offset - 1, offset, offset + 1, 1_764_384_000_123, 1_764_384_009_999]) {
      const next = nextSlotAfter(now, 10_000, offset);
      expect(next).toBeGreaterThan(now);
      expect(next - now).toBeLessThanOrEqual(10_000);
      expect((((next - offset) % 10_000) + 10_000) % 10_000).toBe(0);
    }
  });

  it('keeps a website on its cadence after a late start, a re-check or a check now', () => {
    const every = 60_000;
    const slot = nextCheckAt(42, every, 1_764_384_000_000);
    // Started 3 s late, or re-checked 10 s after it: the next one is still the cadence's.
    expect(nextCheckAt(42, every, slot + 3_000)).toBe(slot + every);
    expect(nextCheckAt(42, every, slot + 10_000)).toBe(slot + every);
    // Missed several slots (its worker was down): the next one ahead, not a burst of the missed.
    expect(nextCheckAt(42, every, slot + 5 * every + 1)).toBe(slot + 6 * every);
  });

  it('after a check held past its next slot, is that slot (made at once), not the one after', () => {
    const every = 10_000;
    const slot = nextCheckAt(7, every, 1_764_384_000_000);
    // A quick check: the next slot, as from its end.
    expect(nextCheckAfterRun(7, every, slot + 20, slot + 300)).toBe(slot + every);
    // Its result waited 10.4 s on a stalled MongoDB: the slot it overran is due now.
    expect(nextCheckAfterRun(7, every, slot + 20, slot + 10_400)).toBe(slot + every);
    // Held a whole interval past that slot: it would be stale, so the next one ahead.
    expect(nextCheckAfterRun(7, every, slot + 20, slot + 2 * every + 1)).toBe(slot + 3 * every);
  });
});
