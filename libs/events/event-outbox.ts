import type { Collection, Db } from 'mongodb';
import { type CollectionIndexes, chunkedBulkWrite, isDuplicateKey } from '../db/index.js';
import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import { type EventDocument, eventDocumentSchema } from './event.schema.js';

export const EVENTS = 'events';

export const eventIndexes: CollectionIndexes = {
  collection: EVENTS,
  indexes: [
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { deliveredAt: 1, createdAt: 1 }, name: 'undelivered' },
  ],
};

/** Stored under its id as `_id` too: the notifier reads and marks events by it without a scan. */
type StoredEvent = EventDocument & { _id: string };

const MARK_BATCH = 1000;
const MARK_EVERY_MS = 2000;

export interface EventOutboxOptions {
  /**
   * Tells the notifier's queue of an event (`event`: written just now, so its dispatch may use
   * this copy; absent for one already stored, whose stored copy decides); a lost announcement only
   * delays it (the sweep finds it).
   */
  announce?: (eventId: string, event?: EventDocument) => Promise<void>;
  /** Told when a batch of marks could not be written (the sweep will dispatch those again). */
  onMarkError?: (error: unknown) => void;
  logger?: Logger;
  /** A bound on each write on the check path (see docs/monitoring.md). */
  timeoutMS?: number;
}

/**
 * The events outbox, in one place: producers append events (each parsed by the events contract
 * before it is written, and written once whatever the retries: its id is its key), the notifier
 * finds them, marks them dispatched and sweeps for those whose announcement was lost.
 */
export class EventOutbox {
  private readonly events: Collection<StoredEvent>;
  private dispatched = new Set<string>();
  /** Marks being written now. */
  private readonly writing = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  /** Events stored whose announcement failed, since the start (a metric); each is logged too. */
  announceFailures = 0;

  constructor(
    db: Db,
    private readonly options: EventOutboxOptions = {},
  ) {
    this.events = db.collection<StoredEvent>(EVENTS);
  }

  /**
   * Writes the events in order and announces each. An event already there (a replay of the same
   * transition: its id derives from it) is not written again but announced again, which the
   * notifier's dispatch, keyed by event and channel, makes harmless.
   */
  async append(events: readonly EventDocument[]): Promise<void> {
    for (const draft of events) {
      const event = eventDocumentSchema.parse(draft);
      let written = true;
      try {
        await this.events.insertOne(
          { ...event, _id: event.id },
          this.options.timeoutMS === undefined ? {} : { timeoutMS: this.options.timeoutMS },
        );
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        written = false;
      }
      await this.announce(event, written);
    }
  }

  private async announce(event: EventDocument, written: boolean): Promise<void> {
    const { announce } = this.options;
    if (!announce) return;
    try {
      await (written ? announce(event.id, event) : announce(event.id));
    } catch (error) {
      this.announceFailures++;
      this.options.logger?.warn(
        { eventId: event.id, type: event.type, err: errorMessage(error) },
        'event stored but not announced: the notifier’s sweep will find it within a minute',
      );
    }
  }

  /**
   * By primary key (events written before it was the id are found by `id`, with a scan), read
   * through the events contract: `invalid` says what in a stored event breaks it.
   */
  async find(eventId: string): Promise<{ event: EventDocument } | { invalid: string } | null> {
    const projection = { projection: { _id: 0 } };
    const stored =
      (await this.events.findOne({ _id: eventId }, projection)) ??
      (await this.events.findOne({ id: eventId }, projection));
    if (!stored) return null;
    const parsed = eventDocumentSchema.safeParse(stored);
    return parsed.success
      ? { event: parsed.data }
      : { invalid: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  }

  /**
   * Marks the event dispatched (`deliveredAt`: handed to its channels' deliveries) in the next
   * batch: one request for many events, each updated by primary key. A
   * mark lost to a crash only makes the sweep dispatch the event again, which creates nothing twice.
   */
  markDispatched(eventId: string): void {
    if (this.dispatchedHere(eventId)) return;
    this.dispatched.add(eventId);
    if (this.dispatched.size >= MARK_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), MARK_EVERY_MS);
  }

  /**
   * Whether this process dispatched the event and its mark is not written yet: the sweep may have
   * announced it again meanwhile (it finds events by the mark), and it needs no second dispatch.
   */
  dispatchedHere(eventId: string): boolean {
    return this.dispatched.has(eventId) || this.writing.has(eventId);
  }

  /** Writes the pending marks now (also at shutdown). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const ids = [...this.dispatched];
    this.dispatched = new Set();
    if (ids.length === 0) return;
    for (const id of ids) this.writing.add(id);
    const mark = { $set: { deliveredAt: new Date() } };
    try {
      // Commands of many updates, each by primary key: FerretDB scans the collection for any
      // other filter (an `id: {$in}` took 2 s a batch with 2,000 events stored).
      const byKey = await chunkedBulkWrite(
        this.events,
        ids.map((id) => ({ updateOne: { filter: { _id: id }, update: mark } })),
      );
      // Events written before their id was their key too: by `id`, with a scan, only then.
      if (byKey.matchedCount < ids.length)
        await this.events.updateMany({ id: { $in: ids }, deliveredAt: null }, mark);
    } catch (error) {
      this.options.onMarkError?.(error);
    } finally {
      for (const id of ids) this.writing.delete(id);
    }
  }

  /** Retention: events dispatched before `before` (their deliveries keep what was sent). */
  async deleteDispatchedBefore(before: Date): Promise<number> {
    return (await this.events.deleteMany({ deliveredAt: { $ne: null, $lt: before } })).deletedCount;
  }

  /** Ids of events written before `before` and not dispatched (their announcement was lost). */
  async undispatched(before: Date, limit: number): Promise<string[]> {
    const found = await this.events
      .find({ deliveredAt: null, createdAt: { $lt: before } }, { projection: { _id: 0, id: 1 }, limit })
      .toArray();
    return found.map((event) => event.id);
  }
}
