import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from 'mongodb';
import { isDuplicateKey } from '../db/index.js';
import { type SealedSecret, type SecretBox, SecretUnreadableError } from '../secrets/index.js';

export const ONCALL_FEEDS = 'oncall_feeds';

/** A person's calendar feed token: sealed (to show the person their link again) and hashed (to check one). */
interface FeedDocument {
  /** `u<userId>`: found by primary key (user ids are unique across organizations). */
  _id: string;
  organizationId: number;
  userId: number;
  tokenHash: string;
  sealed: SealedSecret;
  createdAt: Date;
}

const keyOf = (userId: number) => `u${userId}`;
const contextOf = (userId: number) => `${ONCALL_FEEDS}/${userId}`;
const hashOf = (token: string) => createHash('sha256').update(token).digest();

/**
 * The secret that lets a calendar app read a person's on-call shifts without a session (it sends
 * no cookie): one random token a person, in the feed's URL, until the person revokes it.
 */
export class FeedTokens {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
  ) {}

  private get collection() {
    return this.db.collection<FeedDocument>(ONCALL_FEEDS);
  }

  /** The person's token, made on first use (or again when its key was retired without resealing). */
  async tokenOf(organizationId: number, userId: number): Promise<string> {
    const stored = await this.collection.findOne({ _id: keyOf(userId), organizationId });
    if (stored) {
      try {
        return this.secrets.open(stored.sealed, contextOf(userId));
      } catch (error) {
        if (!(error instanceof SecretUnreadableError)) throw error;
      }
    }
    const token = randomBytes(32).toString('base64url');
    const document: FeedDocument = {
      _id: keyOf(userId),
      organizationId,
      userId,
      tokenHash: hashOf(token).toString('hex'),
      sealed: this.secrets.seal(token, contextOf(userId)),
      createdAt: new Date(),
    };
    try {
      if (stored) await this.collection.replaceOne({ _id: document._id, organizationId }, document);
      else await this.collection.insertOne(document);
    } catch (error) {
      // Made at the same moment by another request: that one is the person's token.
      if (isDuplicateKey(error)) return this.tokenOf(organizationId, userId);
      throw error;
    }
    return token;
  }

  /** The organization of the person whose token this is, or null (unknown, revoked, or not theirs). */
  async organizationOf(userId: number, token: string): Promise<number | null> {
    const stored = await this.collection.findOne({ _id: keyOf(userId) });
    if (!stored) return null;
    const expected = Buffer.from(stored.tokenHash, 'hex');
    const given = hashOf(token);
    return expected.length === given.length && timingSafeEqual(expected, given)
      ? stored.organizationId
      : null;
  }

  /** Every link to the person's feeds stops working; the next asked for has a new token. */
  async revoke(organizationId: number, userId: number): Promise<void> {
    await this.collection.deleteOne({ _id: keyOf(userId), organizationId });
  }
}
