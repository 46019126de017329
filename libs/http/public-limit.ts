import { LRUCache } from 'lru-cache';
import type { RateLimitDecision, RateLimiter } from '../redis/index.js';
import { growingUpTo } from '../runtime/index.js';
import { applyRateLimit } from './access-guard.js';
import type { Route } from './route.js';

/** A budget of requests per client address for routes anyone may call without a token. */
export interface PublicBudget {
  /** Names the budget in its Redis keys: routes of one budget share it, other budgets are apart. */
  name: string;
  /** Counts per key in a window shared by every API process (`createRedisRateLimiter`). */
  limiter: RateLimiter;
}

/** Addresses over their budget remembered per process at most; past it the least recently refused is forgotten. */
const MAX_BLOCKED_ADDRESSES = 10_000;
/**
 * A refusal is sent this late, so a client that ignores `Retry-After` and asks again at once makes
 * one request a second per connection instead of as many as the API can answer; at most
 * `MAX_HELD_REFUSALS` wait at once per process (past that they are sent at once).
 */
const REFUSAL_DELAY_MS = 1000;
const MAX_HELD_REFUSALS = 1000;

/**
 * Addresses known to be over the budget, each kept until its window ends (its ttl): answered 429
 * without asking Redis again (the window cannot end sooner), so a flood from one address costs no
 * round trips.
 */
export class BlockedAddresses {
  // Far above the usual count: storage grows as addresses come.
  private readonly refused = new LRUCache<string, RateLimitDecision>(growingUpTo(MAX_BLOCKED_ADDRESSES));

  /** The refusal to give now, if the address is blocked. */
  refusal(key: string): RateLimitDecision | null {
    const decision = this.refused.get(key);
    if (!decision) return null;
    const leftMs = this.refused.getRemainingTTL(key);
    return { ...decision, remaining: 0, resetSeconds: Math.max(1, Math.ceil(leftMs / 1000)) };
  }

  remember(key: string, decision: RateLimitDecision): void {
    // At least 1 ms: lru-cache reads a ttl of 0 as none.
    this.refused.set(key, decision, { ttl: Math.max(1, decision.resetSeconds * 1000) });
  }
}

/**
 * The routes, each counting its requests against the budget of the client address before it runs
 * (429 with `Retry-After` once used up), apart from the API's per-token limit; one refused by a
 * full `ConcurrencyLimit` of its reads answers 503 with `Retry-After`. The address is the
 * connection's peer, or with TRUST_PROXY the last of X-Forwarded-For, the one the proxy appended
 * (Koa's `ctx.ip` with `maxIpsCount: 1`).
 */
export function limitedPerAddress(budget: PublicBudget, routes: readonly Route[]): Route[] {
  const blocked = new BlockedAddresses();
  let held = 0;
  const delayRefusal = async () => {
    if (held >= MAX_HELD_REFUSALS) return;
    held++;
    await new Promise((resolve) => setTimeout(resolve, REFUSAL_DELAY_MS));
    held--;
  };
  return routes.map((route) => ({
    ...route,
    problems: route.problems.includes(429) ? route.problems : [...route.problems, 429],
    async run(ctx) {
      const key = `public:${budget.name}:${ctx.ip}`;
      let decision = blocked.refusal(key);
      if (!decision) {
        decision = await budget.limiter.consume(key);
        if (!decision.allowed) blocked.remember(key, decision);
      }
      if (!decision.allowed) await delayRefusal();
      applyRateLimit(ctx, decision, 'This address');
      await route.run(ctx);
    },
  }));
}
