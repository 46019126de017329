import type { Collection, Db, Filter } from 'mongodb';
import type { CollectionIndexes } from '../db/index.js';
import { type ResealReport, resealCollection, type SealedSecret, type SecretBox } from '../secrets/index.js';

export type SubscriberState = 'pending' | 'confirmed';

/** A visitor subscribed by e-mail to a status page (the whole page, or some of its websites). */
export interface SubscriberDocument {
  /** `subscriberId(pageId, email)`: one per page and address. */
  _id: string;
  organizationId: number;
  pageId: number;
  /** The address mailed (empty for a webhook subscriber). */
  email: string;
  /** How they are told (absent on subscribers stored before webhooks: e-mail). */
  channel?: 'email' | 'webhook';
  /** Webhook subscribers: where notices are posted, signed with their secret (Standard Webhooks). */
  webhookUrl?: string;
  webhookSecret?: SealedSecret;
  /** The page's websites the subscriber is told about; null: all of them. */
  components: number[] | null;
  /** The websites chosen in the last request, taken when its confirmation link is followed. */
  chosenComponents: number[] | null;
  state: SubscriberState;
  /** The pending confirmation link's token digest (null once confirmed). */
  confirmDigest: string | null;
  confirmExpiresAt: Date | null;
  /** Confirmation mails sent for this subscription (bounded per address). */
  confirmationsSent: number;
  /**
   * The unsubscribe link's token, sealed: every mail carries it (so it is kept, not only its
   * digest), and it changes when the address subscribes again after leaving.
   */
  unsubscribeToken: SealedSecret;
  createdAt: Date;
  confirmedAt: Date | null;
}

export const STATUS_PAGE_SUBSCRIBERS = 'status_page_subscribers';

export const subscriberIndexes: CollectionIndexes = {
  collection: STATUS_PAGE_SUBSCRIBERS,
  indexes: [{ key: { pageId: 1, state: 1, _id: 1 }, name: 'page_state' }],
};

/** The sealed webhook secret's context. */
export const webhookSecretContext = (id: string) => `status-subscriber:${id}:webhook-secret`;

/** The sealed unsubscribe token's context: a token sealed for one subscriber opens for no other. */
export const unsubscribeTokenContext = (id: string) => `status-subscriber:${id}:unsubscribe`;

/** The subscriber's unsubscribe token, opened. */
export const unsubscribeTokenOf = (secrets: Pick<SecretBox, 'open'>, subscriber: SubscriberDocument) =>
  secrets.open(subscriber.unsubscribeToken, unsubscribeTokenContext(subscriber._id));

/** The link every mail to the subscriber carries, under the page's address `pageUrl`. */
export const unsubscribeUrlOf = (
  secrets: Pick<SecretBox, 'open'>,
  subscriber: SubscriberDocument,
  pageUrl: string,
) =>
  `${pageUrl}/subscriptions/${subscriber._id}/unsubscribe?token=${unsubscribeTokenOf(secrets, subscriber)}`;

/**
 * Subscribers by primary key (their id is derived from the page and the address, so subscribing
 * again, confirming and leaving are `_id` reads and writes), and a page's subscribers by scan
 * (staff lists and the mailing of a notice: rare next to the reads by id).
 */
export class SubscriberRepository {
  private readonly collection: Collection<SubscriberDocument>;

  constructor(db: Db) {
    this.collection = db.collection<SubscriberDocument>(STATUS_PAGE_SUBSCRIBERS);
  }

  find(id: string): Promise<SubscriberDocument | null> {
    return this.collection.findOne({ _id: id });
  }

  /** Stores a new subscription, or starts the one of an address that left or never confirmed afresh. */
  async save(subscriber: SubscriberDocument): Promise<void> {
    await this.collection.replaceOne({ _id: subscriber._id }, subscriber, { upsert: true });
  }

  /** A new confirmation link for a subscription (pending, or confirmed and choosing anew); counted. */
  async renewConfirmation(
    id: string,
    link: { confirmDigest: string; confirmExpiresAt: Date; chosenComponents: number[] | null },
  ): Promise<void> {
    await this.collection.updateOne({ _id: id }, { $set: link, $inc: { confirmationsSent: 1 } });
  }

