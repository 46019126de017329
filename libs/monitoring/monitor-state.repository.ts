import type { Collection, Db, Filter } from 'mongodb';
import { BatchInserter, type CollectionIndexes, isDuplicateKey } from '../db/index.js';
import type { Redis } from '../redis/index.js';
import { durableFingerprint, MonitorStateCache } from './monitor-state.cache.js';
import { initialMonitorState, type MonitorStateDocument, monitorStateSchema } from './monitor-state.js';

/** Stored under the website id as a string `_id`: loaded and saved on every check. */
type StoredMonitorState = MonitorStateDocument & { _id: string };

export interface IncidentDocument {
  id: string;
  organizationId: number;
  websiteId: number;
  startedAt: Date;
  resolvedAt: Date | null;
  /** What the confirming result said (error or failed checks). */
  cause: string;
  regions: string[];
}

/** A state as MongoDB has it (fields it predates filled in by the schema), marked as written. */
function fromStored(stored: unknown): MonitorStateDocument {
  const state = monitorStateSchema.parse(stored);
  return { ...state, persisted: { fingerprint: durableFingerprint(state), at: new Date() } };
}

/** What a durable write of a state came to: `refused` when a holder with a later fence wrote it. */
export type DurableWrite = 'written' | 'refused';

export const MONITOR_STATES = 'monitor_states';
export const INCIDENTS = 'incidents';

export const monitoringIndexes: CollectionIndexes[] = [
  { collection: MONITOR_STATES, indexes: [{ key: { websiteId: 1 }, unique: true, name: 'website_unique' }] },
  {
    collection: INCIDENTS,
    indexes: [
      { key: { id: 1 }, unique: true, name: 'id_unique' },
      { key: { organizationId: 1, websiteId: 1, startedAt: -1 }, name: 'website_time' },
    ],
  },
];

export class MonitorStateRepository {
  private readonly states: Collection<StoredMonitorState>;
  readonly incidents: Collection<IncidentDocument>;
  /** Where hot copies live and the monitor locks' resources (`MonitorTransitions` takes them). */
  readonly cache: MonitorStateCache;
  private readonly firstWrites: BatchInserter<StoredMonitorState>;
  /** Bounds each read and write of the check path, below the monitor lock's TTL. */
  private readonly bounded: { timeoutMS?: number };

  constructor(db: Db, redis: Redis, redisPrefix: string, options: { timeoutMS?: number } = {}) {
    this.cache = new MonitorStateCache(redis, redisPrefix);
    this.bounded = options.timeoutMS === undefined ? {} : { timeoutMS: options.timeoutMS };
    this.states = db.collection<StoredMonitorState>(MONITOR_STATES);
    // Group commit: the API creates one website at a time and must not wait for a batch timer.
    this.firstWrites = new BatchInserter(this.states, { flushEveryMs: 0, ...this.bounded });
    this.incidents = db.collection<IncidentDocument>(INCIDENTS);
  }

  /**
   * Every website's state as `load` reads it (the hot copies, else MongoDB's), across
   * organizations: metrics. One scan of MongoDB and a read of Redis per thousand websites.
   */
  async allStates(): Promise<Map<number, MonitorStateDocument>> {
    const states = new Map<number, MonitorStateDocument>();
    for await (const stored of this.states.find({}, { projection: { _id: 0 } }))
      states.set(stored.websiteId, fromStored(stored));
    for (const [websiteId, hot] of await this.cache.getMany([...states.keys()])) states.set(websiteId, hot);
    return states;
  }

  /**
   * The states of these websites of the organization, as `load` reads them: the hot copies in
   * Redis (MongoDB's lag behind them: it gets no write for a check that changes nothing durable),
   * MongoDB for the others; none for a website never checked.
   */
  async statesOf(
    organizationId: number,
    websiteIds: readonly number[],
  ): Promise<Map<number, MonitorStateDocument>> {
    const hot = await this.cache.getMany(websiteIds);
    const states = new Map([...hot].filter(([, state]) => state.organizationId === organizationId));
    const cold = websiteIds.filter((id) => !hot.has(id));
    if (cold.length > 0) {
      const found = await this.states
        .find({ organizationId, websiteId: { $in: cold } }, { projection: { _id: 0 } })
        .toArray();
      for (const stored of found) states.set(stored.websiteId, fromStored(stored));
    }
    return states;
  }

  /** Open incidents across organizations (metrics). */
  countOpenIncidents(): Promise<number> {
    return this.incidents.countDocuments({ resolvedAt: null });
  }

  /** The state from Redis's hot copy, else from MongoDB (a flushed or new Redis), else a new one. */
  async load(organizationId: number, websiteId: number): Promise<MonitorStateDocument> {
    return this.fromHotCopy(organizationId, websiteId, await this.cache.get(websiteId));
  }

  /** The state a hot copy (null: none) stands for, read from MongoDB when there is none. */
  async fromHotCopy(
    organizationId: number,
    websiteId: number,
    cached: MonitorStateDocument | null,
  ): Promise<MonitorStateDocument> {
    if (cached)
      return cached.organizationId === organizationId
        ? cached
        : initialMonitorState(organizationId, websiteId);
    // By primary key alone (FerretDB runs only that without a scan); the organization is checked here.
    const stored = await this.states.findOne(
      { _id: String(websiteId) },
      { projection: { _id: 0 }, ...this.bounded },
    );
    return stored?.organizationId === organizationId
      ? fromStored(stored)
      : initialMonitorState(organizationId, websiteId);
  }

