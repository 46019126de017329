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

/** How long a lock's fence is remembered after its last holder (longer than any holder may hold it). */
const FENCE_MEMORY_SECONDS = 86_400;

// Takes the lock (KEYS[1]) and, if taken, reads KEYS[2] in the same round trip, and hands out a
// fence: Redis's clock in microseconds, above the last holder's (KEYS[3], suffixed "r" once that
// holder released; without the suffix, that holder's lock expired while it may still be writing).
// Answers [1, value, fence, lapsed] or [0].
const TAKE_AND_READ_SCRIPT = `
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {0} end
local now = redis.call('TIME')
local fence = tonumber(now[1]) * 1000000 + tonumber(now[2])
local last = redis.call('GET', KEYS[3])
local lapsed = 0
if last then
  local released = string.sub(last, -1) == 'r'
  if not released then lapsed = 1 end
  local previous = tonumber(released and string.sub(last, 1, -2) or last)
  if previous and previous >= fence then fence = previous + 1 end
end
local fenceText = string.format('%.0f', fence)
redis.call('SET', KEYS[3], fenceText, 'EX', ARGV[3])
return {1, redis.call('GET', KEYS[2]), fenceText, lapsed}
`;
const takeAndReadScript = redisScript(TAKE_AND_READ_SCRIPT);

// Only while the lock (KEYS[1]) is still ours: writes KEYS[2] (unless ARGV[2] is empty), releases
// the lock and, if ARGV[6] is 1, marks its fence (KEYS[3]) released (else the next holder is told
// the last one lapsed, as this one was). Answers 0, writing nothing, when it is not ours.
const WRITE_AND_RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] ~= '' then redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3]) end
redis.call('DEL', KEYS[1])
if ARGV[6] == '1' then redis.call('SET', KEYS[3], ARGV[4] .. 'r', 'EX', ARGV[5]) end
return 1
`;
const writeAndReleaseScript = redisScript(WRITE_AND_RELEASE_SCRIPT);

// Extends the lock by ARGV[2] ms if it is still ours.
const RENEW_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;
const renewScript = redisScript(RENEW_SCRIPT);

/** What work under `withLockedKey` leaves: its result, and the key's new value if it changes. */
export interface LockedKeyOutcome<T> {
  result: T;
  write?: { value: string; ttlSeconds: number };
  /**
   * Whether this holding leaves nothing unfenced behind: the next holder is told it follows a lapsed
   * one unless it does (a holding whose work failed never does; one that followed a lapsed holding
   * does only once it wrote what fences that holder's late writes out). @defaultValue !lease.lapsed
   */
  settled?: boolean;
}

/** The holding of a lock, as its work sees it. */
export interface Lease {
  /** Greater than every earlier holder's of the resource: what writes elsewhere are fenced with. */
  readonly fence: number;
  /** The holder before this one let its lock expire (stalled or died): it may still write late. */
  readonly lapsed: boolean;
  /** A renewal found the lock expired or taken by another: nothing more may be written under it. */
  readonly lost: boolean;
  /** Asks Redis whether the lock is still this holding's (a round trip: before writes that tell). */
  stillHeld(): Promise<boolean>;
}

export interface MutexOptions {
  /** The lock expires after this long even if its holder dies. @defaultValue 15000 */
  ttlMs?: number;
  /** How long to wait for a taken lock before giving up. @defaultValue 5000 */
  waitMs?: number;
  /**
   * `withLockedKey` renews its lock every third of `ttlMs` while the work runs, up to this long in
   * all: a holder stalled longer (a frozen process, an unbounded wait) loses it. @defaultValue 4 × ttlMs
   */
  maxHoldMs?: number;
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
   * and written as it is released, two round trips instead of four, and only while the lock is
   * still ours (`refused` otherwise: the lock expired and another holder may have written since).
   * The lock is renewed while the work runs (see `maxHoldMs`); the work gets its `Lease`, whose
   * fence it writes elsewhere with. On a Redis Cluster, `key` and the lock
   * (`<prefix>:lock:<resource>`) must share a hash slot (one hash tag in both).
   */
  async withLockedKey<T>(
    resource: string,
    key: string,
    work: (value: string | null, lease: Lease) => Promise<LockedKeyOutcome<T>>,
  ): Promise<{ result: T; refused: boolean }> {
    const lock = this.lockKey(resource);
    const fenceKey = `${lock}:fence`;
    const token = randomUUID();
    const taken = await this.take(resource, async () => {
      const answer = (await takeAndReadScript.run(
        this.redis,
        [lock, key, fenceKey],
        [token, this.ttlMs, FENCE_MEMORY_SECONDS],
      )) as [number, string | null | undefined, string, number];
      return answer[0] === 1
        ? { value: answer[1] ?? null, fence: Number(answer[2]), lapsed: answer[3] === 1 }
        : undefined;
    });
    const lease = {
      fence: taken.fence,
      lapsed: taken.lapsed,
      lost: false,
      stillHeld: async () => (await this.redis.get(lock)) === token,
    };
    const stopRenewing = this.renewWhileHeld(lock, token, lease);
    const finish = (write: { value: string; ttlSeconds: number } | undefined, settled: boolean) =>
      writeAndReleaseScript.run(
        this.redis,
        [lock, key, fenceKey],
        [
          token,
          write?.value ?? '',
          write?.ttlSeconds ?? 0,
          taken.fence,
          FENCE_MEMORY_SECONDS,
          settled ? 1 : 0,
        ],
      );
    let outcome: LockedKeyOutcome<T>;
    try {
      outcome = await work(taken.value, lease);
    } catch (error) {
      stopRenewing();
      await finish(undefined, false).catch(() => undefined);
      throw error;
    }
    stopRenewing();
    // A failed write fails the work, as a failed write inside it would (the lock then expires).
    const written = (await finish(outcome.write, outcome.settled ?? !taken.lapsed)) === 1;
    return { result: outcome.result, refused: !written && outcome.write !== undefined };
  }

  /** Extends the lock every third of its TTL until stopped or `maxHoldMs` is over; marks the lease lost if it is. */
  private renewWhileHeld(lock: string, token: string, lease: { lost: boolean }): () => void {
    const until = Date.now() + (this.options.maxHoldMs ?? 4 * this.ttlMs);
    const timer = setInterval(() => {
      if (Date.now() + this.ttlMs / 3 > until) return clearInterval(timer);
      renewScript.run(this.redis, [lock], [token, this.ttlMs]).then(
        (renewed) => {
          if (renewed !== 1) {
            lease.lost = true;
            clearInterval(timer);
          }
        },
        // Redis away: the next tick tries again; the lock may expire meanwhile, as without renewal.
        () => undefined,
      );
    }, this.ttlMs / 3);
    timer.unref();
    return () => clearInterval(timer);
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
