import { LRUCache } from 'lru-cache';
import type { Db, Filter } from 'mongodb';
import {
  BatchInserter,
  type CollectionIndexes,
  isDuplicateKey,
  TenantCollection,
  WITHOUT_MONGO_ID,
} from '../db/index.js';
import type { EventPayload } from '../events/index.js';
import { growingUpTo } from '../runtime/index.js';
import type { DeliveryIds } from './delivery-ids.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'skipped';

export interface DeliveryAttempt {
  at: Date;
  durationMs: number;
  /** The receiver's HTTP status; null when no answer came (connection, timeout, refused destination). */
  httpStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

/** One event on its way to one channel, as stored: written once, never updated. */
export interface DeliveryRecord {
  id: number;
  organizationId: number;
  channelId: number;
  eventId: string;
  eventType: EventPayload['type'];
  /** What is sent, kept so a redelivery does not depend on the event still being stored. */
  payload: EventPayload;
  createdAt: Date;
}

/** A delivery with what its log says: attempts, where it stands, why. */
export interface Delivery extends DeliveryRecord {
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Why the last series ended without success, or why it was skipped. */
  outcome: string | null;
  /** What the tool made of it, to refer to later (the Jira issue a down event opened). */
  externalRef: string | null;
  updatedAt: Date;
}

/**
 * What happened to a delivery, appended and never changed: an attempt, a settlement without one
 * (skipped), or a redelivery. The log, not an updated document, is the delivery's state, because
 * FerretDB scans the whole collection for every update (a per-delivery update made deliveries
 * slower the more of them were kept).
 */
interface LogEntry {
  deliveryKey: string;
  organizationId: number;
  channelId: number;
  /** The incident of the delivery's event (Jira finds the issue its down event opened by it). */
  incident: string | null;
  kind: 'attempt' | 'settled' | 'redelivery';
  at: Date;
  attempt: Omit<DeliveryAttempt, 'at'> | null;
  /** The status this entry ends the series with; null: the series goes on (or starts again). */
  settles: Exclude<DeliveryStatus, 'pending'> | null;
  outcome: string | null;
  externalRef: string | null;
}

export const DELIVERIES = 'deliveries';
/** Delivery records a process keeps in memory at most (a few KiB each), the least recently used going first. */
const RECORDS_KEPT = 10_000;
export const DELIVERY_LOG = 'delivery_log';

export const deliveryIndexes: CollectionIndexes[] = [
  {
    collection: DELIVERIES,
    indexes: [
      { key: { id: 1 }, unique: true, name: 'id_unique' },
      { key: { organizationId: 1, channelId: 1, id: -1 }, name: 'channel_newest' },
      { key: { createdAt: 1 }, name: 'created' },
    ],
  },
  {
    collection: DELIVERY_LOG,
    indexes: [
      { key: { deliveryKey: 1, at: 1 }, name: 'delivery_time' },
      { key: { organizationId: 1, channelId: 1, incident: 1 }, name: 'channel_incident' },
      // A reply in a chat thread finds its incident by the thread (Slack's ts).
      { key: { organizationId: 1, externalRef: 1 }, name: 'external_ref' },
      { key: { at: 1 }, name: 'time' },
    ],
  },
];

/** A delivery's primary key: one per event and channel, so a second dispatch finds the first. */
export const deliveryKey = (eventId: string, channelId: number) => `${eventId}:${channelId}`;
/** A delivery's key (`eventId:channelId`): its `_id`, and what its log and owed attempt are filed under. */
export const keyOf = (delivery: Pick<DeliveryRecord, 'eventId' | 'channelId'>) =>
  deliveryKey(delivery.eventId, delivery.channelId);

/** Where a delivery stands after its log (entries in the order they happened). */
export function withLog(record: DeliveryRecord, entries: readonly LogEntry[]): Delivery {
  const delivery: Delivery = {
    ...record,
    status: 'pending',
    attempts: [],
    outcome: null,
    externalRef: null,
    updatedAt: record.createdAt,
  };
  for (const entry of entries) {
    if (entry.attempt) delivery.attempts.push({ at: entry.at, ...entry.attempt });
    if (entry.kind === 'redelivery') {
      delivery.status = 'pending';
      delivery.outcome = null;
    } else if (entry.settles) {
      delivery.status = entry.settles;
      delivery.outcome = entry.outcome;
    }
    delivery.externalRef = entry.externalRef ?? delivery.externalRef;
    delivery.updatedAt = entry.at;
  }
  return delivery;
}

export class DeliveryRepository {
  private readonly deliveries: TenantCollection<DeliveryRecord>;
  private readonly log: TenantCollection<LogEntry>;
  /** Log entries of many concurrent attempts share one insertMany. */
  private readonly logWriter: BatchInserter<LogEntry>;
  /** New deliveries of many concurrent dispatches share one insertMany (a group commit: no wait when idle). */
  private readonly creations: BatchInserter<DeliveryRecord & { _id: string }>;
  /**
   * Records this process made or read lately, by key: a record is never changed, so its first
   * attempt (nearly always in the process that made it, a moment later) reads no MongoDB for it.
   */
  private readonly knownRecords = new LRUCache<string, DeliveryRecord>(growingUpTo(RECORDS_KEPT));

