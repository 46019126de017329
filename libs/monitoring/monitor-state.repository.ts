import type { Collection, Db, Filter } from 'mongodb';
import {
  BatchInserter,
  type CollectionIndexes,
  isDuplicateKey,
  KEY_LOOKUPS,
  KeyLookup,
  type LookupRef,
  NumberedLists,
  readFanOut,
} from '../db/index.js';
import type { Redis } from '../redis/index.js';
import type { TimelineActor } from './incident-timeline.js';
import { durableFingerprint, MonitorStateCache } from './monitor-state.cache.js';
import {
  initialMonitorState,
  type MonitorRef,
  type MonitorStateDocument,
  monitorKey,
  monitorStateSchema,
} from './monitor-state.js';

/** Stored under the website id as a string `_id`: loaded and saved on every check. */
type StoredMonitorState = MonitorStateDocument & { _id: string };

export interface IncidentDocument {
  id: string;
  organizationId: number;
  websiteId: number;
  /** The website's other monitor that went down (absent or null: its HTTP check). */
  monitor?: MonitorRef | null;
  startedAt: Date;
  resolvedAt: Date | null;
  /** What the confirming result said (error or failed checks). */
  cause: string;
  regions: string[];
  /** Each region down when it opened: when its run of failures began, and its first failing result. */
  firstFailures?: Array<{ region: string; at: Date; resultId: string | null }>;
  /** Someone is on it: reminders stop (absent: incidents from before acknowledgements). */
  acknowledgement?: IncidentAcknowledgement | null;
  /** The root cause as the status pages show it. */
  publicNote?: { text: string; at: Date } | null;
}

export interface IncidentAcknowledgement {
  at: Date;
  by: TimelineActor;
  note: string | null;
}

/** A state as MongoDB has it (fields it predates filled in by the schema), marked as written. */
function fromStored(stored: unknown): MonitorStateDocument {
  const state = monitorStateSchema.parse(stored);
  return { ...state, persisted: { fingerprint: durableFingerprint(state), at: new Date() } };
}

/** What a durable write of a state came to: `refused` when a holder with a later fence wrote it. */
export type DurableWrite = 'written' | 'refused';

/** Primary-key reads of a listing going at once. */
const READS_AT_ONCE = 16;
/** Incident list entries (and incidents) read at once, per list. */
const LIST_BATCH = 8;
/** Websites whose incident lists are read at once. */
const LIST_WEBSITES_AT_ONCE = 4;

export const MONITOR_STATES = 'monitor_states';
/**
 * The states of websites' other monitors (heartbeats, DNS, ports), `_id` `<kind>:<id>`: apart from
 * the websites' HTTP states, which are unique per website and scanned by the workers' warm-up.
 */
export const OTHER_MONITOR_STATES = 'other_monitor_states';
export const INCIDENTS = 'incidents';

/**
 * Where the incident lists live: a website's incidents (`w<websiteId>/<n>`; another monitor's
 * `m<kind>:<id>/<n>`) and an organization's
 * (`o<organizationId>/<n>`), each entry naming an incident's id, `_id` and start, numbered in the
 * order they were opened (`NumberedLists`).
 */
export const INCIDENT_LISTS = 'incident_lists';

interface IncidentEntry {
  incidentId: string;
  ref: LookupRef;
  startedAt: Date;
}

/**
 * How long incidents stay listed: reports read a year. Those resolved longer ago are not entered
 * by the backfill; nothing is removed yet (the lists are read newest first and stop early).
 */
export const INCIDENT_LIST_DAYS = 400;

const websiteList = (websiteId: number) => `w${websiteId}`;
/** A website's other monitor's incidents (`m<kind>:<id>`): apart from its HTTP check's, which its uptime counts. */
const monitorList = (monitor: MonitorRef) => `m${monitor.kind}:${monitor.id}`;
const subjectList = (incident: Pick<IncidentDocument, 'websiteId' | 'monitor'>) =>
  incident.monitor ? monitorList(incident.monitor) : websiteList(incident.websiteId);
const organizationList = (organizationId: number) => `o${organizationId}`;
/** Says (in `key_lookups`) that the incident is in its lists, so a replayed insert adds no second entry. */
const listedMarker = (incidentId: string) => `incidents.listed/${incidentId}`;
const INCIDENTS_BACKFILLED = `~backfilled/${INCIDENT_LISTS}`;

