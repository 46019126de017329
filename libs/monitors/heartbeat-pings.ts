import { createHash, randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import {
  queueName,
  quietQueueErrors,
  type RateLimitDecision,
  type RateLimiter,
  type Redis,
} from '../redis/index.js';
import { type DueMember, dueMember, parseDueMember } from '../scheduler/index.js';
import type { PingKind } from './kinds/heartbeat/heartbeat.schema.js';

export const HEARTBEAT_PINGS_QUEUE = 'heartbeat-pings';
/** What a ping keeps of its body (the job's log), and the most it accepts. */
export const PING_BODY_KEPT_BYTES = 10 * 1024;
export const PING_BODY_LIMIT_BYTES = 1024 * 1024;
/** Pings one heartbeat's token may make per window (a job pings a few times a run, not hundreds). */
export const PINGS_PER_TOKEN = { limit: 30, windowMs: 60_000 };

/** A token as the URL carries it: 22 to 64 URL-safe characters (ours are 24). */
const TOKEN = /^[A-Za-z0-9_-]{22,64}$/;

export const isPingToken = (text: string) => TOKEN.test(text);

/** A new ping token: 18 random bytes, 24 URL-safe characters. */
export const newPingToken = () => randomBytes(18).toString('base64url');

/** What a token is looked up by: its SHA-256, hex (the token itself is never stored in the clear). */
export const pingTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** A ping, as the API hands it to the workers: ids and what the job said, never the token. */
export interface PingJobData {
  heartbeatId: number;
  organizationId: number;
  websiteId: number;
  kind: PingKind;
  /** Epoch ms the API received it. */
  at: number;
  exitCode: number | null;
  body: string;
  bodyTruncated: boolean;
  address: string | null;
}

const JOB_OPTIONS = {
  attempts: 20,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: true,
  removeOnFail: { count: 1000 },
} as const;

/**
 * The tokens of every heartbeat in Redis (`<prefix>:heartbeat-token:<sha256>` → the heartbeat), so
 * a ping is answered from Redis alone: an unknown token never reaches MongoDB. Written with the
 * heartbeat; refilled from MongoDB by the workers' reconciliation.
 */
export class HeartbeatTokens {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(hash: string): string {
    return `${this.prefix}:heartbeat-token:${hash}`;
  }

  async register(hash: string, heartbeat: Omit<DueMember, 'kind'>): Promise<void> {
    await this.redis.set(this.key(hash), dueMember({ kind: 'heartbeat', ...heartbeat }));
  }

  /** Set only where missing (the reconciliation). */
  async registerIfAbsent(hash: string, heartbeat: Omit<DueMember, 'kind'>): Promise<void> {
    await this.redis.set(this.key(hash), dueMember({ kind: 'heartbeat', ...heartbeat }), 'NX');
  }

  async forget(hash: string): Promise<void> {
    await this.redis.del(this.key(hash));
  }

  async find(hash: string): Promise<DueMember | null> {
    const text = await this.redis.get(this.key(hash));
    const member = text === null ? null : parseDueMember(text);
    return member?.kind === 'heartbeat' ? member : null;
  }
}

/** The body as the ping's log keeps it: text (invalid UTF-8 replaced), NUL and other controls but tab and newlines dropped. */
export function pingLog(body: Buffer): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return body.toString('utf8').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
}

export type PingAnswer =
  | { outcome: 'unknown' }
  | { outcome: 'limited'; decision: RateLimitDecision }
  | { outcome: 'recorded'; decision: RateLimitDecision };

/**
 * Takes a ping: the token's hash looked up in Redis, the token's budget spent, the ping queued for
 * the workers (they record it and move the heartbeat's state). Three Redis round trips, no MongoDB.
 */
export class PingIntake {
  private readonly queue: Queue<PingJobData>;

  constructor(
    private readonly deps: { redis: Redis; prefix: string; tokens: HeartbeatTokens; limiter: RateLimiter },
  ) {
    this.queue = quietQueueErrors(
      new Queue<PingJobData>(queueName(deps.redis, HEARTBEAT_PINGS_QUEUE), {
        connection: deps.redis,
        prefix: deps.prefix,
      }),
    );
  }

  async take(
    token: string,
    ping: Pick<PingJobData, 'kind' | 'exitCode' | 'body' | 'bodyTruncated' | 'address'>,
  ): Promise<PingAnswer> {
    if (!isPingToken(token)) return { outcome: 'unknown' };
    const hash = pingTokenHash(token);
    const heartbeat = await this.deps.tokens.find(hash);
    if (!heartbeat) return { outcome: 'unknown' };
    const decision = await this.deps.limiter.consume(`ping:${hash}`);
    if (!decision.allowed) return { outcome: 'limited', decision };
    await this.queue.add(
      ping.kind,
      {
        heartbeatId: heartbeat.monitorId,
        organizationId: heartbeat.organizationId,
        websiteId: heartbeat.websiteId,
        at: Date.now(),
        ...ping,
      },
      JOB_OPTIONS,
    );
    return { outcome: 'recorded', decision };
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
