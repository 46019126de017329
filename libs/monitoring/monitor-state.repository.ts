import type { Collection, Db, Filter } from 'mongodb';
import {
  BatchInserter,
  type CollectionIndexes,
  isDuplicateKey,
  type KeyLookup,
  type LookupRef,
  readFanOut,
} from '../db/index.js';
import type { Redis } from '../redis/index.js';
import { INCIDENTS, type IncidentAcknowledgement, type IncidentDocument } from './incident-document.js';
import { backfillIncidentLists, IncidentLists, incidentIds, listIncident } from './incident-lists.js';
import { durableFingerprint, MonitorStateCache } from './monitor-state.cache.js';
import {
  initialMonitorState,
  type MonitorRef,
  type MonitorStateDocument,
  monitorKey,
  monitorStateSchema,
} from './monitor-state.js';

export { INCIDENTS, type IncidentAcknowledgement, type IncidentDocument } from './incident-document.js';
export { INCIDENT_LIST_DAYS, INCIDENT_LISTS } from './incident-lists.js';

/** Stored under the website id as a string `_id`: loaded and saved on every check. */
type StoredMonitorState = MonitorStateDocument & { _id: string };

/** A state as MongoDB has it (fields it predates filled in by the schema), marked as written. */
function fromStored(stored: unknown): MonitorStateDocument {
  const state = monitorStateSchema.parse(stored);
  return { ...state, persisted: { fingerprint: durableFingerprint(state), at: new Date() } };
}

/** What a durable write of a state came to: `refused` when a holder with a later fence wrote it. */
export type DurableWrite = 'written' | 'refused';

/** Primary-key reads of a listing going at once. */
const READS_AT_ONCE = 16;

export const MONITOR_STATES = 'monitor_states';
/**
 * The states of websites' other monitors (heartbeats, DNS, ports), `_id` `<kind>:<id>`: apart from
 * the websites' HTTP states, which are unique per website and scanned by the workers' warm-up.
 */
export const OTHER_MONITOR_STATES = 'other_monitor_states';

export const monitoringIndexes: CollectionIndexes[] = [
  { collection: MONITOR_STATES, indexes: [{ key: { websiteId: 1 }, unique: true, name: 'website_unique' }] },
  {
    collection: INCIDENTS,
    indexes: [
      { key: { id: 1 }, unique: true, name: 'id_unique' },
      { key: { organizationId: 1, websiteId: 1, startedAt: -1 }, name: 'website_time' },
    ],
    backfill: backfillIncidentLists,
  },
];

export class MonitorStateRepository {
  private readonly states: Collection<StoredMonitorState>;
  private readonly otherStates: Collection<StoredMonitorState>;
  readonly incidents: Collection<IncidentDocument>;
  /** Where hot copies live and the monitor locks' resources (`MonitorTransitions` takes them). */
  readonly cache: MonitorStateCache;
  private readonly firstWrites: BatchInserter<StoredMonitorState>;
  /** Bounds each read and write of the check path, below the monitor lock's TTL. */
  readonly bounded: { timeoutMS?: number };

  private readonly incidentIds: KeyLookup<IncidentDocument>;
  private readonly lists: IncidentLists;

  constructor(
    private readonly db: Db,
    redis: Redis,
    redisPrefix: string,
    options: { timeoutMS?: number } = {},
  ) {
    this.cache = new MonitorStateCache(redis, redisPrefix);
    this.bounded = options.timeoutMS === undefined ? {} : { timeoutMS: options.timeoutMS };
    this.states = db.collection<StoredMonitorState>(MONITOR_STATES);
    this.otherStates = db.collection<StoredMonitorState>(OTHER_MONITOR_STATES);
    // Group commit: the API creates one website at a time and must not wait for a batch timer.
    this.firstWrites = new BatchInserter(this.states, { flushEveryMs: 0, ...this.bounded });
    this.incidents = db.collection<IncidentDocument>(INCIDENTS);
    this.incidentIds = incidentIds(db);
    this.lists = new IncidentLists(this.incidents, db);
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
    // A primary-key read each, a few at a time: `{websiteId: {$in}}` reads every state on FerretDB 1.24.
    const reads = readFanOut(READS_AT_ONCE);
    const found = await Promise.all(
      cold.map((websiteId) =>
        reads.run(() => this.states.findOne({ _id: String(websiteId) }, { projection: { _id: 0 } })),
      ),
    );
    const warmed: MonitorStateDocument[] = [];
    for (const [i, stored] of found.entries()) {
      if (stored && stored.organizationId !== organizationId) continue;
      const state = stored ? fromStored(stored) : initialMonitorState(organizationId, cold[i] as number);
      if (stored) states.set(stored.websiteId, state);
      warmed.push(state);
    }
    // Kept as hot copies (as a worker's warm-up does), so the next page of websites not checked
    // now (paused ones) is one MGET too instead of a MongoDB read each; a worker's save wins.
    if (warmed.length > 0) await this.cache.setIfAbsent(warmed);
    return states;
  }

