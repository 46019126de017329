import type { Db } from 'mongodb';
import { type CollectionIndexes, isDuplicateKey, nextId, TenantCollection } from '../db/index.js';
import type { EventPayload } from './event-payload.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'skipped';

export interface DeliveryAttempt {
  at: Date;
  durationMs: number;
  /** The receiver's HTTP status; null when no answer came (connection, timeout, refused destination). */
  httpStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

/** One event on its way to one channel, with every attempt. */
export interface DeliveryDocument {
  id: number;
  organizationId: number;
  channelId: number;
  eventId: string;
  eventType: EventPayload['type'];
  /** What is sent, kept so a redelivery does not depend on the event still being stored. */
  payload: EventPayload;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Why the last attempt series ended without success, or why it was skipped. */
  outcome: string | null;
  /** What the tool made of it, to refer to later (the Jira issue a down event opened). */
  externalRef?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const DELIVERIES = 'deliveries';

export const deliveryIndexes: CollectionIndexes = {
  collection: DELIVERIES,
  indexes: [
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    // An event reaches a channel once, however often it is dispatched.
    { key: { eventId: 1, channelId: 1 }, unique: true, name: 'event_channel_unique' },
    { key: { organizationId: 1, channelId: 1, id: -1 }, name: 'channel_newest' },
  ],
};

const NO_MONGO_ID = { projection: { _id: 0 } } as const;
/** Attempts kept per delivery (redeliveries add more). */
const MAX_ATTEMPTS_KEPT = 50;

export class DeliveryRepository {
  private readonly deliveries: TenantCollection<DeliveryDocument>;

  constructor(private readonly db: Db) {
    this.deliveries = new TenantCollection(db.collection<DeliveryDocument>(DELIVERIES));
  }

  /** A new pending delivery, or the one this event already has for this channel. */
  async createOnce(
    input: Pick<DeliveryDocument, 'organizationId' | 'channelId' | 'payload'>,
  ): Promise<DeliveryDocument> {
    const existing = await this.deliveries.findOne(
      input.organizationId,
      { eventId: input.payload.id, channelId: input.channelId },
      NO_MONGO_ID,
    );
    if (existing) return existing;
    const now = new Date();
    const document: DeliveryDocument = {
      ...input,
      id: await nextId(this.db, DELIVERIES),
      eventId: input.payload.id,
      eventType: input.payload.type,
      status: 'pending',
      attempts: [],
      outcome: null,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.deliveries.insertOne({ ...document });
      return document;
    } catch (error) {
      // Another dispatcher of the same event got there first.
      if (!isDuplicateKey(error)) throw error;
      const raced = await this.deliveries.findOne(
        input.organizationId,
        { eventId: input.payload.id, channelId: input.channelId },
        NO_MONGO_ID,
      );
      if (!raced) throw error;
      return raced;
    }
  }

  findById(organizationId: number, id: number): Promise<DeliveryDocument | null> {
    return this.deliveries.findOne(organizationId, { id }, NO_MONGO_ID);
  }

  /** A channel's deliveries, newest first, after the id `before` (paging). */
  page(
    organizationId: number,
    channelId: number,
    limit: number,
    before?: number,
  ): Promise<DeliveryDocument[]> {
    return this.deliveries
      .find(
        organizationId,
        { channelId, ...(before ? { id: { $lt: before } } : {}) },
        {
          ...NO_MONGO_ID,
          sort: { id: -1 },
          limit,
        },
      )
      .toArray();
  }

  /** Appends an attempt; only the delivery's own job writes it, so read-then-set is safe (and FerretDB lacks `$slice`). */
  async recordAttempt(delivery: DeliveryDocument, attempt: DeliveryAttempt): Promise<DeliveryAttempt[]> {
    const attempts = [...delivery.attempts, attempt].slice(-MAX_ATTEMPTS_KEPT);
    await this.deliveries.updateOne(
      delivery.organizationId,
      { id: delivery.id },
      { $set: { attempts, updatedAt: attempt.at } },
    );
    return attempts;
  }

  async settle(
    organizationId: number,
    id: number,
    status: DeliveryStatus,
    outcome: string | null,
    externalRef?: string,
  ): Promise<void> {
    await this.deliveries.updateOne(
      organizationId,
      { id },
      { $set: { status, outcome, updatedAt: new Date(), ...(externalRef ? { externalRef } : {}) } },
    );
  }

  /** Retention: finished deliveries last changed before `before`, of every organization. */
  async deleteFinishedBefore(before: Date): Promise<number> {
    const result = await this.deliveries.collection.deleteMany({
      status: { $ne: 'pending' },
      updatedAt: { $lt: before },
    });
    return result.deletedCount;
  }

  /** What the channel's delivery of the incident's down event left to refer to (a Jira issue key). */
  async externalRefOf(organizationId: number, channelId: number, incident: string): Promise<string | null> {
    const opened = await this.deliveries.findOne(
      organizationId,
      { channelId, eventType: 'website.down', 'payload.data.incident': incident, status: 'succeeded' },
      { projection: { _id: 0, externalRef: 1 } },
    );
    return opened?.externalRef ?? null;
  }
}
