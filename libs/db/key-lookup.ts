import { LRUCache } from 'lru-cache';
import type { Collection, Db, Document, Filter, FindOptions, ObjectId, WithId } from 'mongodb';
import { type ConcurrencyLimit, growingUpTo } from '../runtime/index.js';
import { isDuplicateKey } from './counters.js';
import { MongoDeadlineError, withinDeadline } from './unavailable.js';

/** The primary key of the document a lookup entry points at. */
export type LookupRef = string | ObjectId;

interface LookupEntry {
  _id: string;
  ref: LookupRef;
}

export const KEY_LOOKUPS = 'key_lookups';

/**
 * How long a key the public asked for and nobody holds is answered "not found" from memory: long
 * enough that a flood of made-up keys costs no reads, short enough that a key created by another
 * API process (this one's creates clear it at once) shows within seconds.
 */
export const ABSENT_KEY_TTL_MS = 5_000;

/**
 * A lookup not answered this long after it was asked (waiting for the bulkhead included) fails as
 * MongoDB unavailable (503): public routes are not gated on MongoDB's health like `/api/` ones,
 * and a stalled server would otherwise keep each request waiting without end.
 */
export const LOOKUP_DEADLINE_MS = 3_000;

/** Another document holds the key now. */
export class KeyTakenError extends Error {
  constructor(readonly key: string) {
    super(`the key ${key} is taken`);
  }
}

const sameRef = (a: LookupRef, b: LookupRef) => typeof a === typeof b && String(a) === String(b);

/**
 * Keys recently found to have no document (each kept `absentTtlMs`, the least recently added going
 * first past `absentMaxEntries`), so a flood of made-up keys is answered from memory.
 */
type AbsentKeys = LRUCache<string, true>;

/** How many keys' refs a lookup whose refs never move keeps in memory at most (the least recently used go first). */
const KNOWN_REFS_KEPT = 50_000;

/** Refs of keys found lately (for `refsNeverMove` lookups). */
type KnownRefs = LRUCache<string, LookupRef>;

/** One of each per database and namespace in a process, so every repository instance clears the same one. */
const absentKeysByNamespace = new Map<string, AbsentKeys>();
const knownRefsByNamespace = new Map<string, KnownRefs>();

function sharedPerNamespace<C>(
  byNamespace: Map<string, C>,
  db: Db,
  options: KeyLookupOptions,
  make: () => C,
): C {
  const name = `${db.databaseName}/${namespaceOf(options)}`;
  let cache = byNamespace.get(name);
  if (!cache) {
    cache = make();
    byNamespace.set(name, cache);
  }
  return cache;
}

/** Entries are `_id: "<collection>.<keyField>/<key>"` in `key_lookups`. */
const namespaceOf = (options: KeyLookupOptions) => `${options.collection}.${options.keyField}`;

export interface KeyLookupOptions {
  /** The collection of the documents looked up; with `keyField`, it names the lookup's entries. */
  collection: string;
  /** The unique field of those documents the key is (publicId, slug, hash). */
  keyField: string;
  /**
   * Caches "no such document" this long (0: never). A document created by this process is visible
   * at once; one created by another process after this one found nothing, within this time.
   */
  absentTtlMs?: number;
  /** How many absent keys are remembered at most. @defaultValue 10000 */
  absentMaxEntries?: number;
  /**
   * A document keeps its key for life and its `_id` is never used again (a website's publicId, a
   * token's hash): the ref a key was found at is remembered, and the next lookup of it reads the
   * document alone (one primary-key read instead of two); gone, it is looked up afresh.
   */
  refsNeverMove?: boolean;
}

/**
 * A document by a unique key other than its `_id` in two primary-key reads: an entry in
 * `key_lookups` keyed by the key, then the document by the `_id` it names. On FerretDB 1.24 an
 * `_id` filter is the only one that does not read the whole collection (its secondary indexes are
 * not used); on MongoDB both reads are primary-key reads.
 *
 * Writes go entry first, document second (and the entry is removed after the document), so a
 * crash leaves at most an entry whose document is missing or holds another key: reads check the
 * document still holds the key, and a claim takes such an entry over.
 */
