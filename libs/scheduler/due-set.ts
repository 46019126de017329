import { type Redis, redisScript } from '../redis/index.js';
import type { Lane } from './lanes.js';

/**
 * Takes up to ARGV[2] members due at ARGV[1] (epoch ms) and moves each to ARGV[3] (a lease): a
 * worker that dies holding one leaves it to be taken again when the lease ends. Atomic, so two
 * workers never take the same member at once.
 */
const claimScript = redisScript(`
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, member in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[3], member) end
return due
`);

/** A monitor a due set holds: `<kind>:<id>:<organization>:<website>`. */
export interface DueMember {
  kind: string;
  monitorId: number;
  organizationId: number;
  websiteId: number;
}

const MEMBER = /^([a-z]+):(\d+):(\d+):(\d+)$/;

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

/**
 * When each monitor is next due, as a Redis sorted set (score: epoch ms). Heartbeats' deadlines in
 * one set, each region's DNS and port checks in one set per region. Workers claim what is due
 * (`claim`) and put it back at its next time (`schedule`); MongoDB says what belongs in it (the
 * workers' reconciliation refills a lost set).
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

  async removeText(text: string): Promise<void> {
    await this.redis.zrem(this.key, text);
  }

  /** Up to `limit` members due at `now`, each leased until `now + leaseMs`. */
  async claim(now: number, limit: number, leaseMs: number): Promise<DueMember[]> {
    const taken = (await claimScript.run(this.redis, [this.key], [now, limit, now + leaseMs])) as string[];
    const members: DueMember[] = [];
    for (const text of taken) {
      const member = parseDueMember(text);
      if (member) members.push(member);
      // A damaged entry (not ours) leaves, or it would be claimed forever.
      else await this.removeText(text);
    }
    return members;
  }
}

/** Where heartbeats' deadlines live, and each region's DNS and port checks' next runs. */
export const heartbeatDeadlinesKey = (prefix: string) => `${prefix}:monitors:heartbeat-deadlines`;
/** A region's due set of a lane (the fast lane keeps the key DNS and port checks always had). */
export const regionDueKey = (prefix: string, region: string, lane: Lane = 'fast') =>
  `${prefix}:monitors:due:${region}${lane === 'fast' ? '' : `:${lane}`}`;
