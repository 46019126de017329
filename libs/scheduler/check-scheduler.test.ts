import { describe, expect, it } from 'vitest';
import { spreadOffsetMs, websiteIdOf } from './check-scheduler.js';

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

describe('websiteIdOf', () => {
  it.each([
    ['website-12', 12],
    ['website-x', undefined],
    ['other-1', undefined],
  ])('%s → %s', (id, expected) => {
    expect(websiteIdOf(id)).toBe(expected);
  });
});
