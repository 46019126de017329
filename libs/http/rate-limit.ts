import type { Redis } from '../redis/index.js';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
  windowSeconds: number;
}

export interface RateLimiter {
  consume(key: string): Promise<RateLimitDecision>;
}

// Counts one request in the key's window and returns [count, milliseconds left in the window].
const CONSUME_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/**
 * A fixed-window counter per key in Redis, shared by every API replica. One round trip per request;
 * a window starts with the first request after the previous one ended.
 */
export function createRedisRateLimiter(options: {
  redis: Redis;
  keyPrefix: string;
  limit: number;
  windowMs?: number;
}): RateLimiter {
  const windowMs = options.windowMs ?? 60_000;
  return {
    async consume(key) {
      const [count, ttlMs] = (await options.redis.eval(
        CONSUME_SCRIPT,
        1,
        `${options.keyPrefix}:ratelimit:${key}`,
        windowMs,
      )) as [number, number];
      return {
        allowed: count <= options.limit,
        limit: options.limit,
        remaining: Math.max(0, options.limit - count),
        resetSeconds: Math.max(1, Math.ceil(ttlMs / 1000)),
        windowSeconds: windowMs / 1000,
      };
    },
  };
}