/** Incidents by their `id` (two primary-key reads): `incidents.id/<id>` in `key_lookups`. */
const incidentIds = (db: Db) =>
  new KeyLookup<IncidentDocument>(db, { collection: INCIDENTS, keyField: 'id' });

/** Enters an incident stored before the lists were kept, or replays an interrupted entry: idempotent. */
async function listIncident(
  db: Db,
  incident: Pick<IncidentDocument, 'id' | 'organizationId' | 'websiteId' | 'monitor' | 'startedAt'>,
  ref: LookupRef,
  options: { timeoutMS?: number } = {},
): Promise<void> {
  const markers = db.collection<{ _id: string; ref: LookupRef }>(KEY_LOOKUPS);
  await incidentIds(db).point(incident.id, ref);
  if (await markers.findOne({ _id: listedMarker(incident.id) }, options)) return;
  const lists = new NumberedLists<IncidentEntry>(db, INCIDENT_LISTS);
  // A crash between an entry and the marker lists it twice when replayed: readers skip repeats.
  const entry = { incidentId: incident.id, ref, startedAt: incident.startedAt };
  await lists.append(subjectList(incident), entry, options);
  await lists.append(organizationList(incident.organizationId), entry, options);
  await markers.insertOne({ _id: listedMarker(incident.id), ref }, options).catch((error: unknown) => {
    if (!isDuplicateKey(error)) throw error;
  });
}

/**
 * Lists the incidents stored before the lists were kept (those resolved within
 * `INCIDENT_LIST_DAYS`, oldest first), once per database: a marker in `key_lookups` says it is done.
 */