export class KeyLookup<T extends Document> {
  private readonly entries: Collection<LookupEntry>;
  private readonly owners: Collection<T>;
  private readonly absent: AbsentKeys | null;
  private readonly knownRefs: KnownRefs | null;

  constructor(
    db: Db,
    private readonly options: KeyLookupOptions,
  ) {
    this.entries = db.collection<LookupEntry>(KEY_LOOKUPS);
    this.owners = db.collection<T>(options.collection);
    const ttl = options.absentTtlMs;
    // Both bounds are far above the usual count: storage grows as keys come.
    this.absent = ttl
      ? sharedPerNamespace(
          absentKeysByNamespace,
          db,
          options,
          () => new LRUCache<string, true>({ ...growingUpTo(options.absentMaxEntries ?? 10_000), ttl }),
        )
      : null;
    this.knownRefs = options.refsNeverMove
      ? sharedPerNamespace(
          knownRefsByNamespace,
          db,
          options,
          () => new LRUCache<string, LookupRef>(growingUpTo(KNOWN_REFS_KEPT)),
        )
      : null;
  }

  private entryId(key: string): string {
    return `${namespaceOf(this.options)}/${key}`;
  }

  private async holder(ref: LookupRef, key: string, options?: FindOptions): Promise<WithId<T> | null> {
    const owner = (await this.owners.findOne({ _id: ref } as Filter<T>, options)) as WithId<T> | null;
    // Keys are text; a numeric field (an integer id) is compared as its text.
    return owner && String(owner[this.options.keyField]) === key ? owner : null;
  }

  /**
   * The document holding `key` now, or null; a projection must keep the key field. The reads go
   * through `bulkhead` when given (a key known absent is answered before, from memory), and fail
   * with a `MongoDeadlineError` past `LOOKUP_DEADLINE_MS`.
   */
  async find(key: string, options?: FindOptions, bulkhead?: ConcurrencyLimit): Promise<WithId<T> | null> {
    if (this.absent?.has(key)) return null;
    const what = `the ${namespaceOf(this.options)} lookup`;
    const deadline = Date.now() + LOOKUP_DEADLINE_MS;
    const timeLeft = () => {
      const timeoutMS = deadline - Date.now();
      if (timeoutMS <= 0) throw new MongoDeadlineError(what, LOOKUP_DEADLINE_MS);
      return { timeoutMS };
    };
    const read = async () => {
      const known = this.knownRefs?.get(key);
      if (known !== undefined) {
        const owner = await this.holder(known, key, { ...options, ...timeLeft() });
        if (owner) return owner;
        this.knownRefs?.delete(key);
      }
      const entry = await this.entries.findOne({ _id: this.entryId(key) }, timeLeft());
      const owner = entry ? await this.holder(entry.ref, key, { ...options, ...timeLeft() }) : null;
      if (entry && owner) this.knownRefs?.set(key, entry.ref);
      return owner;
    };
    // Raced with a timer too: the driver's `timeoutMS` does not end every wait of a stalled server.
    const owner = await withinDeadline(bulkhead ? bulkhead.run(read) : read(), LOOKUP_DEADLINE_MS, what);
    if (!owner) this.absent?.set(key, true);
    return owner;
  }

  /**
   * Where `key`'s document is, without reading it: from memory when known (`refsNeverMove`), else
   * its entry. The caller reads the document and checks it still holds the key (an entry can
   * outlive a crash); null when no entry names the key.
   */
  async refOf(key: string): Promise<LookupRef | null> {
    if (this.absent?.has(key)) return null;
    const known = this.knownRefs?.get(key);
    if (known !== undefined) return known;
    const entry = await withinDeadline(
      this.entries.findOne({ _id: this.entryId(key) }, { timeoutMS: LOOKUP_DEADLINE_MS }),
      LOOKUP_DEADLINE_MS,
      `the ${namespaceOf(this.options)} lookup`,
    );
    if (!entry) this.absent?.set(key, true);
    return entry?.ref ?? null;
  }

  /** `key`'s document was read at `ref` and holds it: the next `find` or `refOf` needs no entry read. */
  confirm(key: string, ref: LookupRef): void {
    this.knownRefs?.set(key, ref);
  }

