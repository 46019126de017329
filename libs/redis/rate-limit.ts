import type { Redis } from './client.js';
import { redisScript } from './script.js';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
  windowSeconds: number;
}

export interface RateLimiter {
  /** Counts one request against the key and says whether it is within the limit. */
  consume(key: string): Promise<RateLimitDecision>;
  /** Whether the key is within the limit now, without counting anything. */
  peek(key: string): Promise<RateLimitDecision>;
}

// Counts one request in the key's window and returns [count, milliseconds left in the window].
const CONSUME_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

// The key's count and milliseconds left, counting nothing.
const PEEK_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
return {count, ttl}
`;

const consumeScript = redisScript(CONSUME_SCRIPT);
const peekScript = redisScript(PEEK_SCRIPT);

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
  const decision = ([count, ttlMs]: [number, number], counted: boolean): RateLimitDecision => ({
    // A peek asks whether one more would be allowed.
    allowed: counted ? count <= options.limit : count < options.limit,
    limit: options.limit,
    remaining: Math.max(0, options.limit - count),
    resetSeconds: ttlMs > 0 ? Math.max(1, Math.ceil(ttlMs / 1000)) : windowMs / 1000,
    windowSeconds: windowMs / 1000,
  });
  const keyOf = (key: string) => `${options.keyPrefix}:ratelimit:${key}`;
  return {
    async consume(key) {
      const answer = await consumeScript.run(options.redis, [keyOf(key)], [windowMs]);
      return decision(answer as [number, number], true);
    },
    async peek(key) {
      const answer = await peekScript.run(options.redis, [keyOf(key)], [windowMs]);
      return decision(answer as [number, number], false);
    },
  };
}