  /** Open incidents across organizations (metrics). */
  countOpenIncidents(): Promise<number> {
    return this.incidents.countDocuments({ resolvedAt: null });
  }

  /** The state from Redis's hot copy, else from MongoDB (a flushed or new Redis), else a new one. */
  async load(
    organizationId: number,
    websiteId: number,
    monitor: MonitorRef | null = null,
  ): Promise<MonitorStateDocument> {
    const hot = await this.cache.get(monitorKey(websiteId, monitor));
    return this.fromHotCopy(organizationId, websiteId, hot, monitor);
  }

  /** The state a hot copy (null: none) stands for, read from MongoDB when there is none. */
  async fromHotCopy(
    organizationId: number,
    websiteId: number,
    cached: MonitorStateDocument | null,
    monitor: MonitorRef | null = null,
  ): Promise<MonitorStateDocument> {
    const mine = (state: MonitorStateDocument) =>
      state.organizationId === organizationId &&
      state.websiteId === websiteId &&
      monitorKey(websiteId, state.monitor) === monitorKey(websiteId, monitor);
    if (cached) return mine(cached) ? cached : initialMonitorState(organizationId, websiteId, monitor);
    // By primary key alone (FerretDB runs only that without a scan); the organization is checked here.
    const stored = await this.collectionOf(monitor).findOne(
      { _id: monitorKey(websiteId, monitor) },
      { projection: { _id: 0 }, ...this.bounded },
    );
    const state = stored && fromStored(stored);
    return state && mine(state) ? state : initialMonitorState(organizationId, websiteId, monitor);
  }

  private collectionOf(monitor: MonitorRef | null): Collection<StoredMonitorState> {
    return monitor ? this.otherStates : this.states;
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
    const _id = monitorKey(state.websiteId, state.monitor);
    const collection = this.collectionOf(state.monitor);
    if (state.persisted === null && !state.monitor) {
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
      await collection.replaceOne(olderOnly, state, { upsert: true, ...this.bounded });
      return 'written';
    } catch (error) {
      // No older document matched, and the upsert met the newer one's `_id`.
      if (isDuplicateKey(error)) return 'refused';
      throw error;
    }
  }

