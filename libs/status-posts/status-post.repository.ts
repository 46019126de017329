import type { Db } from 'mongodb';
import { type CollectionIndexes, IdLists, readFanOut, TenantResources } from '../db/index.js';
import type { Impact, PostStatus } from '../status-pages/index.js';

export interface StatusPostUpdate {
  /** Stable for life (a UUID): what a subscriber is told once. */
  id: string;
  status: PostStatus;
  /** Markdown, as written; rendered safe when shown. */
  message: string;
  /** The components this update set (null: left as they were). */
  components: Array<{ websiteId: number; impact: Impact }> | null;
  createdAt: Date;
  editedAt: Date | null;
}

export interface StatusPostDocument {
  id: number;
  organizationId: number;
  pageId: number;
  title: string;
  /** The last update's status. */
  status: PostStatus;
  components: Array<{ websiteId: number; impact: Impact }>;
  /** The automatic incident it was published from. */
  incidentId: string | null;
  resolvedAt: Date | null;
  /** Oldest first. */
  updates: StatusPostUpdate[];
  createdAt: Date;
  updatedAt: Date;
}

export const STATUS_POSTS = 'status_posts';
/** Posts a page keeps: its history is read newest first, by primary key. */
export const MAX_POSTS_PER_PAGE = 1000;

/** Reads of posts going at once. */
const READS_AT_ONCE = 16;

export const statusPostIndexes: CollectionIndexes = {
  collection: STATUS_POSTS,
  indexes: [{ key: { id: 1 }, unique: true, name: 'id_unique' }],
};

/**
 * Incident posts of status pages. A page's post ids (`id_lists`, `status_posts.pageId/<pageId>`)
 * and its open ones (`status_posts.openOfPage/<pageId>`) are read by primary key, then each post by
 * its id's entry: a filter on `pageId` reads every post of every organization on FerretDB 1.24.
 * Writers hold the page's posts lock (one writer per list); ids only grow, so a page's posts newest
 * first are its ids in falling order.
 */
export class StatusPostRepository {
  private readonly posts: TenantResources<StatusPostDocument>;
  private readonly all: IdLists;
  private readonly open: IdLists;

  constructor(db: Db) {
    this.posts = new TenantResources(db, STATUS_POSTS);
    this.all = new IdLists(db, `${STATUS_POSTS}.pageId`);
    this.open = new IdLists(db, `${STATUS_POSTS}.openOfPage`);
  }

  /** Listed before it is stored (the caller holds the page's posts lock). */
  async create(
    input: Omit<StatusPostDocument, 'id' | 'createdAt' | 'updatedAt'>,
  ): Promise<StatusPostDocument> {
    const id = await this.posts.allocateId();
    await this.all.add(input.pageId, id);
    if (input.resolvedAt === null) await this.open.add(input.pageId, id);
    return this.posts.create(input, undefined, id);
  }

  async countOfPage(pageId: number): Promise<number> {
    return (await this.all.get(pageId)).length;
  }

  /** The page's post, or null (another page's, another organization's, none). */
  async find(organizationId: number, pageId: number, id: number): Promise<StatusPostDocument | null> {
    const post = await this.posts.findById(organizationId, id);
    return post?.pageId === pageId ? post : null;
  }

  async replace(post: StatusPostDocument): Promise<StatusPostDocument> {
    const replaced = await this.posts.replace(post);
    if (post.resolvedAt === null) await this.open.add(post.pageId, post.id);
    else await this.open.remove(post.pageId, post.id);
    return replaced;
  }

  async delete(organizationId: number, post: StatusPostDocument): Promise<boolean> {
    if (!(await this.posts.delete(organizationId, post.id))) return false;
    await this.open.remove(post.pageId, post.id);
    await this.all.remove(post.pageId, post.id);
    return true;
  }

  private async byIds(organizationId: number, pageId: number, ids: readonly number[]) {
    const reads = readFanOut(READS_AT_ONCE);
    const found = await Promise.all(
      ids.map((id) => reads.run(() => this.posts.findEntered(organizationId, id))),
    );
    // An id left by a crash, or of a post since deleted, is skipped.
    return found.filter((post): post is StatusPostDocument => post?.pageId === pageId);
  }

  /** A page of posts, newest first, older than `before` (a post id). */
  async newest(
    organizationId: number,
    pageId: number,
    options: { limit: number; before?: number },
  ): Promise<{ posts: StatusPostDocument[]; more: boolean }> {
    const ids = (await this.all.get(pageId))
      .filter((id) => options.before === undefined || id < options.before)
      .sort((a, b) => b - a);
    const posts = await this.byIds(organizationId, pageId, ids.slice(0, options.limit));
    return { posts: posts.sort((a, b) => b.id - a.id), more: ids.length > options.limit };
  }

  /** The page's open posts. */
  async openOf(organizationId: number, pageId: number): Promise<StatusPostDocument[]> {
    const posts = await this.byIds(organizationId, pageId, await this.open.get(pageId));
    return posts.filter((post) => post.resolvedAt === null).sort((a, b) => b.id - a.id);
  }

  /**
   * The page's posts begun in `[from, to)`, newest first: read newest first a few at a time until
   * one begun before `from` (ids grow with time).
   */
  async begunBetween(
    organizationId: number,
    pageId: number,
    from: Date,
    to: Date,
  ): Promise<StatusPostDocument[]> {
    const ids = (await this.all.get(pageId)).sort((a, b) => b - a);
    const found: StatusPostDocument[] = [];
    for (let index = 0; index < ids.length; index += READS_AT_ONCE) {
      const posts = (await this.byIds(organizationId, pageId, ids.slice(index, index + READS_AT_ONCE))).sort(
        (a, b) => b.id - a.id,
      );
      found.push(...posts.filter((post) => post.createdAt >= from && post.createdAt < to));
      if (posts.some((post) => post.createdAt < from)) break;
    }
    return found;
  }

  /** Posts resolved since `since`, newest first (the page's recent history). */
  async resolvedSince(organizationId: number, pageId: number, since: Date, limit: number) {
    const ids = (await this.all.get(pageId)).sort((a, b) => b - a);
    const found: StatusPostDocument[] = [];
    for (let index = 0; index < ids.length && found.length < limit; index += READS_AT_ONCE) {
      const posts = (await this.byIds(organizationId, pageId, ids.slice(index, index + READS_AT_ONCE))).sort(
        (a, b) => b.id - a.id,
      );
      found.push(...posts.filter((post) => post.resolvedAt !== null && post.resolvedAt >= since));
      // A post begun before `since` may still have been resolved after it; one begun 90 days before is not looked past.
      if (posts.some((post) => post.createdAt.getTime() < since.getTime() - 90 * 86_400_000)) break;
    }
    return found.slice(0, limit);
  }

  /** A page deleted: its posts and lists go. */
  async deleteOfPage(organizationId: number, pageId: number): Promise<void> {
    for (const post of await this.byIds(organizationId, pageId, await this.all.get(pageId)))
      await this.posts.delete(organizationId, post.id);
    await this.open.drop(pageId);
    await this.all.drop(pageId);
  }
}
