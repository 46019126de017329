import { isMongoUnavailable, withinDeadline } from '../db/index.js';
import { type Redis, RevisedMemory, Revisions } from '../redis/index.js';
import type { WebsiteDocument, WebsiteRepository } from './website.repository.js';

/** Each website's revision (`Revisions`), bumped after every write to it. */
export function websiteRevisions(redis: Redis, prefix: string): Revisions {
  return new Revisions(redis, `${prefix}:website-rev`);
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
  private readonly entries: RevisedMemory<WebsiteDocument>;

  constructor(
    private readonly deps: {
      websites: WebsiteRepository;
      /** The websites' revisions (`websiteRevisions`). */
      revisions: Revisions;
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
  ) {
    this.entries = new RevisedMemory(deps.revisions, capacity, MAX_AGE_MS);
  }

  /**
   * The website, from memory while its revision is unchanged. While MongoDB does not answer, the
   * copy in memory is served even if stale (checks go on with what the worker knows); one never
   * loaded waits for MongoDB.
   */
  async get(organizationId: number, websiteId: number): Promise<WebsiteDocument | null> {
    const revision = await this.deps.revisions.current(websiteId);
    const current = this.entries.current(websiteId, revision);
    if (current?.organizationId === organizationId) return current;
    const kept = this.entries.kept(websiteId);
    const known = kept?.organizationId === organizationId ? kept : undefined;
    const read = this.deps.websites.findByRef(organizationId, { id: websiteId });
    let website: WebsiteDocument | null;
    try {
      website =
        this.deps.readTimeoutMs === undefined
          ? await read
          : await withinDeadline(read, this.deps.readTimeoutMs, `website ${websiteId}`);
    } catch (error) {
      if (known && this.deps.staleWhileUnavailable !== false && isMongoUnavailable(error)) return known;
      throw error;
    }
    this.entries.forget(websiteId);
    if (website) this.entries.store(website, revision);
    return website;
  }

  /**
   * The websites of the organization with these ids, in their order, those gone left out: their
   * revisions in one round trip, and only those changed or not in memory read from MongoDB (each
   * by primary key), so a list polled every few seconds costs a Redis MGET.
   */
  async getMany(organizationId: number, websiteIds: readonly number[]): Promise<WebsiteDocument[]> {
    const found = await this.entries.readMany(
      websiteIds,
      (website) => website.organizationId === organizationId,
      (missing) => this.deps.websites.findByIds(organizationId, missing),
    );
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
      const revision = revisions.get(website.id);
      if (revision === undefined) continue;
      this.entries.store(website, revision);
      primed.push(website);
    }
    return primed;
  }

  /**
   * The copy of the website in memory, current or not, without asking Redis or MongoDB (a guess at
   * its fields for work started beside its read: what depends on it is checked against that read).
   */
  kept(organizationId: number, websiteId: number): WebsiteDocument | undefined {
    const kept = this.entries.kept(websiteId);
    return kept?.organizationId === organizationId ? kept : undefined;
  }

  /**
   * The website as this process just wrote it, under the revision its write set: the next read
   * of it needs no MongoDB read. (Writes hold the website's lock, so nothing came in between.)
   */
  written(website: WebsiteDocument, revision: string): void {
    this.entries.store(website, revision);
  }
}