  constructor(
    db: Db,
    /** Ids in the order deliveries are made, across processes. */
    private readonly ids: Pick<DeliveryIds, 'next'>,
  ) {
    this.deliveries = new TenantCollection(db.collection<DeliveryRecord>(DELIVERIES));
    this.log = new TenantCollection(db.collection<LogEntry>(DELIVERY_LOG));
    this.logWriter = new BatchInserter(this.log.collection, { flushEveryMs: 20 });
    this.creations = new BatchInserter(db.collection<DeliveryRecord & { _id: string }>(DELIVERIES), {
      flushEveryMs: 0,
    });
  }

  /**
   * A new pending delivery, or the record this event already has for this channel (without its
   * log: reading it scans on FerretDB, and a second enqueue rarely needs it).
   */
  async createOnce(
    input: Pick<DeliveryRecord, 'organizationId' | 'channelId' | 'payload'>,
  ): Promise<{ record: DeliveryRecord; created: boolean }> {
    const key = deliveryKey(input.payload.id, input.channelId);
    const record: DeliveryRecord = {
      ...input,
      id: await this.ids.next(),
      eventId: input.payload.id,
      eventType: input.payload.type,
      createdAt: new Date(),
    };
    try {
      // Insert first: a second dispatch of an event is rare, and a miss by key costs FerretDB a scan.
      await this.creations.insert({ ...record, _id: key });
      this.knownRecords.set(key, record);
      return { record, created: true };
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      const existing = await this.findByKey(input.organizationId, key);
      if (!existing) throw error;
      return { record: existing, created: false };
    }
  }

  /** By primary key, without the log: what an attempt needs (FerretDB answers it without a scan). */
  async findByKey(organizationId: number, key: string): Promise<DeliveryRecord | null> {
    const known = this.knownRecords.get(key);
    if (known) return known.organizationId === organizationId ? known : null;
    const found = await this.deliveries.findOneByKey(organizationId, key, WITHOUT_MONGO_ID);
    if (found) this.knownRecords.set(key, found);
    return found;
  }

  async findById(organizationId: number, id: number): Promise<Delivery | null> {
    const record = await this.deliveries.findOne(organizationId, { id }, WITHOUT_MONGO_ID);
    return record && this.withItsLog(record);
  }

  /** A channel's deliveries, newest first, after the id `before` (paging), with their logs. */
  async page(organizationId: number, channelId: number, limit: number, before?: number): Promise<Delivery[]> {
    const records = await this.deliveries
      .find(
        organizationId,
        { channelId, ...(before ? { id: { $lt: before } } : {}) },
        {
          ...WITHOUT_MONGO_ID,
          sort: { id: -1 },
          limit,
        },
      )
      .toArray();
    const entries = await this.entriesOf(organizationId, records.map(keyOf));
    return records.map((record) => withLog(record, entries.get(keyOf(record)) ?? []));
  }

  /** The delivery with its log as MongoDB holds it now (its status and attempts). */
  reread(record: DeliveryRecord): Promise<Delivery> {
    return this.withItsLog(record);
  }

  private async withItsLog(record: DeliveryRecord): Promise<Delivery> {
    const entries = await this.entriesOf(record.organizationId, [keyOf(record)]);
    return withLog(record, entries.get(keyOf(record)) ?? []);
  }

