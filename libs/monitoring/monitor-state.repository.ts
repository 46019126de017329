import { randomUUID } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import type { CollectionIndexes } from '../db/index.js';
import { INITIAL_STATE, type MonitorState } from './status-machine.js';

export interface MonitorStateDocument extends MonitorState {
  organizationId: number;
  websiteId: number;
  /** When the confirmed health last changed. */
  since: Date | null;
  lastResultAt: Date | null;
  lastStatus: string | null;
  openIncidentId: string | null;
}

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

/** A status change for the notifier to deliver (the outbox: written with the change, delivered after). */
export interface EventDocument {
  id: string;
  organizationId: number;
  websiteId: number;
  type: string;
  createdAt: Date;
  data: Record<string, unknown>;
  deliveredAt: Date | null;
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

  constructor(db: Db) {
    this.states = db.collection<StoredMonitorState>(MONITOR_STATES);
    this.incidents = db.collection<IncidentDocument>(INCIDENTS);
    this.events = db.collection<EventDocument>(EVENTS);
  }

  async load(organizationId: number, websiteId: number): Promise<MonitorStateDocument> {
    // By primary key alone (FerretDB runs only that without a scan); the organization is checked here.
    const stored = await this.states.findOne({ _id: String(websiteId) }, { projection: { _id: 0 } });
    const found = stored?.organizationId === organizationId ? stored : null;
    return (
      found ?? {
        ...INITIAL_STATE,
        organizationId,
        websiteId,
        since: null,
        lastResultAt: null,
        lastStatus: null,
        openIncidentId: null,
      }
    );
  }

  /** Callers hold the website's monitor lock. */
  async save(state: MonitorStateDocument): Promise<void> {
    await this.states.replaceOne({ _id: String(state.websiteId) }, state, { upsert: true });
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

  async emit(event: Omit<EventDocument, 'id' | 'deliveredAt'>): Promise<void> {
    await this.events.insertOne({ ...event, id: randomUUID(), deliveredAt: null });
  }

  incidentsOf(organizationId: number, websiteId: number, limit: number): Promise<IncidentDocument[]> {
    return this.incidents
      .find({ organizationId, websiteId }, { projection: { _id: 0 }, sort: { startedAt: -1 }, limit })
      .toArray();
  }
}
