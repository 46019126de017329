import { randomUUID } from 'node:crypto';
import type { FieldError } from '../errors/index.js';
import { conflict, invalidInput, notFound } from '../errors/index.js';
import type { RedisMutex } from '../locks/index.js';
import type { StatusPageDocument, StatusPageRevisions } from '../status-pages/index.js';
import { statusMove } from './post-status.js';
import {
  MAX_POSTS_PER_PAGE,
  type StatusPostDocument,
  type StatusPostRepository,
  type StatusPostUpdate,
} from './status-post.repository.js';
import {
  type AddUpdateInput,
  type CreatePostInput,
  MAX_UPDATES_PER_POST,
  type PatchPostInput,
} from './status-post.schema.js';

/** What changed on a page's posts: what subscriptions and feeds are told (after it is stored). */
export interface PostChange {
  kind: 'created' | 'updated' | 'resolved' | 'reopened' | 'edited' | 'deleted';
  organizationId: number;
  page: Pick<StatusPageDocument, 'id' | 'slug' | 'customerId'>;
  post: StatusPostDocument;
  /** The update posted (created, updated, resolved, reopened) or edited; null for a post's edit or delete. */
  update: StatusPostUpdate | null;
  at: Date;
}
export type PostChangeListener = (change: PostChange) => Promise<void>;

/** The automatic incident a post may be published from. */
export interface PostIncident {
  websiteId: number;
  startedAt: Date;
  resolvedAt: Date | null;
  publicNote?: { text: string } | null;
}

export interface StatusPostDeps {
  posts: StatusPostRepository;
  pages: { findById(organizationId: number, id: number): Promise<StatusPageDocument | null> };
  websites: {
    listByCustomer(organizationId: number, customerId: number): Promise<Array<{ id: number; name: string }>>;
  };
  incidents: { incident(organizationId: number, id: string): Promise<PostIncident | null> };
  mutex: RedisMutex;
  revisions: Pick<StatusPageRevisions, 'changed'>;
}

type Components = Array<{ id: number; impact: StatusPostDocument['components'][number]['impact'] }>;
const stored = (components: Components) => components.map(({ id, impact }) => ({ websiteId: id, impact }));
const postsLock = (pageId: number) => `status-posts:${pageId}`;

/**
 * Incident posts: what the agency tells a page's visitors about an outage, update by update. Every
 * change is written under the page's posts lock, then the page's revision moves (every API process
 * rebuilds it) and the listeners are told.
 */
export class StatusPostService {
  private readonly listeners: PostChangeListener[] = [];

  constructor(private readonly deps: StatusPostDeps) {}

  /** Told of every change once it is stored and the page's revision moved (a listener's failure is its own). */
  onChange(listener: PostChangeListener): void {
    this.listeners.push(listener);
  }

  async page(organizationId: number, pageId: number): Promise<StatusPageDocument> {
    const page = await this.deps.pages.findById(organizationId, pageId);
    if (!page) throw notFound(`No status page ${pageId}`);
    return page;
  }

  /** The page's websites, by id (a page without a list shows all its customer's). */
  async websitesOf(page: StatusPageDocument): Promise<Map<number, string>> {
    const all = await this.deps.websites.listByCustomer(page.organizationId, page.customerId);
    const listed = page.websiteIds ? new Set(page.websiteIds) : null;
    return new Map(all.filter((w) => !listed || listed.has(w.id)).map((w) => [w.id, w.name]));
  }

  private async checkComponents(page: StatusPageDocument, components: Components | undefined) {
    if (!components) return;
    const onPage = await this.websitesOf(page);
    const errors: FieldError[] = components.flatMap((component, index) =>
      onPage.has(component.id)
        ? []
        : [{ path: `components.${index}.id`, message: `website ${component.id} is not on this page` }],
    );
    if (errors.length > 0) throw invalidInput('Components not on this page', errors);
  }

  async get(organizationId: number, pageId: number, postId: number): Promise<StatusPostDocument> {
    const post = await this.deps.posts.find(organizationId, pageId, postId);
    if (!post) throw notFound(`No incident post ${postId} on status page ${pageId}`);
    return post;
  }

  list(organizationId: number, pageId: number, options: { limit: number; before?: number }) {
    return this.deps.posts.newest(organizationId, pageId, options);
  }

  private async changed(
    kind: PostChange['kind'],
    page: StatusPageDocument,
    post: StatusPostDocument,
    update: StatusPostUpdate | null,
  ) {
    const { organizationId } = page;
    await this.deps.revisions.changed({ slugs: [page.slug], organizationId, customerId: page.customerId });
    const change: PostChange = { kind, organizationId, page, post, update, at: new Date() };
    await Promise.allSettled(this.listeners.map((listener) => listener(change)));
  }

  private locked<T>(pageId: number, work: () => Promise<T>): Promise<T> {
    return this.deps.mutex.withLock(postsLock(pageId), work);
  }

