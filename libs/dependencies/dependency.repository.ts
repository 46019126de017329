import type { Collection, Db } from 'mongodb';
import { type CollectionIndexes, IdLists, isDuplicateKey, KEY_LOOKUPS } from '../db/index.js';
import type { EventPayload } from '../events/index.js';
import { type Redis, RevisedMemory, Revisions } from '../redis/index.js';
import { type ParentRef, parentKey } from './dependency.schema.js';

/** A website's parents (`_id`: `w<websiteId>`). */
interface DependencyDocument {
  _id: string;
  organizationId: number;
  websiteId: number;
  parents: ParentRef[];
  updatedAt: Date;
}

/** An alert held while a parent is down (`_id`: the incident): sent if the child is still down when they recover. */
export interface HeldAlert {
  _id: string;
  organizationId: number;
  websiteId: number;
  /** The child's down event, as it would have been delivered. */
  payload: EventPayload;
  /** The parents that were down (`w<id>`, `m<id>`). */
  heldBy: string[];
  heldAt: Date;
}

export const WEBSITE_DEPENDENCIES = 'website_dependencies';
export const HELD_ALERTS = 'held_alerts';

export const dependencyIndexes: CollectionIndexes[] = [
  {
    collection: HELD_ALERTS,
    indexes: [{ key: { heldBy: 1 }, name: 'held_by' }],
    backfill: listHeldAlertsByParent,
  },
];

const HELD_LISTS_MARKER = '~backfilled/held_alerts.byParent';

/** Alerts held before parents listed what they hold: listed once, so their parents' recoveries find them. */
async function listHeldAlertsByParent(db: Db): Promise<void> {
  const markers = db.collection<{ _id: string }>(KEY_LOOKUPS);
  if (await markers.findOne({ _id: HELD_LISTS_MARKER })) return;
  const repository = new DependencyRepository(db);
  for (const held of await db.collection<HeldAlert>(HELD_ALERTS).find({}).toArray())
    await repository.listHeld(held);
  await markers.insertOne({ _id: HELD_LISTS_MARKER }).catch((error: unknown) => {
    if (!isDuplicateKey(error)) throw error;
  });
}

const docId = (websiteId: number) => `w${websiteId}`;

/**
 * Which of an organization's websites and monitors dependencies concern: children (websites with
 * parents, or with an alert held) and parents. Every other event passes the gate without a read.
 */
export interface Involvement {
  /** The organization's id. */
  id: number;
  children: ReadonlySet<number>;
  parentWebsites: ReadonlySet<number>;
  parentMonitors: ReadonlySet<number>;
}

/** Each organization's dependency revision, moved by every write that makes a website a child or a parent. */
export function dependencyRevisions(redis: Redis, prefix: string): Revisions {
  return new Revisions(redis, `${prefix}:dependency-rev`);
}

/** Organizations whose involvement a process keeps (a few KiB each at most). */
const INVOLVEMENTS_KEPT = 10_000;
/** A copy whose revision holds is read again after this long (a write whose revision bump was lost). */
const INVOLVEMENT_MAX_AGE_MS = 5 * 60_000;

/** The parent a `parentKey` names (`w<websiteId>`, `m<monitorId>`). */
const parentOfKey = (key: string): ParentRef =>
  key.startsWith('m') ? { monitorId: Number(key.slice(1)) } : { websiteId: Number(key.slice(1)) };

/**
 * Dependencies between websites: each website's parents by primary key, and each parent's children
 * as id lists (a parent's alert names them, its recovery releases their held alerts). Written under
 * the organization's dependencies lock (one writer per list).
 */
export class DependencyRepository {
  private readonly docs: Collection<DependencyDocument>;
  private readonly held: Collection<HeldAlert>;
  private readonly childrenOfWebsite: IdLists;
  private readonly childrenOfMonitor: IdLists;
  /**
   * Each parent's children whose alert it ever held (never shrinks; at most its children): a
   * parent's recovery whose list is empty, nearly every recovery, holds nothing, known from one
   * primary-key read instead of a query on `heldBy` (a scan on FerretDB).
   */
  private readonly heldByWebsite: IdLists;
  private readonly heldByMonitor: IdLists;
  private readonly involvements: RevisedMemory<Involvement> | null;

  constructor(
    db: Db,
    /**
     * Each organization's dependency revision (`dependencyRevisions`), moved by every write that
     * makes a website a child or a parent; without it (the held lists' backfill, which only lists)
     * involvement is read from MongoDB each time.
     */
    revisions?: Revisions,
  ) {
    this.docs = db.collection<DependencyDocument>(WEBSITE_DEPENDENCIES);
    this.held = db.collection<HeldAlert>(HELD_ALERTS);
    this.childrenOfWebsite = new IdLists(db, `${WEBSITE_DEPENDENCIES}.parentWebsite`);
    this.childrenOfMonitor = new IdLists(db, `${WEBSITE_DEPENDENCIES}.parentMonitor`);
    this.heldByWebsite = new IdLists(db, `${HELD_ALERTS}.parentWebsite`);
    this.heldByMonitor = new IdLists(db, `${HELD_ALERTS}.parentMonitor`);
    this.involvements = revisions
      ? new RevisedMemory(revisions, INVOLVEMENTS_KEPT, INVOLVEMENT_MAX_AGE_MS)
      : null;
  }

