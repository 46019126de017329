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

// Takes the lock (KEYS[1]) and, if taken, reads KEYS[2] in the same round trip: [1, value] or [0].
const TAKE_AND_READ_SCRIPT = `
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {1, redis.call('GET', KEYS[2])} end
return {0}
`;
const takeAndReadScript = redisScript(TAKE_AND_READ_SCRIPT);

// Writes KEYS[2] (unless ARGV[2] is empty), then releases the lock (KEYS[1]) if still ours.
const WRITE_AND_RELEASE_SCRIPT = `
if ARGV[2] ~= '' then redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3]) end
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`;
const writeAndReleaseScript = redisScript(WRITE_AND_RELEASE_SCRIPT);

/** What work under `withLockedKey` leaves: its result, and the key's new value if it changes. */
export interface LockedKeyOutcome<T> {
  result: T;
  write?: { value: string; ttlSeconds: number };
}

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
    const key = this.lockKey(resource);
    const token = randomUUID();
    if ((await this.redis.set(key, token, 'PX', this.ttlMs, 'NX')) !== 'OK') return undefined;
    try {
      return await work();
    } finally {
      await this.release(key, token);
    }
  }

  async withLock<T>(resource: string, work: () => Promise<T>): Promise<T> {
    const key = this.lockKey(resource);
    const token = randomUUID();
    const ttlMs = this.ttlMs;
    await this.take(resource, async () =>
      (await this.redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK' ? true : undefined,
    );
    try {
      return await work();
    } finally {
      await this.release(key, token);
    }
  }

  /**
   * `withLock` for work that reads one key and may write it: the key is read as the lock is taken
   * and written as it is released, two round trips instead of four. On a Redis Cluster, `key` and
   * the lock (`<prefix>:lock:<resource>`) must share a hash slot (one hash tag in both).
   */
  async withLockedKey<T>(
    resource: string,
    key: string,
    work: (value: string | null) => Promise<LockedKeyOutcome<T>>,
  ): Promise<T> {
    const lock = this.lockKey(resource);
    const token = randomUUID();
    const { value } = await this.take(resource, async () => {
      const answer = (await takeAndReadScript.run(this.redis, [lock, key], [token, this.ttlMs])) as [
        number,
        string | null | undefined,
      ];
      return answer[0] === 1 ? { value: answer[1] ?? null } : undefined;
    });
    let outcome: LockedKeyOutcome<T>;
    try {
      outcome = await work(value);
    } catch (error) {
      await this.release(lock, token);
      throw error;
    }
    // A failed write fails the work, as a failed write inside it would (the lock then expires).
    const { write } = outcome;
    await writeAndReleaseScript.run(
      this.redis,
      [lock, key],
      [token, write?.value ?? '', write?.ttlSeconds ?? 0],
    );
    return outcome.result;
  }

  private get ttlMs(): number {
    return this.options.ttlMs ?? 15_000;
  }

  private lockKey(resource: string): string {
    return `${this.keyPrefix}:lock:${resource}`;
  }

  /** Tries `attempt` until it takes the lock (answers something), backing off, for at most `waitMs`. */
  private async take<R>(resource: string, attempt: () => Promise<R | undefined>): Promise<R> {
    const deadline = Date.now() + (this.options.waitMs ?? 5000);
    for (let delayMs = 5; ; delayMs = Math.min(delayMs * 2, 100)) {
      const taken = await attempt();
      if (taken !== undefined) return taken;
      if (Date.now() >= deadline) throw new LockTimeoutError(resource);
      await sleep(delayMs);
    }
  }

  /** By the script's hash (every check takes a lock); best effort: an unreleased lock expires. */
  private async release(key: string, token: string): Promise<void> {
    await releaseScript.run(this.redis, [key], [token]).catch(() => undefined);
  }
}
