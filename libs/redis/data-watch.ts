import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../logging/index.js';

export interface RedisDataWatch {
  /** The marker's value this process last saw (changes each time Redis is found emptied). */
  readonly generation: string;
  stop(): Promise<void>;
}

/**
 * Notices Redis losing its data (FLUSHALL, a restart without persistence, a failover to an empty
 * replica): a marker key is written once and read every `intervalMs`; when it is gone, or holds
 * another generation than the one this process saw, everything Redis held was lost and `onLost`
 * rebuilds this process's share of it from MongoDB. The first process to notice writes a new
 * marker (SET NX), so all of them agree on the new generation. A Redis that cannot be reached is not
 * a loss: the check is tried again at the next tick.
 */
export async function watchRedisData(options: {
  redis: Redis;
  prefix: string;
  logger: Logger;
  onLost: () => Promise<void>;
  intervalMs?: number;
}): Promise<RedisDataWatch> {
  const { redis, logger } = options;
  const key = `${options.prefix}:webmon-data-marker`;
  const current = async (): Promise<string> => {
    await redis.set(key, randomUUID(), 'NX');
    const value = await redis.get(key);
    if (value === null) throw new Error('the Redis data marker vanished as it was written');
    return value;
  };
  let generation = await current();
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    let now: string;
    try {
      now = await current();
    } catch {
      return; // unreachable or failing now: the connection's own log says so
    }
    if (now === generation || stopped) return;
    generation = now;
    logger.warn(
      { generation },
      'Redis lost its data (flushed, or restarted without it): rebuilding what MongoDB knows',
    );
    const started = Date.now();
    try {
      await options.onLost();
      logger.info({ durationMs: Date.now() - started }, 'rebuilt what Redis lost');
    } catch (error) {
      // Left to the periodic reconciliations, which rebuild the same things more slowly.
      logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'rebuilding what Redis lost failed; the periodic reconciliation will retry',
      );
    }
  };
  let busy = false;
  const timer = setInterval(() => {
    // A slow rebuild is not stacked behind itself.
    if (busy) return;
    busy = true;
    running = tick().finally(() => {
      busy = false;
    });
  }, options.intervalMs ?? 5000);
  timer.unref();
  return {
    get generation() {
      return generation;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
