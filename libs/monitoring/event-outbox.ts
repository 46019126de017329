import type { Collection, Db, Document, Filter } from 'mongodb';
import { type EventDocument, eventDocumentSchema } from '../events/index.js';
import { EVENTS } from './monitor-state.repository.js';

const MARK_BATCH = 1000;
const MARK_EVERY_MS = 2000;

/** The notifier's side of the events outbox: what is still to dispatch, and marking it done. */
export class EventOutbox {
  private readonly events: Collection<Document>;

  private dispatched: string[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    db: Db,
    /** Told when a batch of marks could not be written (the sweep will dispatch those again). */
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.events = db.collection(EVENTS);
  }

  /**
   * By primary key (events written before it was the id are found by `id`, with a scan), read
   * through the events contract: `invalid` says what in a stored event breaks it.
   */
  async find(eventId: string): Promise<{ event: EventDocument } | { invalid: string } | null> {
    const projection = { projection: { _id: 0 } };
    const stored =
      (await this.events.findOne({ _id: eventId } as unknown as Filter<Document>, projection)) ??
      (await this.events.findOne({ id: eventId }, projection));
    if (!stored) return null;
    const parsed = eventDocumentSchema.safeParse(stored);
    return parsed.success
      ? { event: parsed.data }
      : { invalid: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  }

  /**
   * Marks the event dispatched (`deliveredAt`: handed to its channels' deliveries) in the next
   * batch: one updateMany for many events, as FerretDB scans the collection for every update. A
   * mark lost to a crash only makes the sweep dispatch the event again, which creates nothing twice.
   */
  markDispatched(eventId: string): void {
    this.dispatched.push(eventId);
    if (this.dispatched.length >= MARK_BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), MARK_EVERY_MS);
  }

  /** Writes the pending marks now (also at shutdown). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const ids = this.dispatched;
    this.dispatched = [];
    if (ids.length === 0) return;
    try {
      await this.events.updateMany({ id: { $in: ids } }, { $set: { deliveredAt: new Date() } });
    } catch (error) {
      this.onError(error);
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
