import { randomUUID } from 'node:crypto';
import type { Redis } from './client.js';
import { getMany } from './keys.js';

/** A revision key nobody touched for this long belongs to a record long gone. */
const REVISION_TTL_SECONDS = 30 * 86_400;

/**
 * A random revision per record (a website, a customer) in Redis, replaced after every write to it
 * in MongoDB: a copy read under the revision still current is the stored record. Random rather
 * than counted, so a revision lost with a flushed Redis can't come back equal to an old one.
 */
export class Revisions {
  constructor(
    private readonly redis: Redis,
    /** `<prefix>:<kind>-rev`: the record's id follows it. */
    private readonly keyPrefix: string,
  ) {}

  private key(id: number) {
    return `${this.keyPrefix}:${id}`;
  }

  /** A new revision for the record, returned. */
  async bump(id: number): Promise<string> {
    const revision = randomUUID();
    await this.redis.set(this.key(id), revision, 'EX', REVISION_TTL_SECONDS);
    return revision;
  }

  /**
   * The record's revision. One never set (or gone: expired, or lost with Redis' data) is set now,
   * so no copy is ever kept under "none": after a write's revision was lost, "none" would match a
   * copy read before that write again.
   */
  async current(id: number): Promise<string> {
    return (await this.redis.get(this.key(id))) ?? this.start(id);
  }

  /** The revisions of many records, a thousand per round trip (those missing set as in `current`). */
  async currentMany(ids: readonly number[]): Promise<Map<number, string>> {
    const revisions = new Map<number, string>();
    for (let start = 0; start < ids.length; start += 1000) {
      const chunk = ids.slice(start, start + 1000);
      const values = await getMany(
        this.redis,
        chunk.map((id) => this.key(id)),
      );
      const missing: number[] = [];
      for (const [i, id] of chunk.entries()) {
        const value = values[i];
        if (value) revisions.set(id, value);
        else missing.push(id);
      }
      const started = await Promise.all(missing.map((id) => this.start(id)));
      for (const [i, id] of missing.entries()) revisions.set(id, started[i] as string);
    }
    return revisions;
  }

  /** A first revision for a record that has none; another reader's or a writer's if it set one first. */
  private async start(id: number): Promise<string> {
    const revision = randomUUID();
    const set = await this.redis.set(this.key(id), revision, 'EX', REVISION_TTL_SECONDS, 'NX');
    // Gone again in between (expired, flushed): this one is shared by nobody, so nothing matches it.
    return set === 'OK' ? revision : ((await this.redis.get(this.key(id))) ?? revision);
  }
}

interface Kept<T> {
  revision: string;
  at: number;
  value: T;
}

/**
 * Records kept in memory with the revision they were read under (the revision is read first, then
 * the record: a write landing in between leaves the copy stale for the next read to replace).
 * A copy is current while its revision is and for `maxAgeMs` at most (bounding a revision lost
 * between a write and its bump); past `capacity`, the least recently stored go first.
 */
export class RevisedMemory<T extends { id: number }> {
  private readonly entries = new Map<number, Kept<T>>();

  constructor(
    readonly revisions: Revisions,
    private readonly capacity: number,
    private readonly maxAgeMs: number,
  ) {}

  /** The copy of `id` if it was read under `revision` and is young enough. */
  current(id: number, revision: string | undefined): T | undefined {
    const entry = this.entries.get(id);
    return entry && entry.revision === revision && Date.now() - entry.at < this.maxAgeMs
      ? entry.value
      : undefined;
  }

  /** The copy of `id`, current or not (served while the store does not answer). */
  kept(id: number): T | undefined {
    return this.entries.get(id)?.value;
  }

