import { describe, expect, it } from 'vitest';
import { loadWaitOf } from './lighthouse-run.js';

describe('the load wait within a run deadline', () => {
  it('is whole milliseconds, three quarters of the deadline, 45 s at most', () => {
    expect(loadWaitOf(59_999)).toBe(44_999);
    expect(Number.isInteger(loadWaitOf(12_345))).toBe(true);
    expect(loadWaitOf(40_000)).toBe(30_000);
    expect(loadWaitOf(90_000)).toBe(45_000);
    // What the thread's settle timer is then given is a valid timer delay.
    expect(() => AbortSignal.timeout(loadWaitOf(59_999) + 10_000)).not.toThrow();
  });
});