  /**
   * Stores the incident once (under `_id` its id), then enters it in its website's and its
   * organization's lists: a replay of the transition that opened it (same id) stores and lists
   * nothing new. The caller holds the website's monitor lock.
   */
  async insertIncident(incident: IncidentDocument): Promise<void> {
    try {
      await this.incidents.insertOne({ ...incident, _id: incident.id } as IncidentDocument, this.bounded);
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    await listIncident(this.db, incident, incident.id, this.bounded);
  }

  /**
   * Marks the incident resolved unless it is: read through its id's entry and written by `_id` (a
   * filter on `id` reads every incident on FerretDB 1.24); the caller holds the website's monitor
   * lock. One stored without an entry (not backfilled yet) is resolved by its `id`.
   */
  async resolveIncident(organizationId: number, id: string, at: Date): Promise<void> {
    const found = (await this.incidentIds.find(id, {
      projection: { _id: 1, id: 1, organizationId: 1, resolvedAt: 1 },
    })) as (IncidentDocument & { _id: LookupRef }) | null;
    if (!found) {
      await this.incidents.updateOne(
        { id, organizationId, resolvedAt: null },
        { $set: { resolvedAt: at } },
        this.bounded,
      );
      return;
    }
    if (found.organizationId !== organizationId || found.resolvedAt !== null) return;
    await this.incidents.updateOne(
      { _id: found._id } as Filter<IncidentDocument>,
      { $set: { resolvedAt: at } },
      this.bounded,
    );
  }

  /** The organization's incident by its id (two primary-key reads); null: none of its own. */
  async incident(
    organizationId: number,
    id: string,
  ): Promise<(IncidentDocument & { _id: LookupRef }) | null> {
    const found = (await this.incidentIds.find(id)) as (IncidentDocument & { _id: LookupRef }) | null;
    return found?.organizationId === organizationId ? found : null;
  }

  /** Records the acknowledgement unless the incident has one or is resolved: false then. */
  async acknowledge(ref: LookupRef, acknowledgement: IncidentAcknowledgement): Promise<boolean> {
    const done = await this.incidents.updateOne(
      { _id: ref, acknowledgement: null, resolvedAt: null } as Filter<IncidentDocument>,
      { $set: { acknowledgement } },
    );
    return done.modifiedCount === 1;
  }

  /** Sets (or, with null, withdraws) the root cause the status pages show. */
  async setPublicNote(ref: LookupRef, note: IncidentDocument['publicNote']): Promise<void> {
    await this.incidents.updateOne({ _id: ref } as Filter<IncidentDocument>, { $set: { publicNote: note } });
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

  /** The organization's incidents, newest first (`open`: only those not resolved, or only resolved). */
  incidentsOfOrganization(
    organizationId: number,
    options: { open?: boolean; limit: number },
  ): Promise<IncidentDocument[]> {
    return this.lists.incidentsOfOrganization(organizationId, options);
  }

  /** The incidents of these websites open now or resolved since `since`, newest first. */
  incidentsOfWebsites(
    organizationId: number,
    websiteIds: readonly number[],
    since: Date,
  ): Promise<IncidentDocument[]> {
    return this.lists.incidentsOfWebsites(organizationId, websiteIds, since);
  }

  /** A website's other monitor's incidents open or resolved since `since`, newest first. */
  incidentsOfMonitorSince(
    organizationId: number,
    websiteId: number,
    monitor: MonitorRef,
    since: Date,
  ): Promise<IncidentDocument[]> {
    return this.lists.incidentsOfMonitorSince(organizationId, websiteId, monitor, since);
  }

  /** A website's other monitor's latest `limit` incidents, newest first. */
  incidentsOfMonitor(
    organizationId: number,
    websiteId: number,
    monitor: MonitorRef,
    limit: number,
  ): Promise<IncidentDocument[]> {
    return this.lists.incidentsOfMonitor(organizationId, websiteId, monitor, limit);
  }

  /** The website's latest `limit` incidents, newest first. */
  incidentsOf(organizationId: number, websiteId: number, limit: number): Promise<IncidentDocument[]> {
    return this.lists.incidentsOf(organizationId, websiteId, limit);
  }

  /**
   * A website's other monitor is gone: its state (MongoDB's and the hot copy) goes, so an incident
   * it left open is an orphan the reconciler resolves.
   */
  async forgetMonitor(websiteId: number, monitor: MonitorRef): Promise<void> {
    const key = monitorKey(websiteId, monitor);
    await this.otherStates.deleteOne({ _id: key }, this.bounded);
    await this.cache.forget(key);
  }

  /** The states of a website's other monitors, as `load` reads them. */
  async monitorStates(
    organizationId: number,
    websiteId: number,
    monitors: readonly MonitorRef[],
  ): Promise<Map<string, MonitorStateDocument>> {
    const reads = readFanOut(READS_AT_ONCE);
    const states = await Promise.all(
      monitors.map((monitor) => reads.run(() => this.load(organizationId, websiteId, monitor))),
    );
    return new Map(
      monitors.map((monitor, i) => [monitorKey(websiteId, monitor), states[i] as MonitorStateDocument]),
    );
  }
}
