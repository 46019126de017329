import { type Collection, type Db, MongoServerError } from 'mongodb';
import { serializedInProcess } from './serialized-in-process.js';

interface CounterDocument {
  _id: string;
  seq: number;
}

interface ClaimDocument {
  _id: string;
}

const DUPLICATE_KEY = 11000;
/** Enough for a burst of thousands of concurrent allocations on a backend without atomic $inc. */
const MAX_ATTEMPTS = 10_000;

/** A write refused for a unique index (or `_id`) value already taken. */
export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
}

/**
 * An upsert of a document that may not exist yet, tried once more when refused as a duplicate key:
 * two first writers at once, one inserts it (MongoDB and FerretDB alike refuse the other's insert),
 * and the second try updates the document that now exists.
 */
export async function upsertRacingFirstWriters<T>(upsert: () => Promise<T>): Promise<T> {
  try {
    return await upsert();
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    return upsert();
  }
}

async function increment(counters: Collection<CounterDocument>, sequence: string, by = 1): Promise<number> {
  for (;;) {
    try {
      const counter = await counters.findOneAndUpdate(
        { _id: sequence },
        { $inc: { seq: by } },
        { upsert: true, returnDocument: 'after' },
      );
      if (!counter) throw new Error(`counter ${sequence} was not returned by findOneAndUpdate`);
      return counter.seq;
    } catch (error) {
      // Two first-ever increments race to insert the counter; the loser increments the winner's.
      if (!isDuplicateKey(error)) throw error;
    }
  }
}

/**
 * The next integer id of `sequence` (one per collection). `$inc` proposes a candidate and an insert
 * under the unique `_id` of `id_claims` makes it ours: MongoDB's `$inc` is atomic, but FerretDB 1.24
 * reads and writes without a transaction, so two callers can be handed the same number; the insert
 * is atomic on both, and the loser simply takes the next number.
 */
export function nextId(db: Db, sequence: string): Promise<number> {
  const key = `${db.databaseName}/${sequence}`;
  return new Promise((resolve, reject) => {
    const waiting = askers.get(key);
    if (waiting) {
      waiting.push({ resolve, reject });
      return;
    }
    const batch: Asker[] = [{ resolve, reject }];
    askers.set(key, batch);
    // Allocations of one process queue up per sequence, so they do not collide with each other
    // (the claim settles collisions with other processes); those who ask while one is under way
    // are served together by the next, in the order they asked: two requests for many ids (the
    // notifier creating a delivery per event and channel) instead of two each.
    allocations(key, () => {
      askers.delete(key);
      return batch.length === 1
        ? allocate(db, sequence).then((id) => [id])
        : allocateMany(db, sequence, batch.length);
    }).then(
      (ids) => {
        for (const [i, asker] of batch.entries()) asker.resolve(ids[i] as number);
      },
      (error: unknown) => {
        for (const asker of batch) asker.reject(error);
      },
    );
  });
}

interface Asker {
  resolve(id: number): void;
  reject(error: unknown): void;
}
/** Per sequence, who asked for an id since the allocation under way started (none under way: absent). */
const askers = new Map<string, Asker[]>();

/** One allocation of a sequence at a time in this process. */
const allocations = serializedInProcess<string>();

async function allocate(db: Db, sequence: string): Promise<number> {
  const counters = db.collection<CounterDocument>('counters');
  const claims = db.collection<ClaimDocument>('id_claims');
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const candidate = await increment(counters, sequence);
    try {
      await claims.insertOne({ _id: `${sequence}:${candidate}` });
      return candidate;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }
  throw new Error(`could not allocate an id for ${sequence} after ${MAX_ATTEMPTS} attempts`);
}

/**
 * `count` new ids of `sequence` at once (a batch of documents): the counter moved by the number
 * still wanted and those candidates claimed with one insert, again for those another caller took
 * (see `nextId`). Ascending.
 */
export function nextIds(db: Db, sequence: string, count: number): Promise<number[]> {
  return allocations(`${db.databaseName}/${sequence}`, () => allocateMany(db, sequence, count));
}

async function allocateMany(db: Db, sequence: string, count: number): Promise<number[]> {
  const counters = db.collection<CounterDocument>('counters');
  const claims = db.collection<ClaimDocument>('id_claims');
  const ids: number[] = [];
  for (let attempt = 1; ids.length < count; attempt++) {
    if (attempt > MAX_ATTEMPTS) throw new Error(`could not allocate ${count} ids for ${sequence}`);
    const wanted = count - ids.length;
    const last = await increment(counters, sequence, wanted);
    const candidates = Array.from({ length: wanted }, (_, i) => last - wanted + 1 + i);
    const taken = new Set<number>();
    try {
      await claims.insertMany(
        candidates.map((id) => ({ _id: `${sequence}:${id}` })),
        { ordered: false },
      );
    } catch (error) {
      const writeErrors = (error as { writeErrors?: unknown }).writeErrors;
      const failed = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
      if (failed.length === 0) throw error;
      for (const failure of failed as Array<{ index: number; code?: number; err?: { code?: number } }>) {
        if ((failure.code ?? failure.err?.code) !== DUPLICATE_KEY) throw error;
        taken.add(candidates[failure.index] as number);
      }
    }
    ids.push(...candidates.filter((id) => !taken.has(id)));
  }
  return ids.sort((a, b) => a - b);
}
