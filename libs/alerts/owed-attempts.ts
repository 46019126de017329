import type { Collection, Db } from 'mongodb';
import type { CollectionIndexes } from '../db/index.js';

/**
 * The next attempt a pending delivery owes, kept in MongoDB so that no loss of Redis (where the
 * attempt's job waits) can strand it: one document per pending delivery, replaced after each
 * failed attempt, removed when the delivery settles.
 */
export interface OwedAttempt {
  /** The delivery's key (`eventId:channelId`). */
  deliveryKey: string;
  organizationId: number;
  deliveryId: number;
  /** Which series of attempts (0 for the first; a redelivery starts another). */
  series: number;
  /** The attempt's number within its series, from 1. */
  number: number;
  dueAt: Date;
}

type OwedDocument = Omit<OwedAttempt, 'deliveryKey'> & { _id: string };

export const OWED_ATTEMPTS = 'delivery_owed_attempts';

export const owedAttemptIndexes: CollectionIndexes = {
  collection: OWED_ATTEMPTS,
  indexes: [{ key: { dueAt: 1 }, name: 'due' }],
};

const fromDocument = ({ _id, ...rest }: OwedDocument): OwedAttempt => ({ deliveryKey: _id, ...rest });

export class OwedAttempts {
  private readonly owed: Collection<OwedDocument>;

  constructor(db: Db) {
    this.owed = db.collection<OwedDocument>(OWED_ATTEMPTS);
  }

  /** Records the attempt the delivery owes next (replacing the one it owed). */
  async owe({ deliveryKey, ...rest }: OwedAttempt): Promise<void> {
    await this.owed.replaceOne({ _id: deliveryKey }, rest, { upsert: true });
  }

  async find(deliveryKey: string): Promise<OwedAttempt | null> {
    const found = await this.owed.findOne({ _id: deliveryKey });
    return found && fromDocument(found);
  }

  /** The delivery owes nothing more (it settled, or is gone). */
  async paid(deliveryKey: string): Promise<void> {
    await this.owed.deleteOne({ _id: deliveryKey });
  }

  /** Attempts due at `at` or before, of every organization, oldest first. */
  async dueBy(at: Date, limit: number): Promise<OwedAttempt[]> {
    const found = await this.owed.find({ dueAt: { $lte: at } }, { sort: { dueAt: 1 }, limit }).toArray();
    return found.map(fromDocument);
  }
}
