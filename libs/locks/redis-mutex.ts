import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DomainError } from '../errors/index.js';
import { type Redis, redisScript } from '../redis/index.js';

/** The lock stayed taken for longer than the caller may wait: a conflict worth retrying in a second. */
export class LockTimeoutError extends DomainError {
  constructor(readonly resource: string) {
    super('conflict', `${resource} is being changed by another request; retry shortly`, {
      retryAfterSeconds: 1,
    });
    this.name = 'LockTimeoutError';
  }
}

// Deletes the key only if it still holds our token, so an expired lock taken over by another
// holder is never released by us.
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
const releaseScript = redisScript(RELEASE_SCRIPT);

export interface MutexOptions {
  /** The lock expires after this long even if its holder dies. @defaultValue 15000 */
  ttlMs?: number;
  /** How long to wait for a taken lock before giving up. @defaultValue 5000 */
  waitMs?: number;
}

/**
 * One holder at a time per resource, across every process that shares the Redis. Serializes the
 * read-modify-write of a document (FerretDB runs updates without transactions) and the BullMQ
 * scheduler upserts that follow it (concurrent upserts of one scheduler id can leave it dead).
 */
export class RedisMutex {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly options: MutexOptions = {},
  ) {}

  /** Runs `work` if nobody holds the lock now; otherwise returns undefined at once (singleton jobs). */
  async ifFree<T>(resource: string, work: () => Promise<T>): Promise<T | undefined> {
    const key = `${this.keyPrefix}:lock:${resource}`;
    const token = randomUUID();
    if ((await this.redis.set(key, token, 'PX', this.options.ttlMs ?? 15_000, 'NX')) !== 'OK')
      return undefined;
    try {
      return await work();
    } finally {
      await this.release(key, token);
    }
  }

  async withLock<T>(resource: string, work: () => Promise<T>): Promise<T> {
    const key = `${this.keyPrefix}:lock:${resource}`;
    const token = randomUUID();
    const ttlMs = this.options.ttlMs ?? 15_000;
    const deadline = Date.now() + (this.options.waitMs ?? 5000);
    for (let delayMs = 5; ; delayMs = Math.min(delayMs * 2, 100)) {
      if ((await this.redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK') break;
      if (Date.now() >= deadline) throw new LockTimeoutError(resource);
      await sleep(delayMs);
    }
    try {
      return await work();
    } finally {
      await this.release(key, token);
    }
  }

  /** By the script's hash (every check takes a lock); best effort: an unreleased lock expires. */
  private async release(key: string, token: string): Promise<void> {
    await releaseScript.run(this.redis, [key], [token]).catch(() => undefined);
  }
}
