import { createHash, randomBytes } from 'node:crypto';
import type { ClientInfo } from '../contract/index.js';
import { type Redis, redisScript } from '../redis/index.js';

/** A session as stored in Redis (a hash under the SHA-256 of its id; the id itself is nowhere). */
export interface Session {
  /** Non-secret: names the session in `GET /api/me/sessions` and `DELETE /api/me/sessions/{id}`. */
  handle: string;
  userId: number;
  organizationId: number;
  createdAt: Date;
  lastSeenAt: Date;
  address: string;
  userAgent: string;
  /**
   * Signed in without two-factor though the organization requires it for the user's role: the
   * session reaches only the enrolment routes until the user has turned it on.
   */
  mustEnrolTwoFactor: boolean;
}

export interface SessionLimits {
  /** A session unused this long is over; each use starts it again. */
  idleMs: number;
  /** A session is over this long after sign-in, used or not. */
  absoluteMs: number;
  /** Sessions one user may have; a new one past it ends their oldest (SESSION_MAX_PER_USER). */
  maxPerUser: number;
}

/** 32 random bytes in base64url. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (sessionId: string) => createHash('sha256').update(sessionId).digest('hex');

// Touches a session: over when past its absolute end (deleted), else lastSeenAt = now and its expiry
// the idle time, never past the absolute end. One key, one round trip; returns the fields or nil.
const TOUCH_SCRIPT = `
local createdAt = tonumber(redis.call('HGET', KEYS[1], 'createdAt'))
if not createdAt then return nil end
local now = tonumber(ARGV[1])
local left = createdAt + tonumber(ARGV[3]) - now
if left <= 0 then redis.call('DEL', KEYS[1]); return nil end
redis.call('HSET', KEYS[1], 'lastSeenAt', ARGV[1], 'address', ARGV[4], 'userAgent', ARGV[5])
redis.call('PEXPIRE', KEYS[1], math.min(tonumber(ARGV[2]), left))
return redis.call('HGETALL', KEYS[1])
`;
const touchScript = redisScript(TOUCH_SCRIPT);

function sessionOf(fields: Record<string, string>): Session | null {
  if (!fields.handle) return null;
  return {
    handle: fields.handle,
    userId: Number(fields.userId),
    organizationId: Number(fields.organizationId),
    createdAt: new Date(Number(fields.createdAt)),
    lastSeenAt: new Date(Number(fields.lastSeenAt)),
    address: fields.address ?? '',
    userAgent: fields.userAgent ?? '',
    mustEnrolTwoFactor: fields.mustEnrolTwoFactor === '1',
  };
}

const pairs = (flat: unknown): Record<string, string> => {
  const list = flat as string[];
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) fields[list[i] as string] = list[i + 1] as string;
  return fields;
};

/**
 * Sessions in Redis: `<prefix>:session:<sha256 of id>` holds one, `<prefix>:user-sessions:<userId>`
 * maps each of a user's handles to that hash (to list and end them). Each command touches one key,
 * so it runs on a Redis Cluster as well.
 */
export class SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly lifetimes: SessionLimits,
  ) {}

  private sessionKey(hash: string) {
    return `${this.prefix}:session:${hash}`;
  }

  private userKey(userId: number) {
    return `${this.prefix}:user-sessions:${userId}`;
  }

  get absoluteMs(): number {
    return this.lifetimes.absoluteMs;
  }

  /** A new session; its id (for the cookie) is returned and never stored. */
  async create(
    user: { id: number; organizationId: number },
    client: ClientInfo,
    options: { mustEnrolTwoFactor: boolean } = { mustEnrolTwoFactor: false },
  ): Promise<{ id: string; session: Session }> {
    const id = randomBytes(32).toString('base64url');
    const hash = hashOf(id);
    const now = Date.now();
    const session: Session = {
      handle: randomBytes(12).toString('base64url'),
      userId: user.id,
      organizationId: user.organizationId,
      createdAt: new Date(now),
      lastSeenAt: new Date(now),
      ...client,
      mustEnrolTwoFactor: options.mustEnrolTwoFactor,
    };
    const key = this.sessionKey(hash);
    await this.redis
      .multi()
      .hset(key, {
        handle: session.handle,
        userId: user.id,
        organizationId: user.organizationId,
        createdAt: now,
        lastSeenAt: now,
        address: client.address,
        userAgent: client.userAgent,
        ...(options.mustEnrolTwoFactor ? { mustEnrolTwoFactor: '1' } : {}),
      })
      .pexpire(key, Math.min(this.lifetimes.idleMs, this.lifetimes.absoluteMs))
      .exec();
    const index = this.userKey(user.id);
    await this.redis
      .multi()
      .hset(index, session.handle, hash)
      .pexpire(index, this.lifetimes.absoluteMs)
      .exec();
    await this.endBeyondCap(user.id);
    return { id, session };
  }

  /** Ends the user's oldest sessions past `maxPerUser`, so signing in again and again cannot pile them up. */
  private async endBeyondCap(userId: number): Promise<void> {
    if ((await this.redis.hlen(this.userKey(userId))) <= this.lifetimes.maxPerUser) return;
    const sessions = await this.list(userId);
    for (const session of sessions.slice(0, Math.max(0, sessions.length - this.lifetimes.maxPerUser)))
      await this.end(userId, session.handle);
  }

  /** The session with this id, used now (its idle expiry starts again), or null when over or unknown. */
  async use(sessionId: string, client: ClientInfo): Promise<Session | null> {
    if (!SESSION_ID.test(sessionId)) return null;
    const answer = await touchScript.run(
      this.redis,
      [this.sessionKey(hashOf(sessionId))],
      [Date.now(), this.lifetimes.idleMs, this.lifetimes.absoluteMs, client.address, client.userAgent],
    );
    return answer ? sessionOf(pairs(answer)) : null;
  }

  /** Whether the session with this id is still going, without using it (its idle expiry is not moved). */
  async going(sessionId: string): Promise<boolean> {
    return SESSION_ID.test(sessionId) && (await this.redis.exists(this.sessionKey(hashOf(sessionId)))) === 1;
  }

  /** The user's sessions still going, oldest first; forgets those that ended. */
  async list(userId: number): Promise<Session[]> {
    const index = this.userKey(userId);
    const handles = await this.redis.hgetall(index);
    const sessions: Session[] = [];
    for (const [handle, hash] of Object.entries(handles)) {
      const session = sessionOf(await this.redis.hgetall(this.sessionKey(hash)));
      if (session) sessions.push(session);
      else await this.redis.hdel(index, handle);
    }
    return sessions.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  /** Ends the user's session with this handle; false when there is none. */
  async end(userId: number, handle: string): Promise<boolean> {
    const index = this.userKey(userId);
    const hash = await this.redis.hget(index, handle);
    if (!hash) return false;
    const removed = await this.redis.del(this.sessionKey(hash));
    await this.redis.hdel(index, handle);
    return removed > 0;
  }

  /** Ends every session of the user but `keep` (a password changed, two-factor turned on); answers how many. */
  async endOthers(userId: number, keep: string): Promise<number> {
    let ended = 0;
    for (const session of await this.list(userId))
      if (session.handle !== keep && (await this.end(userId, session.handle))) ended++;
    return ended;
  }

  /** Ends every session of the user (deleted). */
  async endAll(userId: number): Promise<void> {
    const index = this.userKey(userId);
    for (const hash of Object.values(await this.redis.hgetall(index)))
      await this.redis.del(this.sessionKey(hash));
    await this.redis.del(index);
  }
}
