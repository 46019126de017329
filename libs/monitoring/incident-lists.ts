import type { Collection, Db, Filter } from 'mongodb';
import {
  isDuplicateKey,
  KEY_LOOKUPS,
  KeyLookup,
  type LookupRef,
  NumberedLists,
  readFanOut,
} from '../db/index.js';
import { INCIDENTS, type IncidentDocument } from './incident-document.js';
import type { MonitorRef } from './monitor-state.js';

/* The incident lists: each incident entered in its website's (or other monitor's) list and its organization's, and read back through them newest first. */

/** Incident list entries (and incidents) read at once, per list. */
const LIST_BATCH = 8;
/** Websites whose incident lists are read at once. */
const LIST_WEBSITES_AT_ONCE = 4;

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
export const incidentIds = (db: Db) =>
  new KeyLookup<IncidentDocument>(db, { collection: INCIDENTS, keyField: 'id' });

/** Enters an incident stored before the lists were kept, or replays an interrupted entry: idempotent. */
export async function listIncident(
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
export async function backfillIncidentLists(db: Db): Promise<number> {
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

/** The incidents a website, another monitor or an organization has, read through their lists. */
export class IncidentLists {
  private readonly incidentLists: NumberedLists<IncidentEntry>;

  constructor(
    private readonly incidents: Collection<IncidentDocument>,
    db: Db,
  ) {
    this.incidentLists = new NumberedLists<IncidentEntry>(db, INCIDENT_LISTS);
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
