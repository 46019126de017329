import { createHash, randomBytes } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { BatchInserter, type CollectionIndexes } from '../db/index.js';

/** How long an alert's acknowledge link works: a page answered the next morning still counts. */
export const ACK_LINK_VALID_MS = 24 * 3_600_000;

/** A link that acknowledges one incident as one person, once; only its token's hash is stored. */
export interface AckLink {
  _id: string;
  organizationId: number;
  incidentId: string;
  userId: number;
  expiresAt: Date;
  usedAt: Date | null;
}

export const ACK_LINKS = 'ack_links';
export const ackLinkIndexes: CollectionIndexes = {
  collection: ACK_LINKS,
  indexes: [{ key: { expiresAt: 1 }, name: 'expires' }],
};

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** Tokens of acknowledge links are 32 random bytes: well formed is all that is checked before the lookup. */
export const ACK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export class AckLinks {
  private readonly links: Collection<AckLink>;
  /** Links issued at once (a step paging many people, many incidents' steps) share one insertMany. */
  private readonly issued: BatchInserter<AckLink>;

  constructor(db: Db) {
    this.links = db.collection<AckLink>(ACK_LINKS);
    this.issued = new BatchInserter(this.links, { flushEveryMs: 0 });
  }

  /** A new link's token for the person and incident. */
  async issue(organizationId: number, incidentId: string, userId: number, now: Date): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.issued.insert({
      _id: hashOf(token),
      organizationId,
      incidentId,
      userId,
      expiresAt: new Date(now.getTime() + ACK_LINK_VALID_MS),
      usedAt: null,
    });
    return token;
  }

  /** The link of a token (used or not), or null when unknown or expired. */
  async find(token: string, now: Date): Promise<AckLink | null> {
    if (!ACK_TOKEN.test(token)) return null;
    const link = await this.links.findOne({ _id: hashOf(token) });
    return link && link.expiresAt > now ? link : null;
  }

  /** Uses the link: whether this call did (a second use finds it used). */
  async use(link: AckLink, now: Date): Promise<boolean> {
    const done = await this.links.updateOne({ _id: link._id, usedAt: null }, { $set: { usedAt: now } });
    return done.modifiedCount > 0;
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.links.deleteMany({ expiresAt: { $lt: now } });
  }
}
