import { randomUUID } from 'node:crypto';
import { isMongoUnavailable, withinDeadline } from '../db/index.js';
import { getMany, type Redis } from '../redis/index.js';
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

  /** A new revision for the website, returned. */
  async bump(websiteId: number): Promise<string> {
    const revision = randomUUID();
    await this.redis.set(this.key(websiteId), revision, 'EX', REVISION_TTL_SECONDS);
    return revision;
  }

  current(websiteId: number): Promise<string | null> {
    return this.redis.get(this.key(websiteId));
  }

  /** The revisions of many websites, a thousand per round trip. */
  async currentMany(websiteIds: readonly number[]): Promise<Map<number, string | null>> {
    const revisions = new Map<number, string | null>();
    for (let start = 0; start < websiteIds.length; start += 1000) {
      const chunk = websiteIds.slice(start, start + 1000);
      const values = await getMany(
        this.redis,
        chunk.map((id) => this.key(id)),
      );
      for (const [i, id] of chunk.entries()) revisions.set(id, values[i] ?? null);
    }
    return revisions;
  }
}

/**
 * Even an entry whose revision still matches is re-read after this long (bounds a revision lost
 * between a write and its bump). Far above any check interval: at 10 minutes every website checked
 * every 10 minutes or less often would have gone back to MongoDB on each check.
 */
const MAX_AGE_MS = 6 * 3_600_000;

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
    private readonly deps: {
      websites: WebsiteRepository;
      revisions: WebsiteRevisions;
      /** A bound on each read of MongoDB; without one a stalled server holds the check forever. */
      readTimeoutMs?: number;
      /**
       * While MongoDB does not answer, serve the copy in memory even if stale (workers: checks go
       * on with what they know). Off for the API: its answers decide access (a website moved to
       * another customer must not stay visible to the first one's client users).
       */
      staleWhileUnavailable?: boolean;
    },
    /** Entries kept at most; the least recently stored go first. */
    private readonly capacity: number,
  ) {}

  /**
   * The website, from memory while its revision is unchanged. While MongoDB does not answer, the
   * copy in memory is served even if stale (checks go on with what the worker knows); one never
   * loaded waits for MongoDB.
   */
  async get(organizationId: number, websiteId: number): Promise<WebsiteDocument | null> {
    const revision = await this.deps.revisions.current(websiteId);
    const entry = this.entries.get(websiteId);
    const known = entry?.website.organizationId === organizationId ? entry : undefined;
    if (known && known.revision === revision && Date.now() - known.at < MAX_AGE_MS) return known.website;
    const read = this.deps.websites.findByRef(organizationId, { id: websiteId });
    let website: WebsiteDocument | null;
    try {
      website =
        this.deps.readTimeoutMs === undefined
          ? await read
          : await withinDeadline(read, this.deps.readTimeoutMs, `website ${websiteId}`);
    } catch (error) {
      if (known && this.deps.staleWhileUnavailable !== false && isMongoUnavailable(error))
        return known.website;
      throw error;
    }
    this.entries.delete(websiteId);
    if (website) this.store(website, revision);
    return website;
  }

  /**
   * The websites of the organization with these ids, in their order, those gone left out: their
   * revisions in one round trip, and only those changed or not in memory read from MongoDB (each
   * by primary key), so a list polled every few seconds costs a Redis MGET.
   */
  async getMany(organizationId: number, websiteIds: readonly number[]): Promise<WebsiteDocument[]> {
    const revisions = await this.deps.revisions.currentMany(websiteIds);
    const found = new Map<number, WebsiteDocument>();
    const missing: number[] = [];
    for (const id of websiteIds) {
      const entry = this.entries.get(id);
      const current =
        entry?.website.organizationId === organizationId &&
        entry.revision === (revisions.get(id) ?? null) &&
        Date.now() - entry.at < MAX_AGE_MS;
      if (current) found.set(id, entry.website);
      else missing.push(id);
    }
    for (const website of await this.deps.websites.findByIds(organizationId, missing)) {
      this.store(website, revisions.get(website.id) ?? null);
      found.set(website.id, website);
    }
    return websiteIds.flatMap((id) => found.get(id) ?? []);
  }

  /**
   * Loads many websites in one scan (a worker's start) instead of a read each in the first
   * interval; returns those found. Their revisions are read before the scan, as in `get`.
   */
  async prime(websiteIds: readonly number[]): Promise<WebsiteDocument[]> {
    const revisions = await this.deps.revisions.currentMany(websiteIds.slice(0, this.capacity));
    const primed: WebsiteDocument[] = [];
    for await (const website of this.deps.websites.all()) {
      if (!revisions.has(website.id)) continue;
      this.store(website, revisions.get(website.id) ?? null);
      primed.push(website);
    }
    return primed;
  }

  /**
   * The website as this process just wrote it, under the revision its write set: the next read
   * of it needs no MongoDB read. (Writes hold the website's lock, so nothing came in between.)
   */
  written(website: WebsiteDocument, revision: string): void {
    this.store(website, revision);
  }

  private store(website: WebsiteDocument, revision: string | null): void {
    this.entries.delete(website.id);
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(website.id, { revision, at: Date.now(), website });
  }
}
