import { randomUUID } from 'node:crypto';
import calculateSlot from 'cluster-key-slot';
import { Cluster } from 'ioredis';
import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { Redis } from './client.js';

export interface RedisDataWatch {
  stop(): Promise<void>;
}

/**
 * The marker keys to watch: one on a single Redis; on a cluster one per master node (a key in a hash
 * slot that node serves), since one node can lose its data while the others keep theirs.
 */
export function markerKeys(redis: Redis, prefix: string): string[] {
  const base = `${prefix}:webmon-data-marker`;
  if (!(redis instanceof Cluster)) return [base];
  const masters = new Set(redis.slots.map((owners) => owners[0]).filter((node) => node !== undefined));
  const keys = new Map<string, string>();
  // Hash tags 0, 1, 2 … fall in slots spread over the whole range: a few dozen reach every node.
  for (let tag = 0; keys.size < masters.size && tag < 1_000_000; tag += 1) {
    const key = `${base}:{${tag}}`;
    const owner = redis.slots[calculateSlot(key)]?.[0];
    if (owner !== undefined && !keys.has(owner)) keys.set(owner, key);
  }
  return [...keys.values()];
}

/**
 * Notices Redis losing its data (FLUSHALL, a restart without persistence, a failover to an empty
 * replica): marker keys (`markerKeys`) are written once and read every `intervalMs`; when one is
 * gone, or holds another value than the one this process saw, what Redis held was lost and `onLost`
 * rebuilds this process's share of it from MongoDB. The first process to notice writes a new
 * marker (SET NX), so all of them agree on the new value. A Redis that cannot be reached is not
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
  const read = async (key: string): Promise<string> => {
    await redis.set(key, randomUUID(), 'NX');
    const value = await redis.get(key);
    if (value === null) throw new Error('the Redis data marker vanished as it was written');
    return value;
  };
  /** Marker key → the value last seen; a key new to this process (a new node) is only recorded. */
  const seen = new Map<string, string>();
  /** The markers whose value changed since last seen. */
  const changed = async (): Promise<string[]> => {
    const keys = markerKeys(redis, options.prefix);
    const values = await Promise.all(keys.map(read));
    const lost = keys.filter((key, i) => seen.has(key) && seen.get(key) !== values[i]);
    seen.clear();
    for (const [i, key] of keys.entries()) seen.set(key, values[i] as string);
    return lost;
  };
  await changed();
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    let lost: string[];
    try {
      lost = await changed();
    } catch {
      return; // unreachable or failing now: the connection's own log says so
    }
    if (lost.length === 0 || stopped) return;
    logger.warn(
      { markers: lost.length, of: seen.size },
      'Redis lost its data (flushed, or restarted without it): rebuilding what MongoDB knows',
    );
    const started = Date.now();
    try {
      await options.onLost();
      logger.info({ durationMs: Date.now() - started }, 'rebuilt what Redis lost');
    } catch (error) {
      // Left to the periodic reconciliations, which rebuild the same things more slowly.
      logger.error(
        { err: errorMessage(error) },
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
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
