import { randomUUID } from 'node:crypto';
import type { Redis } from '../redis/index.js';

/**
 * Outlives any cached page (30 s) by far: an entry is always younger than the revision it was
 * built under, so a key that expired cannot make an old entry look current.
 */
const REVISION_TTL_SECONDS = 86_400;

/** Redis did not answer: cached entries are kept for their short lifetime, as without revisions. */
export const REVISION_UNKNOWN = Symbol('revision unknown');
export type Revision = string | null | typeof REVISION_UNKNOWN;

/**
 * A random revision in Redis per slug and per customer's set of pages, replaced after each change
 * of a page in MongoDB. Every API process reads it before serving a cached page (one GET), so an
 * unpublished, renamed, deleted or edited page shows at once everywhere. A read per request rather
 * than a pub/sub message: a message arrives some time after the change (a visitor could still get
 * the old page from another process meanwhile) and is lost while a subscriber reconnects.
 * Random rather than counted, so a revision lost with a flushed Redis cannot come back equal.
 */
export class StatusPageRevisions {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private slugKey(slug: string) {
    return `${this.prefix}:status-page-rev:slug:${slug}`;
  }

  private customerKey(organizationId: number, customerId: number) {
    return `${this.prefix}:status-page-rev:customer:${organizationId}:${customerId}`;
  }

  /** After a page's change: its slugs (before and after a rename) and its customer's badges. */
  async changed(change: { slugs: readonly string[]; organizationId: number; customerId: number }) {
    const keys = [
      ...new Set(change.slugs.map((slug) => this.slugKey(slug))),
      this.customerKey(change.organizationId, change.customerId),
    ];
    // One SET each: the keys may live on different nodes of a Redis Cluster.
    await Promise.all(keys.map((key) => this.redis.set(key, randomUUID(), 'EX', REVISION_TTL_SECONDS)));
  }

  ofSlug(slug: string): Promise<Revision> {
    return this.read(this.slugKey(slug));
  }

  ofCustomer(organizationId: number, customerId: number): Promise<Revision> {
    return this.read(this.customerKey(organizationId, customerId));
  }

  private read(key: string): Promise<Revision> {
    return this.redis.get(key).catch(() => REVISION_UNKNOWN);
  }
}