  /**
   * Gives every website without a hot copy in Redis its state from MongoDB (or a new one) in bulk:
   * one scan at a worker's start instead of a read per website in the first interval. Returns how
   * many it set.
   */
  async prime(websites: ReadonlyArray<{ organizationId: number; id: number }>): Promise<number> {
    const missing = new Set(await this.cache.missing(websites.map((w) => w.id)));
    if (missing.size === 0) return 0;
    const found = new Map<number, MonitorStateDocument>();
    for await (const stored of this.states.find({}, { projection: { _id: 0 } }))
      if (missing.has(stored.websiteId)) found.set(stored.websiteId, fromStored(stored));
    const states = websites
      .filter((w) => missing.has(w.id))
      .map((w) => {
        const state = found.get(w.id);
        return state?.organizationId === w.organizationId
          ? state
          : initialMonitorState(w.organizationId, w.id);
      });
    await this.cache.setIfAbsent(states);
    return states.length;
  }

  /** The states with maintenance going on or planned (the maintenance reconciler). */
  async withMaintenance(): Promise<MonitorStateDocument[]> {
    const found = await this.states
      .find(
        { $or: [{ maintenanceActive: true }, { maintenanceBoundaryAt: { $ne: null } }] },
        { projection: { _id: 0 } },
      )
      .toArray();
    return found.map(fromStored);
  }

  /**
   * Writes the state to MongoDB unless a holder of the monitor lock with a later fence wrote it
   * (a holder whose lock expired, writing late, is refused). A state never written before is
   * inserted, in batches: FerretDB 1.24 runs every update by scanning the collection (about 40 ms at
   * 10,000 states) but inserts a thousand documents in about 30 ms, and each new website's first
   * result is such a write. Inserting one that exists after all replaces it, fenced the same way.
   */
  async writeDurable(state: MonitorStateDocument): Promise<DurableWrite> {
    const _id = String(state.websiteId);
    if (state.persisted === null) {
      try {
        await this.firstWrites.insert({ ...state, _id });
        return 'written';
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
    const olderOnly = {
      _id,
      $or: [{ fence: { $lt: state.fence } }, { fence: { $exists: false } }],
    } as Filter<StoredMonitorState>;
    try {
      await this.states.replaceOne(olderOnly, state, { upsert: true, ...this.bounded });
      return 'written';
    } catch (error) {
      // No older document matched, and the upsert met the newer one's `_id`.
      if (isDuplicateKey(error)) return 'refused';
      throw error;
    }
  }

  /** Stores the incident once: a replay of the transition that opened it (same id) stores nothing. */
  async insertIncident(incident: IncidentDocument): Promise<void> {
    try {
      await this.incidents.insertOne({ ...incident }, this.bounded);
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  async resolveIncident(organizationId: number, id: string, at: Date): Promise<void> {
    await this.incidents.updateOne(
      { id, organizationId, resolvedAt: null },
      { $set: { resolvedAt: at } },
      this.bounded,
    );
  }

  /** Incidents open since before `before`, oldest first, a page at a time (the incident reconciler). */
  async *openIncidentsBefore(before: Date, pageSize = 1000): AsyncGenerator<IncidentDocument> {
    let from: Date | null = null;
    const seenAtFrom = new Set<string>();
    for (;;) {
      const startedAt: Record<string, Date> = { $lt: before };
      if (from) startedAt.$gte = from;
      const page = await this.incidents
        .find(
          { resolvedAt: null, startedAt },
          { projection: { _id: 0 }, sort: { startedAt: 1 }, limit: pageSize },
        )
        .toArray();
      const fresh = page.filter((incident) => !seenAtFrom.has(incident.id));
      for (const incident of fresh) yield incident;
      const last = page.at(-1);
      if (page.length < pageSize || !last || fresh.length === 0) return;
      // Those at the page's last instant are read again next time (ties): skip the ones seen.
      if (from?.getTime() !== last.startedAt.getTime()) seenAtFrom.clear();
      from = last.startedAt;
      for (const incident of page)
        if (incident.startedAt.getTime() === from.getTime()) seenAtFrom.add(incident.id);
    }
  }

  /** The organization's incidents, newest first; `open`: only those not resolved (or only resolved: false). */
  incidentsOfOrganization(
    organizationId: number,
    options: { open?: boolean; limit: number },
  ): Promise<IncidentDocument[]> {
    const state =
      options.open === undefined ? {} : options.open ? { resolvedAt: null } : { resolvedAt: { $ne: null } };
    return this.incidents
      .find(
        { organizationId, ...state },
        { projection: { _id: 0 }, sort: { startedAt: -1 }, limit: options.limit },
      )
      .toArray();
  }

  /** The incidents of these websites open now or resolved since `since`. */
  incidentsOfWebsites(
    organizationId: number,
    websiteIds: readonly number[],
    since: Date,
  ): Promise<IncidentDocument[]> {
    if (websiteIds.length === 0) return Promise.resolve([]);
    return this.incidents
      .find(
        {
          organizationId,
          websiteId: { $in: [...websiteIds] },
          $or: [{ resolvedAt: null }, { resolvedAt: { $gte: since } }],
        },
        { projection: { _id: 0 } },
      )
      .toArray();
  }

  incidentsOf(organizationId: number, websiteId: number, limit: number): Promise<IncidentDocument[]> {
    return this.incidents
      .find({ organizationId, websiteId }, { projection: { _id: 0 }, sort: { startedAt: -1 }, limit })
      .toArray();
  }
}
