import { LRUCache } from 'lru-cache';
import type { Collection, Db } from 'mongodb';
import {
  BatchInserter,
  type CollectionIndexes,
  chunkedBulkWrite,
  GroupedWrites,
  isDuplicateKey,
} from '../db/index.js';
import type { Redis } from '../redis/index.js';
import { growingUpTo } from '../runtime/index.js';

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
/** Attempts owed a process remembers having written at most, the least recently used going first. */
const OWED_KEPT = 20_000;
/**
 * How long a paid delivery's mark stays in Redis: far longer than a second enqueue of its event
 * comes (a grouped window closed twice, a dispatch mark not yet written). Without the mark (expired,
 * Redis lost) a second enqueue reads the delivery's log, which is correct but scans on FerretDB.
 */
const PAID_MARK_MS = 3_600_000;

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
  /**
   * What this process last wrote each delivery owes: an attempt's job run here finds it without a
   * read. Another process may have written since (its attempt ran there), so it is taken only when
   * it is the very attempt the job runs; any other job reads MongoDB.
   */
  private readonly owedHere = new LRUCache<string, OwedAttempt>(growingUpTo(OWED_KEPT));

  constructor(
    db: Db,
    private readonly marks: { redis: Redis; prefix: string },
  ) {
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

  private paidMark(deliveryKey: string): string {
    return `${this.marks.prefix}:delivery-paid:${deliveryKey}`;
  }

  /** Records the attempt the delivery owes next (replacing the one it owed). */
  async owe(owed: OwedAttempt): Promise<void> {
    const { deliveryKey, ...rest } = owed;
    this.owedHere.delete(deliveryKey);
    await this.write(deliveryKey, rest);
    this.owedHere.set(deliveryKey, owed);
  }

  private async write(deliveryKey: string, rest: Omit<OwedAttempt, 'deliveryKey'>): Promise<void> {
    // A series' first attempt is owed by a delivery that owes nothing yet, nearly always: inserted.
    if (rest.number === 1)
      try {
        return await this.firsts.insert({ _id: deliveryKey, ...rest });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    await this.owed.replaceOne({ _id: deliveryKey }, rest, { upsert: true });
  }

  /**
   * Owes the attempt only if the delivery owes nothing now (an insert, never a replace) and was not
   * paid lately: false when it owes one already (another process made or went on with its series
   * meanwhile) or its mark says it settled.
   */
  async oweIfNothing(owed: OwedAttempt): Promise<boolean> {
    const { deliveryKey, ...rest } = owed;
    if ((await this.marks.redis.exists(this.paidMark(deliveryKey))) === 1) return false;
    try {
      await this.firsts.insert({ _id: deliveryKey, ...rest });
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
    this.owedHere.set(deliveryKey, owed);
    return true;
  }

  /** Takes back an attempt owed by `oweIfNothing`, unless what is owed has moved on since. */
  async withdraw(owed: OwedAttempt): Promise<void> {
    this.owedHere.delete(owed.deliveryKey);
    await this.owed.deleteOne({ _id: owed.deliveryKey, series: owed.series, number: owed.number });
  }

  /** What the delivery owes now; `expected`, the attempt a job runs, is answered from memory when this process owed it last. */
  async find(
    deliveryKey: string,
    expected?: Pick<OwedAttempt, 'series' | 'number'>,
  ): Promise<OwedAttempt | null> {
    const here = this.owedHere.get(deliveryKey);
    if (here && expected && here.series === expected.series && here.number === expected.number) return here;
    const found = await this.owed.findOne({ _id: deliveryKey });
    return found && fromDocument(found);
  }

  /**
   * The delivery owes nothing more (it settled, or is gone). Marked paid before its owed attempt
   * goes, so that a second enqueue sees one or the other; the mark is a shortcut only (its loss
   * costs a read of the log), so a Redis failure does not fail the settlement.
   */
  async paid(deliveryKey: string): Promise<void> {
    this.owedHere.delete(deliveryKey);
    await this.marks.redis.set(this.paidMark(deliveryKey), '1', 'PX', PAID_MARK_MS).catch(() => undefined);
    return this.settled.add(deliveryKey);
  }

  /** A paid delivery reopened (a redelivery): no longer marked paid, before its new series is owed. */
  async unpaid(deliveryKey: string): Promise<void> {
    await this.marks.redis.del(this.paidMark(deliveryKey));
  }

  /** Attempts due at `at` or before, of every organization, oldest first. */
  async dueBy(at: Date, limit: number): Promise<OwedAttempt[]> {
    const found = await this.owed.find({ dueAt: { $lte: at } }, { sort: { dueAt: 1 }, limit }).toArray();
    return found.map(fromDocument);
  }
}