  /**
   * The records of these ids that exist: their revisions in one round trip, the current copies
   * (those `wanted` accepts: of the caller's organization) from memory, the others from `read`,
   * then kept. A list polled every few seconds costs a Redis MGET.
   */
  async readMany(
    ids: readonly number[],
    wanted: (value: T) => boolean,
    read: (missing: number[]) => Promise<T[]>,
  ): Promise<Map<number, T>> {
    const revisions = await this.revisions.currentMany(ids);
    const found = new Map<number, T>();
    const missing: number[] = [];
    for (const id of ids) {
      const copy = this.current(id, revisions.get(id));
      if (copy && wanted(copy)) found.set(id, copy);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    for (const value of await read(missing)) {
      const revision = revisions.get(value.id);
      if (revision !== undefined) this.store(value, revision);
      found.set(value.id, value);
    }
    return found;
  }

  store(value: T, revision: string): void {
    this.entries.delete(value.id);
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(value.id, { revision, at: Date.now(), value });
  }

  forget(id: number): void {
    this.entries.delete(id);
  }
}

/**
 * Records read by id and kept in memory while their revision holds: every write through their
 * repository moves it (`changed`), so a read after a write, in any process, reads MongoDB again;
 * `maxAgeMs` bounds a write made where no revision is moved (the admin CLI has no Redis). A record
 * not found is not kept.
 */
export class KeptRecords<T extends { id: number }> {
  private readonly memory: RevisedMemory<T>;
  /** Reads under way, by record and revision: callers missing the same copy at once share one. */
  private readonly reading = new Map<string, Promise<T | null>>();

  constructor(revisions: Revisions, options: { capacity: number; maxAgeMs: number }) {
    this.memory = new RevisedMemory(revisions, options.capacity, options.maxAgeMs);
  }

  /**
   * The record: kept, or `read` (then kept under the revision read before it). A read another
   * caller has under way for the same revision is shared when its record is one `wanted` accepts
   * (`read` is the caller's own, tenant-scoped: otherwise it reads for itself).
   */
  async get(id: number, wanted: (kept: T) => boolean, read: () => Promise<T | null>): Promise<T | null> {
    const revision = await this.memory.revisions.current(id);
    const copy = this.memory.current(id, revision);
    if (copy && wanted(copy)) return copy;
    const key = `${id}:${revision}`;
    const shared = this.reading.get(key);
    if (shared) {
      const record = await shared;
      if (record && wanted(record)) return record;
      return read();
    }
    const own = read().then((record) => {
      if (record) this.memory.store(record, revision);
      return record;
    });
    this.reading.set(key, own);
    try {
      return await own;
    } finally {
      this.reading.delete(key);
    }
  }

  /** After a write of the record: copies read before it are stale everywhere. */
  async changed(id: number): Promise<void> {
    this.memory.forget(id);
    await this.memory.revisions.bump(id);
  }
}

/** Organizations whose documents of one collection a process keeps at most. */
const SNAPSHOTS_KEPT = 10_000;
/** A snapshot whose revision holds is read again after this long (a write whose bump was lost). */
const SNAPSHOT_MAX_AGE_MS = 5 * 60_000;

/**
 * Each organization's documents of one small collection (its escalation policies, its people's
 * contact methods), kept in memory while the organization's revision for the collection holds:
 * every write through the collection's repository moves it (`changed`), so a read after a write,
 * in any process, reads MongoDB again. An escalation step read them on every page before.
 */
export class OrganizationSnapshots<T> {
  private readonly kept: KeptRecords<{ id: number; documents: T[] }>;

  constructor(revisions: Revisions) {
    this.kept = new KeptRecords(revisions, { capacity: SNAPSHOTS_KEPT, maxAgeMs: SNAPSHOT_MAX_AGE_MS });
  }

  /** The organization's documents: kept, or `read` (then kept under the revision read before it). */
  async of(organizationId: number, read: () => Promise<T[]>): Promise<readonly T[]> {
    const found = await this.kept.get(
      organizationId,
      (kept) => kept.id === organizationId,
      async () => ({ id: organizationId, documents: await read() }),
    );
    return found?.documents ?? [];
  }

  /** After a write of the organization's documents: copies read before it are stale everywhere. */
  changed(organizationId: number): Promise<void> {
    return this.kept.changed(organizationId);
  }
}
