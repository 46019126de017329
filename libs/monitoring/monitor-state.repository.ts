import { randomUUID } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { BatchInserter, type CollectionIndexes, isDuplicateKey } from '../db/index.js';
import type { EventData, EventDocument, EventDraft, ResultSummary } from '../events/index.js';
import { RedisMutex } from '../locks/index.js';
import type { Redis } from '../redis/index.js';
import type { WebsiteDocument } from '../websites/index.js';
import { NO_EXPIRY_MARKS } from './expiry-alerts.js';
import type { MonitorOutcome } from './monitor-decisions.js';
import {
  durableFingerprint,
  hotCopyOf,
  MonitorStateCache,
  needsDurableWrite,
  parseHotCopy,
} from './monitor-state.cache.js';
import { initialMonitorState, type MonitorStateDocument } from './monitor-state.js';

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

/** The website as events describe it. */
export type EventWebsite = Pick<
  WebsiteDocument,
  'organizationId' | 'id' | 'publicId' | 'name' | 'url' | 'customerId'
>;

/** An event about a website, in the shape of the events contract. */
export function websiteEvent(
  website: EventWebsite,
  type: EventDraft['type'],
  data: Omit<EventData, 'website' | 'result'> & { result: ResultSummary | null },
): EventDraft {
  return {
    organizationId: website.organizationId,
    websiteId: website.id,
    type,
    createdAt: new Date(),
    data: {
      website: {
        id: website.id,
        publicId: website.publicId,
        name: website.name,
        url: website.url,
        customerId: website.customerId,
      },
      ...data,
    },
  };
}

/** A state as MongoDB has it: fields from before maintenance tracking filled in, marked as written. */
function fromStored(stored: MonitorStateDocument): MonitorStateDocument {
  const state: MonitorStateDocument = {
    ...stored,
    notifiedHealth: stored.notifiedHealth ?? stored.health,
    lastCause: stored.lastCause ?? null,
    maintenance: stored.maintenance ?? null,
    maintenanceActive: stored.maintenanceActive ?? false,
    maintenanceBoundaryAt: stored.maintenanceBoundaryAt ?? null,
    expiry: stored.expiry ?? NO_EXPIRY_MARKS,
    remindedAt: stored.remindedAt ?? null,
    reported: stored.reported ?? null,
    persisted: null,
  };
  return { ...state, persisted: { fingerprint: durableFingerprint(state), at: new Date() } };
}

export const MONITOR_STATES = 'monitor_states';
export const INCIDENTS = 'incidents';
export const EVENTS = 'events';

export const monitoringIndexes: CollectionIndexes[] = [
  { collection: MONITOR_STATES, indexes: [{ key: { websiteId: 1 }, unique: true, name: 'website_unique' }] },
  {
    collection: INCIDENTS,
    indexes: [
      { key: { id: 1 }, unique: true, name: 'id_unique' },
      { key: { organizationId: 1, websiteId: 1, startedAt: -1 }, name: 'website_time' },
    ],
  },
  {
    collection: EVENTS,
    indexes: [
      { key: { id: 1 }, unique: true, name: 'id_unique' },
      { key: { deliveredAt: 1, createdAt: 1 }, name: 'undelivered' },
    ],
  },
];

export class MonitorStateRepository {
  private readonly states: Collection<StoredMonitorState>;
  readonly incidents: Collection<IncidentDocument>;
  readonly events: Collection<EventDocument>;

  private readonly cache: MonitorStateCache;
  private readonly firstWrites: BatchInserter<StoredMonitorState>;
  /** Holds the monitor locks: the same keys as every other `RedisMutex` of the prefix. */
  private readonly mutex: RedisMutex;

  constructor(
    db: Db,
    redis: Redis,
    redisPrefix: string,
    /** Told the id of every event written (the notifier's queue). */
    private readonly announce: (eventId: string) => Promise<void> = async () => undefined,
  ) {
    this.cache = new MonitorStateCache(redis, redisPrefix);
    this.mutex = new RedisMutex(redis, redisPrefix);
    this.states = db.collection<StoredMonitorState>(MONITOR_STATES);
    // Group commit: the API creates one website at a time and must not wait for a batch timer.
    this.firstWrites = new BatchInserter(this.states, { flushEveryMs: 0 });
    this.incidents = db.collection<IncidentDocument>(INCIDENTS);
    this.events = db.collection<EventDocument>(EVENTS);
  }

