import { createHash } from 'node:crypto';
import type { Redis } from './client.js';

/** A Lua script run by its hash (not its text on every call), loaded once when Redis lacks it. */
export interface RedisScript {
  run(redis: Redis, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown>;
}

export function redisScript(source: string): RedisScript {
  const sha = createHash('sha1').update(source).digest('hex');
  return {
    async run(redis, keys, args) {
      try {
        return await redis.evalsha(sha, keys.length, ...keys, ...args);
      } catch (error) {
        // A restarted or flushed Redis forgets scripts.
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return redis.eval(source, keys.length, ...keys, ...args);
      }
    },
  };
}