  /**
   * Confirms the subscription whose link digest is `digest` while the link holds, with the websites
   * chosen with it; false when it is not (or no longer) one. A link confirms once.
   */
  async confirm(id: string, digest: string, now: Date): Promise<boolean> {
    const found = await this.collection.findOne({
      _id: id,
      confirmDigest: digest,
      confirmExpiresAt: { $gt: now },
    });
    if (!found) return false;
    const result = await this.collection.updateOne(
      { _id: id, confirmDigest: digest },
      {
        $set: {
          state: 'confirmed',
          components: found.chosenComponents,
          confirmedAt: found.confirmedAt ?? now,
          confirmDigest: null,
          confirmExpiresAt: null,
        },
      },
    );
    return result.modifiedCount === 1;
  }

  /** Removes a subscriber of a page of the organization; false when there was none. */
  async remove(organizationId: number, id: string): Promise<boolean> {
    const result = await this.collection.deleteOne({ _id: id, organizationId });
    return result.deletedCount === 1;
  }

  /** Removes the subscriber (its own unsubscribe link): no organization to scope it by, the id is the page's. */
  async removeById(id: string): Promise<boolean> {
    const result = await this.collection.deleteOne({ _id: id });
    return result.deletedCount === 1;
  }

  /** A page's subscribers in id order, from after `afterId`, at most `limit`. */
  page(
    organizationId: number,
    pageId: number,
    options: { state?: SubscriberState; afterId?: string; limit: number },
  ): Promise<SubscriberDocument[]> {
    const filter: Filter<SubscriberDocument> = { organizationId, pageId };
    if (options.state) filter.state = options.state;
    if (options.afterId) filter._id = { $gt: options.afterId };
    return this.collection.find(filter).sort({ _id: 1 }).limit(options.limit).toArray();
  }

  /** A page's confirmed subscribers in id order, after `after`: one query, read `batchSize` at a time. */
  confirmedOf(
    organizationId: number,
    pageId: number,
    options: { after: string | null; batchSize: number },
  ): AsyncIterable<SubscriberDocument> {
    const filter: Filter<SubscriberDocument> = { organizationId, pageId, state: 'confirmed' };
    if (options.after) filter._id = { $gt: options.after };
    return this.collection.find(filter).sort({ _id: 1 }).batchSize(options.batchSize);
  }

  async count(organizationId: number, pageId: number): Promise<Record<SubscriberState, number>> {
    const [pending, confirmed] = await Promise.all(
      (['pending', 'confirmed'] as const).map((state) =>
        this.collection.countDocuments({ organizationId, pageId, state }),
      ),
    );
    return { pending: pending ?? 0, confirmed: confirmed ?? 0 };
  }

  /** The pages with confirmed subscribers (one pass over the subscribers, grouped by MongoDB). */
  async pagesWithSubscribers(): Promise<Array<{ organizationId: number; pageId: number }>> {
    const groups = await this.collection
      .aggregate<{ _id: { organizationId: number; pageId: number } }>([
        { $match: { state: 'confirmed' } },
        { $group: { _id: { organizationId: '$organizationId', pageId: '$pageId' } } },
      ])
      .toArray();
    return groups.map((group) => group._id);
  }

  /** A page deleted: its subscribers go with it. */
  async removeAllOf(organizationId: number, pageId: number): Promise<number> {
    const result = await this.collection.deleteMany({ organizationId, pageId });
    return result.deletedCount;
  }

  /** Seals the unsubscribe tokens sealed under an older SECRETS_KEY again under the current one. */
  resealSecrets(box: SecretBox, onProgress?: (report: ResealReport) => void): Promise<ResealReport> {
    return resealCollection({
      collection: this.collection,
      box,
      filter: {},
      sealedFieldsOf: (subscriber) => [
        {
          path: 'unsubscribeToken',
          sealed: subscriber.unsubscribeToken,
          context: unsubscribeTokenContext(subscriber._id),
        },
        ...(subscriber.webhookSecret
          ? [
              {
                path: 'webhookSecret',
                sealed: subscriber.webhookSecret,
                context: webhookSecretContext(subscriber._id),
              },
            ]
          : []),
      ],
      onProgress,
    });
  }
}