  /** Websites by the status reported now, across organizations (metrics; one aggregation). */
  async countByReportedStatus(): Promise<Map<string, number>> {
    const groups = await this.states
      .aggregate<{ _id: string | null; count: number }>([
        { $group: { _id: '$reported.status', count: { $sum: 1 } } },
      ])
      .toArray();
    return new Map(groups.map((group) => [group._id ?? 'unknown', group.count]));
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

  /**
   * Runs `work` holding the website's monitor lock (one writer of its state at a time, across
   * processes) with its state as `load` reads it, and keeps the state `work` answers as `save` does.
   * The hot copy is read as the lock is taken and written as it is released: two Redis round trips
   * per check instead of four.
   */
  withState<T>(
    organizationId: number,
    websiteId: number,
    work: (state: MonitorStateDocument) => Promise<{ result: T; save: MonitorStateDocument | null }>,
  ): Promise<T> {
    return this.mutex.withLockedKey(
      this.cache.lockResource(websiteId),
      this.cache.key(websiteId),
      async (hot) => {
        const state = await this.fromHotCopy(
          organizationId,
          websiteId,
          hot === null ? null : parseHotCopy(hot),
        );
        const { result, save } = await work(state);
        if (!save) return { result };
        return { result, write: hotCopyOf(await this.persist(save)) };
      },
    );
  }

  /** Runs `work` holding the website's monitor lock (see `withState`). */
  withMonitorLock<T>(websiteId: number, work: () => Promise<T>): Promise<T> {
    return this.mutex.withLock(this.cache.lockResource(websiteId), work);
  }

  /** The state from Redis's hot copy, else from MongoDB (a flushed or new Redis), else a new one. */
  async load(organizationId: number, websiteId: number): Promise<MonitorStateDocument> {
    return this.fromHotCopy(organizationId, websiteId, await this.cache.get(websiteId));
  }

  private async fromHotCopy(
    organizationId: number,
    websiteId: number,
    cached: MonitorStateDocument | null,
  ): Promise<MonitorStateDocument> {
    if (cached)
      return cached.organizationId === organizationId
        ? cached
        : initialMonitorState(organizationId, websiteId);
    // By primary key alone (FerretDB runs only that without a scan); the organization is checked here.
    const stored = await this.states.findOne({ _id: String(websiteId) }, { projection: { _id: 0 } });
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
  withMaintenance(): Promise<MonitorStateDocument[]> {
    return this.states
      .find(
        { $or: [{ maintenanceActive: true }, { maintenanceBoundaryAt: { $ne: null } }] },
        { projection: { _id: 0 } },
      )
      .toArray();
  }

  /**
   * Saves the hot copy in Redis; MongoDB gets it first when something durable changed (health,
   * health told, incident, maintenance), so a lost Redis loses only confirmation counters and the
   * last result time. Callers hold the website's monitor lock.
   */
  async save(state: MonitorStateDocument): Promise<void> {
    await this.cache.set(await this.persist(state));
  }

  /** MongoDB's part of `save` (when something durable changed); answers the state to keep hot. */
  private async persist(state: MonitorStateDocument): Promise<MonitorStateDocument> {
    if (!needsDurableWrite(state)) return state;
    const saved = { ...state, persisted: { fingerprint: durableFingerprint(state), at: new Date() } };
    await this.writeDurable(saved, state.persisted === null);
    return saved;
  }

  /**
   * A state never written before is inserted, in batches: FerretDB 1.24 runs every update by
   * scanning the collection (about 40 ms at 10,000 states) but inserts a thousand documents in
   * about 30 ms, and each new website's first result is such a write. Inserting one that exists
   * after all replaces it.
   */
  private async writeDurable(state: MonitorStateDocument, isNew: boolean): Promise<void> {
    const _id = String(state.websiteId);
    if (isNew) {
      try {
        await this.firstWrites.insert({ ...state, _id });
        return;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
    await this.states.replaceOne({ _id }, state, { upsert: true });
  }

  async openIncident(
    state: MonitorStateDocument,
    at: Date,
    cause: string,
    regions: string[],
  ): Promise<string> {
    const incident: IncidentDocument = {
      id: randomUUID(),
      organizationId: state.organizationId,
      websiteId: state.websiteId,
      startedAt: at,
      resolvedAt: null,
      cause,
      regions,
    };
    await this.incidents.insertOne({ ...incident });
    return incident.id;
  }

  async resolveIncident(organizationId: number, id: string, at: Date): Promise<void> {
    await this.incidents.updateOne({ id, organizationId, resolvedAt: null }, { $set: { resolvedAt: at } });
  }

  /**
   * Carries out a monitor outcome: opens or resolves the incident and writes its events (with the
   * incident, the latest result and what else `details` adds). Returns the state to save; the
   * caller holds the website's monitor lock.
   */
  async carryOut(
    website: EventWebsite,
    outcome: Pick<MonitorOutcome, 'state' | 'incident' | 'events'>,
    at: Date,
    details: { result: ResultSummary | null } & Partial<
      Pick<EventData, 'ssl' | 'maintenance' | 'unmonitored'>
    >,
  ): Promise<MonitorStateDocument> {
    const { state } = outcome;
    const next = { ...state };
    if (outcome.incident === 'open') {
      const downRegions = Object.entries(state.regions)
        .filter(([, track]) => track.lastStatus === 'down')
        .map(([region]) => region);
      next.openIncidentId = await this.openIncident(state, at, state.lastCause ?? 'down', downRegions);
    } else if (outcome.incident === 'resolve' && state.openIncidentId) {
      await this.resolveIncident(state.organizationId, state.openIncidentId, at);
      next.openIncidentId = null;
    }
    for (const { type, previousStatus, status, reminder } of outcome.events) {
      await this.emit(
        websiteEvent(website, type, {
          ...details,
          previousStatus,
          status,
          incident: next.openIncidentId ?? state.openIncidentId,
          ...(reminder ? { reminder } : {}),
        }),
      );
    }
    return next;
  }

  async emit(event: EventDraft): Promise<void> {
    const id = randomUUID();
    // The id is the primary key too: the notifier reads and marks events by it without a scan.
    await this.events.insertOne({ ...event, _id: id, id, deliveredAt: null } as EventDocument);
    // A lost announcement only delays the event: the notifier sweeps the outbox for stragglers.
    await this.announce(id).catch(() => undefined);
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
