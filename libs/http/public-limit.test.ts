import { describe, expect, it } from 'vitest';
import type { RateLimitDecision } from '../redis/index.js';
import { BlockedAddresses } from './public-limit.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const overBudget = (resetSeconds: number): RateLimitDecision => ({
  allowed: false,
  limit: 60,
  remaining: 0,
  resetSeconds,
  windowSeconds: 60,
});

describe('BlockedAddresses', () => {
  it('refuses an address until its window ends, counting the seconds left down', async () => {
    const blocked = new BlockedAddresses();
    expect(blocked.refusal('a')).toBeNull();
    blocked.remember('a', overBudget(30));
    blocked.remember('b', overBudget(0.05));
    expect(blocked.refusal('a')).toEqual({ ...overBudget(30), resetSeconds: 30 });
    // Never 0 while refused: Retry-After says at least a second.
    expect(blocked.refusal('b')).toEqual({ ...overBudget(0.05), resetSeconds: 1 });
    await sleep(1100);
    expect(blocked.refusal('a')).toEqual({ ...overBudget(30), resetSeconds: 29 });
    expect(blocked.refusal('b')).toBeNull();
  });

  it('remembers 10,000 addresses at most, forgetting the least recently refused first', () => {
    const blocked = new BlockedAddresses();
    for (let n = 0; n < 10_000; n++) blocked.remember(`address ${n}`, overBudget(30));
    expect(blocked.refusal('address 0')).not.toBeNull();
    blocked.remember('one more', overBudget(30));
    expect(blocked.refusal('address 1')).toBeNull();
    expect(blocked.refusal('address 0')).not.toBeNull();
    expect(blocked.refusal('one more')).not.toBeNull();
  });
});
