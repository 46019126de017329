import type { Collection, Db } from 'mongodb';
import {
  BatchInserter,
  type CollectionIndexes,
  chunkedBulkWrite,
  GroupedWrites,
  isDuplicateKey,
} from '../db/index.js';

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
  /** First attempts of many new deliveries share one insertMany (a group commit: no wait when idle). */
  private readonly firsts: BatchInserter<OwedDocument>;
  /** Settled deliveries' attempts go many to a request (deletes by primary key). */
  private readonly settled: GroupedWrites<string>;

  constructor(db: Db) {
    this.owed = db.collection<OwedDocument>(OWED_ATTEMPTS);
    this.firsts = new BatchInserter(this.owed, { flushEveryMs: 0 });
    this.settled = new GroupedWrites(
      async (keys) => {
        await chunkedBulkWrite(
          this.owed,
          keys.map((key) => ({ deleteOne: { filter: { _id: key } } })),
        );
        return [];
      },
      { flushEveryMs: 0 },
    );
  }

  /** Records the attempt the delivery owes next (replacing the one it owed). */
  async owe({ deliveryKey, ...rest }: OwedAttempt): Promise<void> {
    // A series' first attempt is owed by a delivery that owes nothing yet, nearly always: inserted.
    if (rest.number === 1)
      try {
        return await this.firsts.insert({ _id: deliveryKey, ...rest });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    await this.owed.replaceOne({ _id: deliveryKey }, rest, { upsert: true });
  }

  async find(deliveryKey: string): Promise<OwedAttempt | null> {
    const found = await this.owed.findOne({ _id: deliveryKey });
    return found && fromDocument(found);
  }

  /** The delivery owes nothing more (it settled, or is gone). */
  paid(deliveryKey: string): Promise<void> {
    return this.settled.add(deliveryKey);
  }

  /** Attempts due at `at` or before, of every organization, oldest first. */
  async dueBy(at: Date, limit: number): Promise<OwedAttempt[]> {
    const found = await this.owed.find({ dueAt: { $lte: at } }, { sort: { dueAt: 1 }, limit }).toArray();
    return found.map(fromDocument);
  }
}
