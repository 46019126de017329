import { LRUCache } from 'lru-cache';
import type { Collection, Db } from 'mongodb';
import { ID_LISTS } from './id-lists.js';

/** Ids a chunk takes before the next id opens a new one (out-of-order ids may still join it). */
const CHUNK_IDS = 500;

/**
 * Lists a reader keeps (see `ListRevisions`), and for how long at most: a write that did not move
 * the revision (a process of an older version, a head deleted by hand to be built again) shows
 * within this time.
 */
const KEPT_LISTS = 1000;
const KEPT_MS = 5 * 60_000;

/**
 * A revision per owner's list (Redis' `Revisions`), replaced after every write to the list: a
 * reader keeps the head and the chunks it read while the revision holds, so a page costs a
 * revision read instead of two or three MongoDB reads.
 */
export interface ListRevisions {
  current(owner: number): Promise<string>;
  /** Never throws: a revision not moved leaves readers' copies stale for `KEPT_MS` at most. */
  bump(owner: number): Promise<unknown>;
}

export interface OrderedIdChunksOptions {
  /** Runs a writer of one owner's list while no other runs. */
  serialize: OwnerSerializer;
  /** The owner's ids read from the documents themselves (a scan): a list's first build. */
  listNow: (owner: number) => Promise<number[]>;
  /** @defaultValue 500 */
  chunkIds?: number;
  /** Without: every page reads the head and its chunks from MongoDB. */
  revisions?: ListRevisions;
}

/** An owner's list as a reader read it, under the revision it read first. */
interface KeptList {
  revision: string;
  head: ChunkEntry[] | null;
  chunks: Map<number, number[]>;
}

interface ChunkEntry {
  /** The chunk's number: its document is `<namespace>/<owner>/<k>`. */
  k: number;
  /** The lowest id the chunk takes: it holds the ids from `first` to the next chunk's `first`. */
  first: number;
  /** The highest id it holds, and how many, as last written (to know when to open a new one). */
  max: number;
  size: number;
}

interface HeadDocument {
  _id: string;
  chunks: ChunkEntry[];
}

interface ChunkDocument {
  _id: string;
  ids: number[];
}

/** Runs `work` while no other writer of the owner's list runs (a lock held across processes). */
export type OwnerSerializer = <T>(owner: number, work: () => Promise<T>) => Promise<T>;

/**
 * An owner's ids in ascending order, for pages by primary key at any size: a head document
 * `<namespace>/<owner>` lists the chunks and the id each starts at, each chunk `<namespace>/<owner>/<k>`
 * holds up to ~500 ids. A page after an id reads the head and the chunk or two holding the next
 * ids: a few primary-key reads at 100 ids or 100,000 (a sort on any field reads the whole
 * collection on FerretDB 1.24, every organization's documents included).
 *
 * Updates on FerretDB are a read and a write without a transaction, so writers of one owner's list
 * go through `serialize` (a Redis lock). An id joins before its document is stored and leaves after
 * it is deleted, so a crash leaves at most an id whose document is gone: readers skip those. An
 * owner without a list (its documents stored before lists were kept) has it built from its
 * documents at its first read or write, under its lock; a process of an older version adding
 * documents after that would leave them out (delete the owner's head to have it built again;
 * readers keeping the list see that within `KEPT_MS`).
 */
export class OrderedIdChunks {
  private readonly heads: Collection<HeadDocument>;
  private readonly chunks: Collection<ChunkDocument>;
  private readonly serialize: OwnerSerializer;
  private readonly listNow: (owner: number) => Promise<number[]>;
  private readonly chunkIds: number;
  private readonly revisions: ListRevisions | undefined;
  private readonly kept = new LRUCache<number, KeptList>({ max: KEPT_LISTS, ttl: KEPT_MS });

  constructor(
    db: Db,
    /** `<collection>.<owner field>`, e.g. `websites.organizationId`. */
    private readonly namespace: string,
    options: OrderedIdChunksOptions,
  ) {
    const revisions = options.revisions;
    this.revisions = revisions;
    // Every writer runs serialized: the list's revision moves after each (also one that failed midway).
    this.serialize = revisions
      ? (owner, work) =>
          options.serialize(owner, async () => {
            try {
              return await work();
            } finally {
              await revisions.bump(owner);
            }
          })
      : options.serialize;
    this.listNow = options.listNow;
    this.chunkIds = options.chunkIds ?? CHUNK_IDS;
    this.heads = db.collection<HeadDocument>(ID_LISTS);
    this.chunks = db.collection<ChunkDocument>(ID_LISTS);
  }

  private headKey(owner: number): string {
    return `${this.namespace}/${owner}`;
  }

  private chunkKey(owner: number, k: number): string {
    return `${this.namespace}/${owner}/${k}`;
  }

  async add(owner: number, id: number): Promise<void> {
    await this.addMany(owner, [id]);
  }

