import type { Redis } from './client.js';

/**
 * The name of a BullMQ queue on this connection. On a Redis Cluster it is a hash tag, so every key
 * of the queue (and ours beside it) falls in one hash slot, as BullMQ's multi-key scripts need,
 * while different queues (one per region) land on different nodes. On a single Redis the name is
 * left bare, so queues and their waiting jobs survive an upgrade.
 */
export function queueName(redis: Redis, base: string): string {
  return redis.isCluster ? `{${base}}` : base;
}

/**
 * A part of key names that keeps one thing's keys (a website's lock and state) in one hash slot on
 * a cluster, so a script may touch them together; bare on a single Redis, so keys keep their names.
 */
export function slotTag(redis: Redis, id: string | number): string {
  return redis.isCluster ? `{${id}}` : String(id);
}

/**
 * The values of many keys. One MGET on a single Redis; on a cluster, where an MGET must stay in one
 * hash slot, one GET per key, which the cluster client pipelines per node.
 */
export function getMany(redis: Redis, keys: readonly string[]): Promise<Array<string | null>> {
  if (keys.length === 0) return Promise.resolve([]);
  return redis.isCluster ? Promise.all(keys.map((key) => redis.get(key))) : redis.mget([...keys]);
}

/** Which of these keys exist, in order (one pipeline on a single Redis; see `getMany`). */
export async function existMany(redis: Redis, keys: readonly string[]): Promise<boolean[]> {
  if (redis.isCluster) return (await Promise.all(keys.map((key) => redis.exists(key)))).map((n) => n === 1);
  const pipeline = redis.pipeline();
  for (const key of keys) pipeline.exists(key);
  const answers = (await pipeline.exec()) ?? [];
  return keys.map((_, i) => answers[i]?.[1] === 1);
}

/** Sets each key that does not exist yet, expiring after `ttlSeconds` (see `getMany`). */
export async function setManyIfAbsent(
  redis: Redis,
  entries: ReadonlyArray<readonly [key: string, value: string]>,
  ttlSeconds: number,
): Promise<void> {
  if (redis.isCluster) {
    await Promise.all(entries.map(([key, value]) => redis.set(key, value, 'EX', ttlSeconds, 'NX')));
    return;
  }
  const pipeline = redis.pipeline();
  for (const [key, value] of entries) pipeline.set(key, value, 'EX', ttlSeconds, 'NX');
  await pipeline.exec();
}
