import type { RateLimiter } from '../redis/index.js';
import { applyRateLimit } from './access-guard.js';
import type { Route } from './route.js';

/** A budget of requests per client address for routes anyone may call without a token. */
export interface PublicBudget {
  /** Names the budget in its Redis keys: routes of one budget share it, other budgets are apart. */
  name: string;
  /** Counts per key in a window shared by every API process (`createRedisRateLimiter`). */
  limiter: RateLimiter;
}

/**
 * The routes, each counting its requests against the budget of the client address before it runs
 * (429 with `Retry-After` once used up), apart from the API's per-token limit. The address is the
 * connection's peer, or with TRUST_PROXY the first of X-Forwarded-For (Koa's `ctx.ip`).
 */
export function limitedPerAddress(budget: PublicBudget, routes: readonly Route[]): Route[] {
  return routes.map((route) => ({
    ...route,
    problems: route.problems.includes(429) ? route.problems : [...route.problems, 429],
    async run(ctx) {
      const decision = await budget.limiter.consume(`public:${budget.name}:${ctx.ip}`);
      applyRateLimit(ctx, decision, 'This address');
      await route.run(ctx);
    },
  }));
}
