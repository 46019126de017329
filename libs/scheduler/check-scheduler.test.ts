import { describe, expect, it } from 'vitest';
import { bucketOf, parseBucketMember, spreadOffsetMs } from './check-scheduler.js';

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

describe('bucketOf', () => {
  it('puts a website in the second of the interval its offset falls in', () => {
    for (const id of [1, 2, 77, 123_456]) {
      const { slot, offsetMs, schedulerId } = bucketOf(id, 60);
      expect(slot).toBe(Math.floor(spreadOffsetMs(id, 60_000) / 1000));
      expect(slot).toBeGreaterThanOrEqual(0);
      expect(slot).toBeLessThan(60);
      expect(offsetMs).toBe(slot * 1000 + 1);
      expect(schedulerId).toBe(`bucket-60-${slot}`);
    }
  });

  it('has at most one bucket per second of the interval', () => {
    const slots = new Set(Array.from({ length: 5000 }, (_, i) => bucketOf(i + 1, 10).slot));
    expect([...slots].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('parseBucketMember', () => {
  it.each([
    ['3:17', { organizationId: 3, websiteId: 17 }],
    ['17', null],
    ['3:17:1', null],
    ['a:17', null],
    ['3:', null],
    ['', null],
  ])('%j → %j', (member, expected) => {
    expect(parseBucketMember(member)).toEqual(expected);
  });
});
