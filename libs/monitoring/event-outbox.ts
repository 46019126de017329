import type { Collection, Db } from 'mongodb';
import { EVENTS, type EventDocument } from './monitor-state.repository.js';

/** The notifier's side of the events outbox: what is still to dispatch, and marking it done. */
export class EventOutbox {
  private readonly events: Collection<EventDocument>;

  constructor(db: Db) {
    this.events = db.collection<EventDocument>(EVENTS);
  }

  find(eventId: string): Promise<EventDocument | null> {
    return this.events.findOne({ id: eventId }, { projection: { _id: 0 } });
  }

  /** `deliveredAt` is when the event was handed to its channels' deliveries. */
  async markDispatched(eventId: string, at: Date): Promise<void> {
    await this.events.updateOne({ id: eventId }, { $set: { deliveredAt: at } });
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
