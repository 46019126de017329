import { randomUUID } from 'node:crypto';
import type { Redis } from '../redis/index.js';
import type { WebsiteDocument, WebsiteRepository } from './website.repository.js';

/** A revision key nobody touched for this long belongs to a website long gone. */
const REVISION_TTL_SECONDS = 30 * 86_400;

/**
 * A random revision per website in Redis, replaced after every write to it in MongoDB. Random
 * rather than counted, so a revision lost with a flushed Redis can't come back equal to an old one.
 */
export class WebsiteRevisions {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(websiteId: number) {
    return `${this.prefix}:website-rev:${websiteId}`;
  }

  async bump(websiteId: number): Promise<void> {
    await this.redis.set(this.key(websiteId), randomUUID(), 'EX', REVISION_TTL_SECONDS);
  }

  current(websiteId: number): Promise<string | null> {
    return this.redis.get(this.key(websiteId));
  }
}

/** Even an entry whose revision still matches is re-read after this long (bounds any missed bump). */
const MAX_AGE_MS = 10 * 60_000;

/**
 * The websites a worker checks, kept in memory and re-read from MongoDB only when their revision
 * changed: a check costs one Redis GET instead of a MongoDB read. The revision is read before the
 * document, so a write landing in between leaves the entry stale for the next check to re-read.
 */
export class WebsiteCache {
  private readonly entries = new Map<
    number,
    { revision: string | null; at: number; website: WebsiteDocument }
  >();

  constructor(
    private readonly deps: { websites: WebsiteRepository; revisions: WebsiteRevisions },
    /** Entries kept at most; the least recently stored go first. */
    private readonly capacity = 50_000,
  ) {}

  async get(organizationId: number, websiteId: number): Promise<WebsiteDocument | null> {
    const revision = await this.deps.revisions.current(websiteId);
    const entry = this.entries.get(websiteId);
    if (
      entry &&
      entry.revision === revision &&
      Date.now() - entry.at < MAX_AGE_MS &&
      entry.website.organizationId === organizationId
    )
      return entry.website;
    const website = await this.deps.websites.findByRef(organizationId, { id: websiteId });
    this.entries.delete(websiteId);
    if (!website) return null;
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(websiteId, { revision, at: Date.now(), website });
    return website;
  }
}