  /**
   * Which websites and monitors of the organization dependencies concern, kept while its revision
   * holds (its documents and held alerts are read once per change: two small queries).
   */
  async involvement(organizationId: number): Promise<Involvement> {
    if (!this.involvements) return this.readInvolvement(organizationId);
    const found = await this.involvements.readMany(
      [organizationId],
      () => true,
      async () => [await this.readInvolvement(organizationId)],
    );
    return found.get(organizationId) ?? this.readInvolvement(organizationId);
  }

  private async readInvolvement(organizationId: number): Promise<Involvement> {
    const children = new Set<number>();
    const parentWebsites = new Set<number>();
    const parentMonitors = new Set<number>();
    for (const doc of await this.docs.find({ organizationId }).toArray()) {
      if (doc.parents.length > 0) children.add(doc.websiteId);
      for (const parent of doc.parents)
        if ('websiteId' in parent) parentWebsites.add(parent.websiteId);
        else parentMonitors.add(parent.monitorId);
    }
    const held = this.held.find({ organizationId }, { projection: { websiteId: 1 } });
    for (const { websiteId } of await held.toArray()) children.add(websiteId);
    return { id: organizationId, children, parentWebsites, parentMonitors };
  }

  /** After a write that may make a website a child or a parent: copies read before it are stale. */
  private async moved(organizationId: number): Promise<void> {
    if (this.involvements) await this.involvements.revisions.bump(organizationId);
  }

  private heldLists(parent: ParentRef): [IdLists, number] {
    return 'websiteId' in parent
      ? [this.heldByWebsite, parent.websiteId]
      : [this.heldByMonitor, parent.monitorId];
  }

  async parentsOf(organizationId: number, websiteId: number): Promise<ParentRef[]> {
    const found = await this.docs.findOne({ _id: docId(websiteId) });
    return found?.organizationId === organizationId ? found.parents : [];
  }

  /** Children of a parent (maybe some since gone or changed: callers check each). */
  childrenOf(parent: ParentRef): Promise<number[]> {
    return 'websiteId' in parent
      ? this.childrenOfWebsite.get(parent.websiteId)
      : this.childrenOfMonitor.get(parent.monitorId);
  }

  private lists(parent: ParentRef): [IdLists, number] {
    return 'websiteId' in parent
      ? [this.childrenOfWebsite, parent.websiteId]
      : [this.childrenOfMonitor, parent.monitorId];
  }

  /** Sets a website's parents: new parents list it first, the document next, parents left drop it last. */
  async replace(organizationId: number, websiteId: number, parents: readonly ParentRef[]): Promise<void> {
    const before = await this.parentsOf(organizationId, websiteId);
    const keep = new Set(parents.map(parentKey));
    for (const parent of parents) {
      const [list, owner] = this.lists(parent);
      await list.add(owner, websiteId);
    }
    await this.docs.updateOne(
      { _id: docId(websiteId) },
      { $set: { organizationId, websiteId, parents: [...parents], updatedAt: new Date() } },
      { upsert: true },
    );
    for (const parent of before.filter((p) => !keep.has(parentKey(p)))) {
      const [list, owner] = this.lists(parent);
      await list.remove(owner, websiteId);
    }
    await this.moved(organizationId);
  }

  /** Holds a child's alert: whether this call did (the incident's alert is held once). */
  async hold(alert: HeldAlert): Promise<boolean> {
    // Listed first: a held alert is always found by its parents' recoveries.
    await this.listHeld(alert);
    try {
      await this.held.insertOne(alert);
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
    await this.moved(alert.organizationId);
    return true;
  }

  /** Lists the held alert's child with each parent holding it. */
  async listHeld(alert: Pick<HeldAlert, 'heldBy' | 'websiteId'>): Promise<void> {
    for (const key of alert.heldBy) {
      const [list, owner] = this.heldLists(parentOfKey(key));
      await list.add(owner, alert.websiteId);
    }
  }

  heldOf(incidentId: string): Promise<HeldAlert | null> {
    return this.held.findOne({ _id: incidentId });
  }

  /** Held alerts a parent holds. */
  async heldBy(parent: ParentRef): Promise<HeldAlert[]> {
    const [list, owner] = this.heldLists(parent);
    if ((await list.get(owner)).length === 0) return [];
    return this.held
      .find({ heldBy: parentKey(parent) })
      .limit(10_000)
      .toArray();
  }

  /** Takes the held alert away: whether this call did (one releaser sends it). */
  async release(incidentId: string): Promise<boolean> {
    return (await this.held.deleteOne({ _id: incidentId })).deletedCount > 0;
  }
}
