import { type Redis, redisScript } from '../redis/index.js';
import type { Lane } from './lanes.js';

/**
 * One round trip of a lane: first puts back the members this worker finished (each at its next
 * time, unless someone moved it meanwhile: its score is no longer the lease it was claimed with),
 * then takes up to ARGV[2] members due at ARGV[1] (epoch ms), each moved to ARGV[3] (a lease: a
 * worker that dies holding one leaves it to be taken again when the lease ends), and answers the
 * earliest score left (when to look again). Atomic, so two workers never take the same member.
 * ARGV[4] is how many put-backs follow, as (member, next time, lease) triples.
 */
const exchangeScript = redisScript(`
local count = tonumber(ARGV[4])
for i = 0, count - 1 do
  local member = ARGV[5 + i * 3]
  local score = redis.call('ZSCORE', KEYS[1], member)
  if score and tonumber(score) == tonumber(ARGV[7 + i * 3]) then
    redis.call('ZADD', KEYS[1], ARGV[6 + i * 3], member)
  end
end
local due = {}
if tonumber(ARGV[2]) > 0 then
  due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
  for i = 1, #due, 2 do redis.call('ZADD', KEYS[1], ARGV[3], due[i]) end
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
table.insert(due, 1, first[2] or '')
return due
`);

/** A monitor a due set holds: `<kind>:<id>:<organization>:<website>` (a website's HTTP check: `http:<website>:…`). */
export interface DueMember {
  kind: string;
  monitorId: number;
  organizationId: number;
  websiteId: number;
}

// A kind's name may hold digits and dashes (pop3, api-flow).
const MEMBER = /^([a-z][a-z0-9-]*):(\d+):(\d+):(\d+)$/;

export const dueMember = (m: DueMember) => `${m.kind}:${m.monitorId}:${m.organizationId}:${m.websiteId}`;

export function parseDueMember(text: string): DueMember | null {
  const match = MEMBER.exec(text);
  return match
    ? {
        kind: match[1] as string,
        monitorId: Number(match[2]),
        organizationId: Number(match[3]),
        websiteId: Number(match[4]),
      }
    : null;
}

/** A member taken from a due set: when it was due, and the lease it is held under. */
export interface Claimed {
  member: DueMember;
  /** Its score when taken (epoch ms): when its check was due. */
  plannedAt: number;
  /** The score it holds while taken (renewed); putting it back is ignored once it is no longer this. */
  lease: number;
}

/** A claimed member put back at its next time (null: it leaves the set). */
export interface PutBack {
  claimed: Claimed;
  nextAt: number | null;
}

/**
 * When each monitor is next due, as a Redis sorted set (score: epoch ms): every kind's checks, one
 * set per region and lane, and heartbeats' deadlines in one set. Workers claim what is due and put
 * it back at its next time; producers (the API, the reconciliations) write what belongs in it.
 */
export class DueSet {
  constructor(
    private readonly redis: Redis,
    readonly key: string,
  ) {}

  async schedule(member: DueMember, at: Date | number): Promise<void> {
    await this.redis.zadd(this.key, typeof at === 'number' ? at : at.getTime(), dueMember(member));
  }

  /** Added only where the member is not in the set already (a reconciliation keeps what workers set). */
  async scheduleIfAbsent(member: DueMember, at: Date | number): Promise<void> {
    await this.redis.zadd(
      this.key,
      'NX',
      String(typeof at === 'number' ? at : at.getTime()),
      dueMember(member),
    );
  }

  /** Due at `at` or sooner: added if absent, moved earlier if later (a first check, a check now). */
  async scheduleBy(member: DueMember, at: number): Promise<void> {
    await this.redis.zadd(this.key, 'LT', String(at), dueMember(member));
  }

  async remove(member: DueMember): Promise<void> {
    await this.redis.zrem(this.key, dueMember(member));
  }

  /** Every member with its time (tests and the reconciliation). */
  async members(): Promise<Array<{ member: DueMember; at: number }>> {
    const flat = await this.redis.zrange(this.key, '0', '-1', 'WITHSCORES');
    const found: Array<{ member: DueMember; at: number }> = [];
    for (let i = 0; i < flat.length; i += 2) {
      const member = parseDueMember(flat[i] as string);
      if (member) found.push({ member, at: Number(flat[i + 1]) });
    }
    return found;
  }

  /** How many members are due at `now` and not taken, and how many the set holds. */
  async counts(now: number): Promise<{ due: number; total: number }> {
    const [due, total] = await Promise.all([
      this.redis.zcount(this.key, '-inf', String(now)),
      this.redis.zcard(this.key),
    ]);
    return { due, total };
  }

  /** Up to `limit` members due at `now`, each leased until `now + leaseMs`. */
  async claim(now: number, limit: number, leaseMs: number): Promise<Claimed[]> {
    return (await this.exchange([], now, limit, leaseMs)).claimed;
  }

  /**
   * Puts back `finished` and claims up to `limit` members due at `now`, in one round trip; answers
   * them and the earliest time any member is due (null: the set is empty).
   */
  async exchange(
    finished: readonly PutBack[],
    now: number,
    limit: number,
    leaseMs: number,
  ): Promise<{ claimed: Claimed[]; nextAt: number | null }> {
    const lease = now + leaseMs;
    const back: Array<string | number> = [];
    const leaving: string[] = [];
    for (const { claimed, nextAt } of finished) {
      if (nextAt === null) leaving.push(dueMember(claimed.member));
      else back.push(dueMember(claimed.member), nextAt, claimed.lease);
    }
    if (leaving.length > 0) await this.redis.zrem(this.key, ...leaving);
    const reply = (await exchangeScript.run(
      this.redis,
      [this.key],
      [now, limit, lease, back.length / 3, ...back],
    )) as string[];
    const claimed: Claimed[] = [];
    for (let i = 1; i < reply.length; i += 2) {
      const text = reply[i] as string;
      const member = parseDueMember(text);
      if (member) claimed.push({ member, plannedAt: Number(reply[i + 1]), lease });
      // A damaged entry (not ours) leaves, or it would be claimed forever.
      else await this.redis.zrem(this.key, text);
    }
    const first = reply[0];
    return { claimed, nextAt: first ? Number(first) : null };
  }
}

/** Where heartbeats' deadlines live. */
export const heartbeatDeadlinesKey = (prefix: string) => `${prefix}:monitors:heartbeat-deadlines`;
/** A region's due set of a lane (the fast lane keeps the key DNS and port checks always had). */
export const regionDueKey = (prefix: string, region: string, lane: Lane) =>
  `${prefix}:monitors:due:${region}${lane === 'fast' ? '' : `:${lane}`}`;

/**
 * The next slot of a cadence after `now`: slots fall at `offsetMs` + k·`intervalMs` (epoch ms), so a
 * check's time never drifts with how long the one before took, a re-check or a check now.
 */
export function nextSlotAfter(now: number, intervalMs: number, offsetMs: number): number {
  return offsetMs + intervalMs * (Math.floor((now - offsetMs) / intervalMs) + 1);
}