async function backfillIncidentLists(db: Db): Promise<number> {
  const markers = db.collection<{ _id: string; ref: string }>(KEY_LOOKUPS);
  if (await markers.findOne({ _id: INCIDENTS_BACKFILLED })) return 0;
  const keptSince = new Date(Date.now() - INCIDENT_LIST_DAYS * 86_400_000);
  const stored = await db
    .collection<IncidentDocument & { _id: LookupRef }>(INCIDENTS)
    .find({}, { projection: { cause: 0, regions: 0 } })
    .toArray();
  const kept = stored
    .filter((incident) => incident.resolvedAt === null || incident.resolvedAt >= keptSince)
    .sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
  for (const incident of kept) await listIncident(db, incident, incident._id);
  await markers
    .insertOne({ _id: INCIDENTS_BACKFILLED, ref: INCIDENTS_BACKFILLED })
    .catch((error: unknown) => {
      if (!isDuplicateKey(error)) throw error;
    });
  return kept.length;
}

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
  private readonly incidentLists: NumberedLists<IncidentEntry>;

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
    this.incidentLists = new NumberedLists<IncidentEntry>(db, INCIDENT_LISTS);
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

  /**
   * The incidents a list names, newest first, each read by `_id` (a batch at a time) and checked to
   * be the organization's (and the website's); repeats skipped. The caller stops when it has enough.
   */
  private async *listed(
    list: string,
    organizationId: number,
    websiteId?: number,
  ): AsyncGenerator<{ incident: IncidentDocument; startedAt: Date }> {
    const seen = new Set<string>();
    const batch: IncidentEntry[] = [];
    const read = async () => {
      const found = (await Promise.all(
        batch.map((entry) =>
          this.incidents.findOne({ _id: entry.ref } as Filter<IncidentDocument>, { projection: { _id: 0 } }),
        ),
      )) as Array<IncidentDocument | null>;
      batch.length = 0;
      return found.filter(
        (incident): incident is IncidentDocument =>
          incident !== null &&
          incident.organizationId === organizationId &&
          (websiteId === undefined || incident.websiteId === websiteId),
      );
    };
    for await (const entry of this.incidentLists.newestFirst(list, LIST_BATCH)) {
      if (seen.has(entry.incidentId)) continue;
      seen.add(entry.incidentId);
      batch.push(entry);
      if (batch.length < LIST_BATCH) continue;
      for (const incident of await read()) yield { incident, startedAt: incident.startedAt };
    }
    for (const incident of await read()) yield { incident, startedAt: incident.startedAt };
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

  /**
   * The organization's incidents, newest first; `open`: only those not resolved (or only resolved:
   * false). From the organization's list, by primary key; `open: true` alone still scans (the open
   * ones may be anywhere in a year of incidents).
   */
  async incidentsOfOrganization(
    organizationId: number,
    options: { open?: boolean; limit: number },
  ): Promise<IncidentDocument[]> {
    if (options.open === true)
      return this.incidents
        .find(
          { organizationId, resolvedAt: null },
          { projection: { _id: 0 }, sort: { startedAt: -1 }, limit: options.limit },
        )
        .toArray();
    const wanted = (incident: IncidentDocument) =>
      options.open === undefined || (incident.resolvedAt !== null) === !options.open;
    const found: IncidentDocument[] = [];
    // Websites open incidents at once, so the list is in start order only roughly: past `limit`,
    // read on while entries start later than the oldest kept.
    let past = 0;
    for await (const { incident } of this.listed(organizationList(organizationId), organizationId)) {
      if (found.length >= options.limit) {
        const oldest = found.reduce((min, kept) => Math.min(min, kept.startedAt.getTime()), Infinity);
        if (incident.startedAt.getTime() <= oldest && ++past >= LIST_BATCH) break;
      }
      if (wanted(incident)) found.push(incident);
    }
    return newestFirst(found).slice(0, options.limit);
  }

  /**
   * The incidents of these websites open now or resolved since `since`: each website's list,
   * newest first, by primary key, until a batch of incidents all resolved before `since` (a
   * website's incidents follow one another: one is open at a time under its monitor lock; an
   * orphan left open by a crash is listed when met, and resolved by the reconciler).
   */
  async incidentsOfWebsites(
    organizationId: number,
    websiteIds: readonly number[],
    since: Date,
  ): Promise<IncidentDocument[]> {
    const perWebsite = readFanOut(LIST_WEBSITES_AT_ONCE);
    const lists = await Promise.all(
      [...new Set(websiteIds)].map((websiteId) =>
        perWebsite.run(() => this.listedSince(websiteList(websiteId), organizationId, websiteId, since)),
      ),
    );
    return newestFirst(lists.flat());
  }

  /** A website's other monitor's incidents open or resolved since `since`, newest first. */
  async incidentsOfMonitorSince(
    organizationId: number,
    websiteId: number,
    monitor: MonitorRef,
    since: Date,
  ): Promise<IncidentDocument[]> {
    return newestFirst(await this.listedSince(monitorList(monitor), organizationId, websiteId, since));
  }

  /** A list's incidents open or resolved since `since` (read until a batch of older ones in a row). */
  private async listedSince(
    list: string,
    organizationId: number,
    websiteId: number,
    since: Date,
  ): Promise<IncidentDocument[]> {
    const found: IncidentDocument[] = [];
    let before = 0;
    for await (const { incident } of this.listed(list, organizationId, websiteId)) {
      if (incident.resolvedAt === null || incident.resolvedAt >= since) {
        found.push(incident);
        before = 0;
      } else if (++before >= LIST_BATCH) break;
    }
    return found;
  }

  /** A website's other monitor's latest `limit` incidents, newest first, from its list by primary key. */
  async incidentsOfMonitor(
    organizationId: number,
    websiteId: number,
    monitor: MonitorRef,
    limit: number,
  ): Promise<IncidentDocument[]> {
    const found: IncidentDocument[] = [];
    for await (const { incident } of this.listed(monitorList(monitor), organizationId, websiteId)) {
      found.push(incident);
      if (found.length >= limit) break;
    }
    return newestFirst(found);
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

  /** The website's latest `limit` incidents, newest first, from its list by primary key. */
  async incidentsOf(organizationId: number, websiteId: number, limit: number): Promise<IncidentDocument[]> {
    const found: IncidentDocument[] = [];
    if (limit <= 0) return found;
    for await (const { incident } of this.listed(websiteList(websiteId), organizationId, websiteId)) {
      found.push(incident);
      if (found.length >= limit) break;
    }
    return newestFirst(found);
  }
}

const newestFirst = (incidents: IncidentDocument[]) =>
  incidents.sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());