  /** Adds ids with one write per chunk they join and one of the head (a batch of new documents). */
  async addMany(owner: number, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.serialize(owner, async () => {
      const chunks = await this.chunksOf(owner, true);
      const joining = new Map<number, number[]>();
      const opened = new Set<number>();
      for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
        const at = chunkIndexFor(chunks, id);
        const target = chunks[at];
        if (!target || (at === chunks.length - 1 && target.size >= this.chunkIds && id > target.max)) {
          // A new last chunk: its ids are all above every earlier one's.
          chunks.push({ k: chunks.length, first: target ? id : 0, max: id, size: 1 });
          opened.add(chunks.length - 1);
          joining.set(chunks.length - 1, [id]);
          continue;
        }
        chunks[at] = { ...target, max: Math.max(target.max, id), size: target.size + 1 };
        joining.set(at, [...(joining.get(at) ?? []), id]);
      }
      for (const [at, joined] of joining) {
        const _id = this.chunkKey(owner, at);
        if (opened.has(at)) {
          await this.chunks.updateOne({ _id }, { $set: { ids: joined } }, { upsert: true });
          continue;
        }
        const updated = await this.chunks.findOneAndUpdate(
          { _id },
          { $addToSet: { ids: { $each: joined } } },
          { upsert: true, returnDocument: 'after' },
        );
        const chunk = chunks[at] as ChunkEntry;
        chunks[at] = { ...chunk, size: updated?.ids.length ?? chunk.size };
      }
      await this.writeHead(owner, chunks);
    });
  }

  async remove(owner: number, id: number): Promise<void> {
    await this.serialize(owner, async () => {
      const chunks = await this.chunksOf(owner, true);
      const at = chunkIndexFor(chunks, id);
      const target = chunks[at];
      if (!target) return;
      const updated = await this.chunks.findOneAndUpdate(
        { _id: this.chunkKey(owner, target.k) },
        { $pull: { ids: id } },
        { returnDocument: 'after' },
      );
      chunks[at] = { ...target, size: updated?.ids.length ?? 0 };
      await this.writeHead(owner, chunks);
    });
  }

  private async writeHead(owner: number, chunks: ChunkEntry[]): Promise<void> {
    await this.heads.replaceOne({ _id: this.headKey(owner) }, { chunks }, { upsert: true });
  }

  /**
   * Up to `limit` of the owner's ids above `afterId` (all: 0), ascending, maybe some of documents
   * since gone; reads the head and the chunks from the one holding `afterId + 1` until it has them.
   */
  async page(owner: number, afterId: number, limit: number): Promise<number[]> {
    const kept = await this.keptList(owner);
    const chunks = kept?.head ?? (await this.chunksOf(owner, false));
    if (kept) kept.head = chunks;
    const found: number[] = [];
    for (let at = Math.max(0, chunkIndexFor(chunks, afterId + 1)); at < chunks.length; at++) {
      const { k } = chunks[at] as ChunkEntry;
      let ids = kept?.chunks.get(k);
      if (!ids) {
        const chunk = await this.chunks.findOne({ _id: this.chunkKey(owner, k) });
        ids = [...(chunk?.ids ?? [])].sort((a, b) => a - b);
        kept?.chunks.set(k, ids);
      }
      for (const id of ids) if (id > afterId) found.push(id);
      if (found.length >= limit) break;
    }
    return found.slice(0, limit);
  }

  /** What this reader kept of the owner's list, emptied when its revision moved (null: nothing kept). */
  private async keptList(owner: number): Promise<KeptList | null> {
    if (!this.revisions) return null;
    const revision = await this.revisions.current(owner);
    const kept = this.kept.get(owner);
    if (kept?.revision === revision) return kept;
    const fresh: KeptList = { revision, head: null, chunks: new Map() };
    this.kept.set(owner, fresh);
    return fresh;
  }

  /** The owner is gone, and its list. */
  async drop(owner: number): Promise<void> {
    await this.serialize(owner, async () => {
      const chunks = (await this.heads.findOne({ _id: this.headKey(owner) }))?.chunks ?? [];
      await this.heads.deleteOne({ _id: this.headKey(owner) });
      for (const { k } of chunks) await this.chunks.deleteOne({ _id: this.chunkKey(owner, k) });
    });
  }

  /**
   * The owner's chunks; a list never written (its documents stored before these lists were kept)
   * is built first, under the owner's lock, from `listNow` (one scan per owner, once).
   */
  private async chunksOf(owner: number, locked: boolean): Promise<ChunkEntry[]> {
    const head = await this.heads.findOne({ _id: this.headKey(owner) });
    if (head) return head.chunks;
    const build = async () => {
      const again = await this.heads.findOne({ _id: this.headKey(owner) });
      return again ? again.chunks : this.build(owner);
    };
    return locked ? build() : this.serialize(owner, build);
  }

  private async build(owner: number): Promise<ChunkEntry[]> {
    const all = [...new Set(await this.listNow(owner))].sort((a, b) => a - b);
    const chunks: ChunkEntry[] = [];
    for (let start = 0; start < all.length || chunks.length === 0; start += this.chunkIds) {
      const part = all.slice(start, start + this.chunkIds);
      const entry = {
        k: chunks.length,
        first: start === 0 ? 0 : (part[0] as number),
        max: part.at(-1) ?? 0,
        size: part.length,
      };
      await this.chunks.replaceOne({ _id: this.chunkKey(owner, entry.k) }, { ids: part }, { upsert: true });
      chunks.push(entry);
    }
    await this.writeHead(owner, chunks);
    return chunks;
  }
}

/**
 * Which chunk takes `id`: the last whose `first` is at most `id` (the first chunk when it is below
 * every chunk's start); -1 when there is none. `chunks` are in ascending order of `first`.
 */
export function chunkIndexFor(chunks: readonly Pick<ChunkEntry, 'first'>[], id: number): number {
  let low = 0;
  let high = chunks.length - 1;
  let found = chunks.length > 0 ? 0 : -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((chunks[middle] as ChunkEntry).first <= id) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}
