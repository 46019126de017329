import type { Collection, Db } from 'mongodb';
import { isDuplicateKey, upsertRacingFirstWriters } from './counters.js';
import { KEY_LOOKUPS } from './key-lookup.js';

/** Where the lists live: one document per owner, `_id: "<namespace>/<owner>"`. */
export const ID_LISTS = 'id_lists';

interface IdListDocument {
  _id: string;
  ids: number[];
}

interface BackfillMarker {
  _id: string;
  ref: string;
}

/**
 * The ids of what an owner has (a customer's status pages, a website's maintenance windows), kept
 * in one document per owner so they are listed by one primary-key read: a filter on the owner's
 * field reads every document of the collection on FerretDB 1.24 (shared by every organization).
 *
 * FerretDB's update is a read and a write without a transaction, so two writers of one list at
 * once may lose one's change: callers write a list from one writer at a time (the owner's lock).
 * An id joins before its document is stored and leaves after it is deleted, so a crash leaves at
 * most an id whose document is gone: readers skip ids whose document is missing or not the owner's.
 */
export class IdLists {
  private readonly lists: Collection<IdListDocument>;
  private readonly markers: Collection<BackfillMarker>;

  constructor(
    db: Db,
    /** `<collection>.<owner field>`, e.g. `maintenance_windows.websiteId`. */
    private readonly namespace: string,
  ) {
    this.lists = db.collection<IdListDocument>(ID_LISTS);
    this.markers = db.collection<BackfillMarker>(KEY_LOOKUPS);
  }

  private key(owner: number): string {
    return `${this.namespace}/${owner}`;
  }

  /** The ids listed for `owner` (maybe some of documents since gone); none when it has no list. */
  async get(owner: number): Promise<number[]> {
    return (await this.lists.findOne({ _id: this.key(owner) }))?.ids ?? [];
  }

  async add(owner: number, id: number): Promise<void> {
    await this.addAll(owner, [id]);
  }

  /** Adds ids to the owner's list, made if it has none (by the first of writers racing to make it). */
  private async addAll(owner: number, ids: readonly number[]): Promise<void> {
    await upsertRacingFirstWriters(() =>
      this.lists.updateOne(
        { _id: this.key(owner) },
        { $addToSet: { ids: { $each: [...ids] } } },
        { upsert: true },
      ),
    );
  }

  async remove(owner: number, id: number): Promise<void> {
    await this.lists.updateOne({ _id: this.key(owner) }, { $pull: { ids: id } });
  }

  /** The owner is gone, and what it had. */
  async drop(owner: number): Promise<void> {
    await this.lists.deleteOne({ _id: this.key(owner) });
  }

  /**
   * Lists the documents stored before these lists were kept (at start), once per database: a
   * `~backfilled/id_lists.<namespace>` marker in `key_lookups` (read by `_id`) says it is done.
   * Adds to what is there, never replaces it; idempotent, so processes starting at once may both
   * run it. Says how many documents it went through (0 once done).
   */
  async backfill(all: () => Promise<Array<{ owner: number; id: number }>>): Promise<number> {
    const marker = `~backfilled/${ID_LISTS}.${this.namespace}`;
    if (await this.markers.findOne({ _id: marker })) return 0;
    const documents = await all();
    const byOwner = new Map<number, number[]>();
    for (const { owner, id } of documents) byOwner.set(owner, [...(byOwner.get(owner) ?? []), id]);
    for (const [owner, ids] of byOwner) await this.addAll(owner, ids);
    await this.markers.insertOne({ _id: marker, ref: marker }).catch((error: unknown) => {
      if (!isDuplicateKey(error)) throw error;
    });
    return documents.length;
  }
}

/**
 * The owners that have a list in each of these namespaces (some maybe empty), by one read of the
 * lists' collection (`_id` by prefix: on FerretDB 1.24 a scan of every namespace's lists, on
 * MongoDB a range of the `_id` index), or null when it holds more than `atMost` lists (or does not
 * say how many): then reading each owner's list by primary key costs less.
 */
export async function ownersWithLists(
  db: Db,
  namespaces: readonly string[],
  atMost: number,
): Promise<Map<string, Set<number>> | null> {
  const stats = await db.command({ collStats: ID_LISTS }).catch(() => null);
  const stored = typeof stats?.count === 'number' ? stats.count : Number.NaN;
  if (!(stored <= atMost)) return null;
  const escaped = namespaces.map((namespace) => namespace.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const owners = new Map(namespaces.map((namespace) => [namespace, new Set<number>()]));
  const lists = db
    .collection<IdListDocument>(ID_LISTS)
    .find({ _id: { $regex: `^(?:${escaped.join('|')})/\\d+$` } }, { projection: { _id: 1 } });
  for await (const { _id } of lists) {
    const slash = _id.lastIndexOf('/');
    owners.get(_id.slice(0, slash))?.add(Number(_id.slice(slash + 1)));
  }
  return owners;
}