  private async entriesOf(organizationId: number, keys: string[]): Promise<Map<string, LogEntry[]>> {
    if (keys.length === 0) return new Map();
    const entries = await this.log.find(organizationId, { deliveryKey: { $in: keys } }).toArray();
    // In the order they happened; the ObjectId breaks ties within a millisecond.
    entries.sort((a, b) => a.at.getTime() - b.at.getTime() || String(a._id).localeCompare(String(b._id)));
    const byKey = new Map<string, LogEntry[]>();
    for (const { _id, ...entry } of entries)
      byKey.set(entry.deliveryKey, [...(byKey.get(entry.deliveryKey) ?? []), entry]);
    return byKey;
  }

  private append(
    delivery: DeliveryRecord,
    entry: Pick<LogEntry, 'kind' | 'at' | 'attempt' | 'settles' | 'outcome'> & {
      externalRef?: string | null;
    },
  ): Promise<void> {
    return this.logWriter.insert({
      deliveryKey: keyOf(delivery),
      organizationId: delivery.organizationId,
      channelId: delivery.channelId,
      incident: delivery.payload.data.incident,
      externalRef: null,
      ...entry,
    });
  }

  /** An attempt, and the status it ends the series with (null: it goes on). */
  recordAttempt(
    delivery: DeliveryRecord,
    attempt: DeliveryAttempt,
    settlement: {
      status: Exclude<DeliveryStatus, 'pending'>;
      outcome: string | null;
      externalRef?: string;
    } | null,
  ): Promise<void> {
    const { at, ...rest } = attempt;
    return this.append(delivery, {
      kind: 'attempt',
      at,
      attempt: rest,
      settles: settlement?.status ?? null,
      outcome: settlement?.outcome ?? null,
      externalRef: settlement?.externalRef ?? null,
    });
  }

  /** Ends the series without an attempt (skipped, or the channel went away). */
  settle(
    delivery: DeliveryRecord,
    status: Exclude<DeliveryStatus, 'pending'>,
    outcome: string,
  ): Promise<void> {
    return this.append(delivery, {
      kind: 'settled',
      at: new Date(),
      attempt: null,
      settles: status,
      outcome,
    });
  }

  /** A redelivery: the delivery is pending again. */
  reopen(delivery: DeliveryRecord): Promise<void> {
    return this.append(delivery, {
      kind: 'redelivery',
      at: new Date(),
      attempt: null,
      settles: null,
      outcome: null,
    });
  }

  /** What the channel's delivery of the incident's down event left to refer to (a Jira issue key). */
  async externalRefOf(organizationId: number, channelId: number, incident: string): Promise<string | null> {
    // The first one: a down message sent again by hand must not move a chat thread.
    const entry = await this.log.findOne(
      organizationId,
      { channelId, incident, externalRef: { $ne: null } } as Filter<LogEntry>,
      { ...WITHOUT_MONGO_ID, sort: { at: 1 } },
    );
    return entry?.externalRef ?? null;
  }

  /**
   * The incident whose delivery to one of `channelIds` left `externalRef` (a Slack thread's ts), and
   * that channel; null when none did. Indexed on MongoDB; a scan of the kept log on FerretDB.
   */
  async incidentOfExternalRef(
    organizationId: number,
    channelIds: readonly number[],
    externalRef: string,
  ): Promise<{ channelId: number; incident: string } | null> {
    const entry = await this.log.findOne(
      organizationId,
      { externalRef, channelId: { $in: [...channelIds] }, incident: { $ne: null } } as Filter<LogEntry>,
      { projection: { _id: 0, channelId: 1, incident: 1 } },
    );
    return entry?.incident ? { channelId: entry.channelId, incident: entry.incident } : null;
  }

  /** Retention: deliveries made, and log entries written, before `before`, of every organization. */
  async deleteBefore(before: Date): Promise<number> {
    this.knownRecords.clear();
    const deleted = await this.deliveries.collection.deleteMany({ createdAt: { $lt: before } });
    await this.log.collection.deleteMany({ at: { $lt: before } });
    return deleted.deletedCount;
  }

  /** Writes log entries still waiting for their batch (at shutdown). */
  flush(): Promise<void> {
    return this.logWriter.flush();
  }
}
