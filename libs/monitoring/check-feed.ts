import { z } from 'zod';
import type { HealthStatus } from '../checks/index.js';
import { errorMessage } from '../errors/index.js';
import { WEBSITE_STATUSES } from '../events/index.js';
import type { Logger } from '../logging/index.js';
import { type Redis, slotTag } from '../redis/index.js';
import type { MonitorStateDocument } from './monitor-state.js';
import type { CheckResultDocument } from './result.repository.js';

/** Checks kept per website for the overview's bar of its last checks. */
export const RECENT_CHECKS = 30;
/** A website nobody checked for this long (deleted, paused) loses its list by itself. */
const RECENT_CHECKS_TTL_SECONDS = 31 * 86_400;
const CHECK_LETTER = { up: 'u', degraded: 'd', down: 'x' } as const satisfies Record<HealthStatus, string>;
const LETTER_CHECK: Record<string, HealthStatus> = { u: 'up', d: 'degraded', x: 'down' };

/** One check as the overview draws it: when, what it found, how long it took (null: no answer). */
export interface RecentCheck {
  at: number;
  status: HealthStatus;
  responseMs: number | null;
}

/** A website's check as told on the feed channel: who may see it, the check, and the status it led to. */
export const checkFeedMessage = z.object({
  organizationId: z.number().int(),
  customerId: z.number().int(),
  websiteId: z.number().int(),
  at: z.number(),
  check: z.enum(['up', 'degraded', 'down']),
  responseMs: z.number().nullable(),
  status: z.enum(WEBSITE_STATUSES),
});
export type CheckFeedMessage = z.infer<typeof checkFeedMessage>;

/**
 * What the overview shows of a website changed other than by a check of it: written (added,
 * renamed, paused, moved), deleted, in or out of maintenance, or one of its other monitors' health.
 * The overview reads that row again.
 */
export const websiteFeedMessage = z.object({
  kind: z.literal('website'),
  organizationId: z.number().int(),
  customerId: z.number().int(),
  websiteId: z.number().int(),
  deleted: z.boolean(),
});
export type WebsiteFeedMessage = z.infer<typeof websiteFeedMessage>;

/** A customer was written (its name, its status): the overview reads its websites' rows again. */
export const customerFeedMessage = z.object({
  kind: z.literal('customer'),
  organizationId: z.number().int(),
  customerId: z.number().int(),
});
export type CustomerFeedMessage = z.infer<typeof customerFeedMessage>;

/** Everything told on the feed channel: a check (no `kind`, as workers have always told it), a website, a customer. */
export const feedMessage = z.union([websiteFeedMessage, customerFeedMessage, checkFeedMessage]);
export type FeedMessage = z.infer<typeof feedMessage>;

/** The Redis channel every API process listens to for checks and the overview's other changes. */
export const checkFeedChannel = (prefix: string) => `${prefix}:check-feed`;

/** A check as its list keeps it: `<epoch ms>:<letter>:<ms or empty>` (~20 bytes). */
function packed(check: RecentCheck): string {
  return `${check.at}:${CHECK_LETTER[check.status]}:${check.responseMs ?? ''}`;
}

function unpacked(text: string): RecentCheck | null {
  const [at, letter = '', ms = ''] = text.split(':');
  const status = LETTER_CHECK[letter];
  if (!status) return null;
  return { at: Number(at), status, responseMs: ms === '' ? null : Number(ms) };
}

/**
 * The last checks of each website in Redis (a capped list per website, read by key: a page of
 * websites is one round trip whatever the fleet), and the feed channel each decided check is told
 * on. What the worker writes here is a picture for people: a write that fails is logged and lost,
 * never a check's failure.
 */
export class CheckFeed {
  private failing = false;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger?: Logger,
  ) {}

  private key(websiteId: number): string {
    return `${this.prefix}:recent-checks:${slotTag(this.redis, websiteId)}`;
  }

  /**
   * A decided check: kept in the website's list and told on the channel. The worker does not wait
   * for it; the promise settles once written (never rejected: a failure is logged).
   */
  told(
    result: Pick<
      CheckResultDocument,
      'organizationId' | 'websiteId' | 'startedAt' | 'status' | 'error' | 'timings'
    >,
    website: { customerId: number },
    state: Pick<MonitorStateDocument, 'reported' | 'health'>,
  ): Promise<void> {
    const check: RecentCheck = {
      at: result.startedAt.getTime(),
      status: result.status,
      responseMs: result.error ? null : Math.round(result.timings.total),
    };
    const message: CheckFeedMessage = {
      organizationId: result.organizationId,
      customerId: website.customerId,
      websiteId: result.websiteId,
      at: check.at,
      check: check.status,
      responseMs: check.responseMs,
      status: state.reported?.status ?? state.health,
    };
    const key = this.key(result.websiteId);
    return Promise.all([
      this.redis
        .multi()
        .lpush(key, packed(check))
        .ltrim(key, 0, RECENT_CHECKS - 1)
        .expire(key, RECENT_CHECKS_TTL_SECONDS)
        .exec(),
      this.redis.publish(checkFeedChannel(this.prefix), JSON.stringify(message)),
    ]).then(
      () => this.succeeded(),
      (error: unknown) => this.failed(error, 'a check was not told to the overview (its bar misses it)'),
    );
  }

  /**
   * A change of a website or customer the open overviews read again. Not waited for by the write
   * that led to it; the promise settles once told (never rejected: a failure is logged).
   */
  changed(message: WebsiteFeedMessage | CustomerFeedMessage): Promise<void> {
    return this.redis.publish(checkFeedChannel(this.prefix), JSON.stringify(message)).then(
      () => this.succeeded(),
      (error: unknown) =>
        this.failed(error, 'a change was not told to the open overviews (they show it at their next read)'),
    );
  }

  private succeeded(): void {
    this.failing = false;
  }

  private failed(error: unknown, what: string): void {
    // Once per outage, not once per check.
    if (this.failing) return;
    this.failing = true;
    this.logger?.warn({ err: errorMessage(error) }, `${what}; checks go on`);
  }

  /** The last checks of these websites, newest first (websites without any: absent). */
  async recent(websiteIds: readonly number[]): Promise<Map<number, RecentCheck[]>> {
    const lists = await Promise.all(
      websiteIds.map((id) => this.redis.lrange(this.key(id), 0, RECENT_CHECKS - 1)),
    );
    const found = new Map<number, RecentCheck[]>();
    websiteIds.forEach((id, i) => {
      const checks = (lists[i] ?? []).flatMap((text) => unpacked(text) ?? []);
      if (checks.length > 0) found.set(id, checks);
    });
    return found;
  }
}