  async create(organizationId: number, pageId: number, input: CreatePostInput): Promise<StatusPostDocument> {
    const page = await this.page(organizationId, pageId);
    await this.checkComponents(page, input.components);
    if (input.fromIncidentId !== undefined)
      await this.incidentOn(page, input.fromIncidentId, 'fromIncidentId');
    const now = new Date();
    const update: StatusPostUpdate = {
      id: randomUUID(),
      status: input.status,
      message: input.message,
      components: null,
      createdAt: now,
      editedAt: null,
    };
    const post = await this.locked(pageId, async () => {
      if ((await this.deps.posts.countOfPage(pageId)) >= MAX_POSTS_PER_PAGE)
        throw conflict(`A page keeps ${MAX_POSTS_PER_PAGE} incident posts: delete old ones first`);
      return this.deps.posts.create({
        organizationId,
        pageId,
        title: input.title,
        status: input.status,
        components: stored(input.components),
        incidentId: input.fromIncidentId ?? null,
        resolvedAt: input.status === 'resolved' ? now : null,
        updates: [update],
      });
    });
    await this.changed('created', page, post, update);
    return post;
  }

  async addUpdate(
    organizationId: number,
    pageId: number,
    postId: number,
    input: AddUpdateInput,
  ): Promise<StatusPostDocument> {
    const page = await this.page(organizationId, pageId);
    await this.checkComponents(page, input.components);
    const { post, update, kind } = await this.locked(pageId, async () => {
      const current = await this.get(organizationId, pageId, postId);
      const now = new Date();
      const move = statusMove(current, input.status, now);
      if (move.kind === 'refused') throw conflict(move.reason, [{ path: 'status', message: move.reason }]);
      if (current.updates.length >= MAX_UPDATES_PER_POST)
        throw conflict(`A post takes ${MAX_UPDATES_PER_POST} updates: begin a new one`);
      const update: StatusPostUpdate = {
        id: randomUUID(),
        status: input.status,
        message: input.message,
        components: input.components ? stored(input.components) : null,
        createdAt: now,
        editedAt: null,
      };
      const resolvedAt = move.kind === 'resolve' ? now : move.kind === 'reopen' ? null : current.resolvedAt;
      const post = await this.deps.posts.replace({
        ...current,
        status: input.status,
        components: update.components ?? current.components,
        resolvedAt,
        updates: [...current.updates, update],
      });
      const kind: PostChange['kind'] =
        move.kind === 'resolve' ? 'resolved' : move.kind === 'reopen' ? 'reopened' : 'updated';
      return { post, update, kind };
    });
    await this.changed(kind, page, post, update);
    return post;
  }

  async edit(organizationId: number, pageId: number, postId: number, patch: PatchPostInput) {
    const page = await this.page(organizationId, pageId);
    await this.checkComponents(page, patch.components);
    const post = await this.locked(pageId, async () => {
      const current = await this.get(organizationId, pageId, postId);
      return this.deps.posts.replace({
        ...current,
        title: patch.title ?? current.title,
        components: patch.components ? stored(patch.components) : current.components,
      });
    });
    await this.changed('edited', page, post, null);
    return post;
  }

  async editUpdate(
    organizationId: number,
    pageId: number,
    postId: number,
    updateId: string,
    message: string,
  ) {
    const page = await this.page(organizationId, pageId);
    const { post, update } = await this.locked(pageId, async () => {
      const current = await this.get(organizationId, pageId, postId);
      const found = current.updates.find((u) => u.id === updateId);
      if (!found) throw notFound(`No update ${updateId} of incident post ${postId}`);
      const update = { ...found, message, editedAt: new Date() };
      const post = await this.deps.posts.replace({
        ...current,
        updates: current.updates.map((u) => (u.id === updateId ? update : u)),
      });
      return { post, update };
    });
    await this.changed('edited', page, post, update);
    return post;
  }

  async delete(organizationId: number, pageId: number, postId: number): Promise<void> {
    const page = await this.page(organizationId, pageId);
    const post = await this.locked(pageId, async () => {
      const current = await this.get(organizationId, pageId, postId);
      if (!(await this.deps.posts.delete(organizationId, current)))
        throw notFound(`No incident post ${postId}`);
      return current;
    });
    await this.changed('deleted', page, post, null);
  }

  /** The incident, if it is the organization's and of a website on the page (else a 400 naming `field`). */
  private async incidentOn(page: StatusPageDocument, incidentId: string, field: string) {
    const incident = await this.deps.incidents.incident(page.organizationId, incidentId);
    const onPage = incident ? (await this.websitesOf(page)).get(incident.websiteId) : undefined;
    if (!incident || onPage === undefined)
      throw invalidInput('Not an incident of a website on this page', [
        { path: field, message: `no incident ${incidentId} of a website on this page` },
      ]);
    return { incident, websiteName: onPage };
  }

  /** A post's fields prefilled from an automatic incident, for the agency to edit before it posts. */
  async draftFrom(organizationId: number, pageId: number, incidentId: string) {
    const page = await this.page(organizationId, pageId);
    const { incident, websiteName } = await this.incidentOn(page, incidentId, 'incident');
    const since = `${incident.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    const note = incident.publicNote?.text ? `\n\n${incident.publicNote.text}` : '';
    const resolved = incident.resolvedAt !== null;
    const until = incident.resolvedAt?.toISOString().slice(0, 16).replace('T', ' ');
    return {
      title: resolved ? `${websiteName} was unavailable` : `${websiteName} is unavailable`,
      components: [{ id: incident.websiteId, impact: 'major_outage' as const }],
      status: resolved ? ('resolved' as const) : ('investigating' as const),
      message: resolved
        ? `${websiteName} was unavailable from ${since} to ${until} UTC. It works again.${note}`
        : `We are investigating: ${websiteName} has been unavailable since ${since}.${note}`,
      fromIncidentId: incidentId,
    };
  }
}