  /**
   * Points `key` at `ref`, then runs `write` (which stores the document holding it); the entry is
   * removed again if `write` fails. Throws `KeyTakenError` when another document holds the key.
   */
  async claim<R>(key: string, ref: LookupRef, write: () => Promise<R>): Promise<R> {
    await this.point(key, ref);
    let written: R;
    try {
      written = await write();
    } catch (error) {
      await this.release(key, ref);
      throw error;
    } finally {
      // Also after the write: a read between the entry and the document may have found nothing.
      this.absent?.delete(key);
    }
    // Another claimer of the key may have taken the entry over while this document did not hold
    // the key yet (its write then fails): point the entry back at the document that holds it.
    const entry = await this.entries.findOne({ _id: this.entryId(key) });
    if (!entry || !sameRef(entry.ref, ref)) await this.point(key, ref);
    return written;
  }

  /** Points `key` at `ref`, a document that holds it already (found another way); throws `KeyTakenError` as `claim`. */
  async point(key: string, ref: LookupRef): Promise<void> {
    const _id = this.entryId(key);
    this.absent?.delete(key);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.entries.insertOne({ _id, ref });
        return;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      const entry = await this.entries.findOne({ _id });
      if (!entry) continue;
      if (sameRef(entry.ref, ref)) return;
      if (await this.holder(entry.ref, key, { projection: { [this.options.keyField]: 1 } }))
        throw new KeyTakenError(key);
      // Left by a crash or an earlier owner: take it over, unless it was re-pointed since it was read.
      await this.entries.deleteOne({ _id, ref: entry.ref });
    }
    throw new KeyTakenError(key);
  }

  /** Asks MongoDB next time for a key found absent lately: another process said it may exist now. */
  forgetAbsence(key: string): void {
    this.absent?.delete(key);
  }

  /** Removes the entry of a key no document will hold again (an integer id), after its document is deleted. */
  async forget(key: string): Promise<void> {
    await this.entries.deleteOne({ _id: this.entryId(key) });
  }

  /**
   * Claims many keys for documents about to be written by `write` (a batch): the entries in one
   * insert (each taken one by one as `point` would, when another holds it), then the documents;
   * when `write` fails, the entries go again. For keys made fresh (random UUIDs): no second claimer
   * races for them, so the entries are not checked again after the write.
   */
  async claimAll<R>(
    pairs: ReadonlyArray<{ key: string; ref: LookupRef }>,
    write: () => Promise<R>,
  ): Promise<R> {
    try {
      await this.entries.insertMany(
        pairs.map(({ key, ref }) => ({ _id: this.entryId(key), ref })),
        { ordered: false },
      );
    } catch (error) {
      if (!isDuplicateKey(error) && !(error as { writeErrors?: unknown }).writeErrors) throw error;
      for (const { key, ref } of pairs) await this.point(key, ref);
    }
    for (const { key } of pairs) this.absent?.delete(key);
    try {
      return await write();
    } catch (error) {
      for (const { key, ref } of pairs) await this.release(key, ref);
      throw error;
    }
  }

  /** Removes the entry of `key` if it still points at `ref`: after the document is deleted or holds another key. */
  async release(key: string, ref: LookupRef): Promise<void> {
    // One conditional delete: an entry another claimer re-pointed between a read and a delete stays.
    await this.entries.deleteOne({ _id: this.entryId(key), ref });
  }

  /**
   * Adds the entries of documents stored before this lookup existed (or while a process without it
   * wrote), once per database: a marker entry records that it is done. Idempotent; says how many
   * documents it went through (0 once done).
   */
  async backfill(): Promise<number> {
    const marker = `~backfilled/${namespaceOf(this.options)}`;
    if (await this.entries.findOne({ _id: marker })) return 0;
    const { keyField } = this.options;
    // Read whole first: a cursor held open across the inserts keeps FerretDB's SQLite from committing.
    const owners = await this.owners.find({}, { projection: { _id: 1, [keyField]: 1 } }).toArray();
    for (const owner of owners) {
      const key = owner[keyField];
      if (typeof key === 'string') await this.point(key, owner._id as LookupRef);
    }
    await this.entries.insertOne({ _id: marker, ref: marker }).catch((error: unknown) => {
      if (!isDuplicateKey(error)) throw error;
    });
    return owners.length;
  }
}
