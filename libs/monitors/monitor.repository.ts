import type { Db } from 'mongodb';
import {
  type CollectionIndexes,
  IdLists,
  NumberedLists,
  TenantResources,
  WITHOUT_MONGO_ID,
} from '../db/index.js';
import type { DnsRecordType } from '../probe/index.js';
import { type Redis, Revisions } from '../redis/index.js';
import { type ResealReport, resealCollection, type SealedSecret, type SecretBox } from '../secrets/index.js';
import type { PingKind } from './kinds/heartbeat/heartbeat.schema.js';
import type { HeartbeatSchedule } from './kinds/heartbeat/heartbeat-schedule.js';
import { PROBE_KIND_NAMES, type ProbeKindName } from './kinds/index.js';
import { type SealedEntry, sealedEntryContext } from './sealed-settings.js';

export const WEBSITE_MONITORS = 'website_monitors';
/**
 * Pings and DNS/port results, numbered per monitor (`NumberedLists`), read newest first by `_id`;
 * and journeys' run tallies (`RunTallies`), under the same retention index.
 */
export const MONITOR_LOG = 'monitor_log';

/** Each monitor's revision (`Revisions`), bumped after every write to its configuration or memory. */
export function monitorRevisions(redis: Redis, prefix: string): Revisions {
  return new Revisions(redis, `${prefix}:monitor-rev`);
}

interface MonitorBase {
  id: number;
  organizationId: number;
  websiteId: number;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface HeartbeatDocument extends MonitorBase {
  kind: 'heartbeat';
  schedule: HeartbeatSchedule;
  graceSeconds: number;
  maxRunSeconds: number | null;
  /** SHA-256 of the token, hex: what a ping is looked up by (Redis), never the token. */
  tokenHash: string;
  /** The token itself, sealed: shown to editors as the ping URL. */
  tokenSealed: SealedSecret;
  /** What was heard from the job (kept by the workers, latest wins). */
  lastSuccessAt: Date | null;
  lastStartAt: Date | null;
  lastFailureAt: Date | null;
  /**
   * When the heartbeat was last seen not monitored (its website paused, its customer suspended):
   * a resumed heartbeat's deadline counts from then, not from a success long before.
   */
  quietSince: Date | null;
}

export interface DnsCheckDocument extends MonitorBase {
  kind: 'dns';
  recordType: DnsRecordType;
  host: string;
  expected: string[] | 'unchanged';
  intervalSeconds: number;
  timeoutSeconds: number;
  relearnAfterSeconds: number;
  /** With 'unchanged': the answer held to. */
  learned: { values: string[]; at: Date } | null;
  /** A different answer seen since `since`, not learned yet. */
  pendingChange: { previous: string[]; current: string[]; since: Date } | null;
}

export interface PortCheckDocument extends MonitorBase {
  kind: 'port';
  host: string;
  port: number;
  tls: boolean;
  expectBanner: string | null;
  intervalSeconds: number;
  timeoutSeconds: number;
}

/** A check of a kind in `PROBE_KINDS` (ICMP, UDP, gRPC, WebSocket, mail): its kind's own fields in `settings`. */
export interface ProbeCheckDocument extends MonitorBase {
  kind: ProbeKindName;
  /** As the kind's settings schema parsed them when written (read through it again when checked). */
  settings: Record<string, unknown>;
  /** Its credentials (a WebSocket's Authorization header, gRPC metadata keys), sealed; absent: none. */
  sealed?: SealedEntry[];
  intervalSeconds: number;
  timeoutSeconds: number;
}

export type MonitorDocument = HeartbeatDocument | DnsCheckDocument | PortCheckDocument | ProbeCheckDocument;
export type MonitorKind = MonitorDocument['kind'];
/** The kinds a worker checks on an interval from each region. */
export type IntervalMonitor = DnsCheckDocument | PortCheckDocument | ProbeCheckDocument;

/** One entry of a monitor's log: a ping, or a DNS or port check's result. */
export interface MonitorLogEntry {
  organizationId: number;
  monitorId: number;
  kind: MonitorKind;
  at: Date;
  /** Delete after this (the package's result retention). */
  retainUntil: Date;
  /** Names a result kept through a MongoDB outage: its write is retried without a second copy. */
  once?: string;
  /** A ping. */
  ping?: {
    kind: PingKind;
    exitCode: number | null;
    body: string;
    bodyTruncated: boolean;
    address: string | null;
  };
  /** A DNS or port check's result. */
  result?: {
    region: string;
    status: 'up' | 'degraded' | 'down';
    /** What failed, in words (null when up). */
    cause: string | null;
    durationMs: number;
    /** DNS: the answer's values. */
    values?: string[];
    /** Port: what it connected to and saw. */
    address?: string | null;
    connectMs?: number | null;
    tlsMs?: number | null;
    banner?: string | null;
    certificate?: { validTo: Date; daysLeft: number; issuer: string; subject: string; valid: boolean } | null;
    /** A probe kind's: the step timings and what it saw (bounded, no secret). */
    timings?: Record<string, number | null>;
    evidence?: Record<string, unknown>;
  };
}

/** What a heartbeat's token is sealed for (a token opened under another context is refused). */
export const heartbeatTokenContext = (hash: string) => `website_monitors/heartbeat/${hash}`;

/** Entries a read passes over for being newer than its window (a few days of one check) before it stops. */
const MAX_SKIPPED_NEWER = 5_000;
/** A batch of log entries not written within this is given up (MongoDB stalled); its checks keep them. */
const LOG_WRITE_TIMEOUT_MS = 10_000;

const monitorLists = (db: Db) => new IdLists(db, `${WEBSITE_MONITORS}.websiteId`);
const logList = (kind: MonitorKind, monitorId: number) => `${kind}:${monitorId}`;

export const monitorIndexes: CollectionIndexes[] = [
  {
    collection: WEBSITE_MONITORS,
    indexes: [{ key: { id: 1 }, unique: true, name: 'id_unique' }],
  },
  { collection: MONITOR_LOG, indexes: [{ key: { retainUntil: 1 }, name: 'retain_until' }] },
];

/**
 * A website's monitors besides its HTTP check (heartbeats, DNS and port checks), one collection and
 * one id sequence for the three kinds; each website's listed by primary key from its id list
 * (`IdLists`). Writers hold the website's `monitors:<websiteId>` lock (one writer per list).
 */
export class MonitorRepository {
  private readonly monitors: TenantResources<MonitorDocument>;
  private readonly lists: IdLists;
  private readonly log: NumberedLists<MonitorLogEntry>;

  constructor(private readonly db: Db) {
    this.monitors = new TenantResources(db, WEBSITE_MONITORS);
    this.lists = monitorLists(db);
    // Written at every check, read when someone looks: entries written together, the counter
    // raised every 8th entry.
    this.log = new NumberedLists<MonitorLogEntry>(db, MONITOR_LOG, {
      raiseTopEvery: 8,
      groupCommit: { timeoutMS: LOG_WRITE_TIMEOUT_MS },
    });
  }

  /** Listed under its website before it is stored (the caller holds the website's monitors lock). */
  async create<T extends MonitorDocument>(input: Omit<T, 'id' | 'createdAt' | 'updatedAt'>): Promise<T> {
    const id = await this.monitors.allocateId();
    await this.lists.add(input.websiteId, id);
    return (await this.monitors.create(
      input as Omit<MonitorDocument, 'id' | 'createdAt' | 'updatedAt'>,
      undefined,
      id,
    )) as T;
  }

  findById(organizationId: number, id: number): Promise<MonitorDocument | null> {
    return this.monitors.findEntered(organizationId, id);
  }

  replace<T extends MonitorDocument>(document: T): Promise<T> {
    return this.monitors.replace(document) as Promise<T>;
  }

  /** The website's monitors, by id. */
  async listByWebsite(organizationId: number, websiteId: number): Promise<MonitorDocument[]> {
    const ids = await this.lists.get(websiteId);
    const found = await this.monitors.findByIds(organizationId, ids);
    return found.filter((monitor) => monitor.websiteId === websiteId);
  }

  async delete(monitor: MonitorDocument): Promise<void> {
    await this.monitors.delete(monitor.organizationId, monitor.id);
    await this.lists.remove(monitor.websiteId, monitor.id);
  }

  /** The website is gone: its monitors and their list. */
  async deleteOfWebsite(organizationId: number, websiteId: number): Promise<MonitorDocument[]> {
    const monitors = await this.listByWebsite(organizationId, websiteId);
    for (const monitor of monitors) await this.monitors.delete(organizationId, monitor.id);
    await this.lists.drop(websiteId);
    return monitors;
  }

  /**
   * Every monitor of every organization (the workers' reconciliation every few minutes: monitors
   * are few beside websites, bounded per website by the packages).
   */
  all(): Promise<MonitorDocument[]> {
    return this.db
      .collection<MonitorDocument>(WEBSITE_MONITORS)
      .find({}, WITHOUT_MONGO_ID)
      .toArray() as Promise<MonitorDocument[]>;
  }

  /**
   * What a worker heard from a heartbeat's job: each time only moves forward (pings may be taken
   * out of order), and nothing else of the heartbeat is written (an edit may be under way).
   */
  async heard(
    heartbeat: Pick<HeartbeatDocument, 'organizationId' | 'id'>,
    times: Partial<Pick<HeartbeatDocument, 'lastSuccessAt' | 'lastStartAt' | 'lastFailureAt' | 'quietSince'>>,
  ): Promise<void> {
    const later = Object.fromEntries(Object.entries(times).filter(([, at]) => at instanceof Date));
    if (Object.keys(later).length === 0) return;
    await this.monitors.updateFields(heartbeat.organizationId, heartbeat.id, { $max: later } as never);
  }

  /**
   * A DNS check's learned answer and pending change, as its worker decided them from `judged` (the
   * check as it read it): written only while the stored memory is still that one (each memory is
   * told apart by when it was learned and when its change was first seen). Whether it was written.
   */
  async setDnsMemory(
    judged: Pick<DnsCheckDocument, 'organizationId' | 'id' | 'learned' | 'pendingChange'>,
    memory: Pick<DnsCheckDocument, 'learned' | 'pendingChange'>,
  ): Promise<boolean> {
    const condition = {
      ...(judged.learned ? { 'learned.at': judged.learned.at } : { learned: null }),
      ...(judged.pendingChange
        ? { 'pendingChange.since': judged.pendingChange.since }
        : { pendingChange: null }),
    };
    return this.monitors.updateFieldsIf(
      judged.organizationId,
      judged.id,
      condition as never,
      {
        $set: memory,
      } as never,
    );
  }

  /** Every heartbeat's token sealed again under the current key (after a key rotation). */
  resealSecrets(box: SecretBox, onProgress?: (report: ResealReport) => void): Promise<ResealReport> {
    return resealCollection({
      collection: this.db.collection<MonitorDocument>(WEBSITE_MONITORS),
      box,
      filter: { kind: { $in: ['heartbeat', ...PROBE_KIND_NAMES] } },
      sealedFieldsOf: (monitor) =>
        monitor.kind === 'heartbeat'
          ? [
              {
                path: 'tokenSealed',
                sealed: monitor.tokenSealed,
                context: heartbeatTokenContext(monitor.tokenHash),
              },
            ]
          : monitor.kind === 'dns' || monitor.kind === 'port'
            ? []
            : (monitor.sealed ?? []).map((entry, i) => ({
                path: `sealed.${i}.value`,
                sealed: entry.value,
                context: sealedEntryContext(monitor.kind, entry),
              })),
      onProgress,
    });
  }

  /** Appends to the monitor's log; `tried` hears each number an insert is tried under (see `appendLogOnce`). */
  appendLog(
    entry: MonitorLogEntry,
    options: { timeoutMS?: number; tried?: (n: number) => void } = {},
  ): Promise<number> {
    return this.log.append(logList(entry.kind, entry.monitorId), entry, options);
  }

  /**
   * Appends an entry an earlier try may have written already (MongoDB stalled: the insert given up
   * landed late): the numbers that try was made under are looked at for its `once` first.
   */
  async appendLogOnce(entry: MonitorLogEntry & { once: string }, tried: readonly number[]): Promise<void> {
    const list = logList(entry.kind, entry.monitorId);
    for (const n of tried) if ((await this.log.entry(list, n))?.once === entry.once) return;
    await this.log.append(list, entry);
  }

  /**
   * The monitor's log, newest first, at most `limit` entries: from before entry `below` when given,
   * those at or after `window.to` skipped, none before `window.from`.
   */
  async readLog(
    monitor: Pick<MonitorDocument, 'kind' | 'id' | 'organizationId'>,
    limit: number,
    below?: number,
    window: { from?: Date | undefined; to?: Date | undefined } = {},
  ): Promise<Array<MonitorLogEntry & { n: number }>> {
    const entries: Array<MonitorLogEntry & { n: number }> = [];
    // Entries newer than `to` are skipped, but not without end: a `to` long ago reads no deeper.
    let skipped = 0;
    for await (const entry of this.log.newestFirst(
      logList(monitor.kind, monitor.id),
      Math.min(limit, 16),
      below,
    )) {
      if (entry.organizationId !== monitor.organizationId) break;
      if (window.from && entry.at < window.from) break;
      if (window.to && entry.at >= window.to) {
        if (++skipped > MAX_SKIPPED_NEWER) break;
        continue;
      }
      entries.push(entry);
      if (entries.length >= limit) break;
    }
    return entries;
  }

  /** Log entries past their retention. */
  async deleteExpiredLog(now: Date): Promise<number> {
    const { deletedCount } = await this.db
      .collection<MonitorLogEntry>(MONITOR_LOG)
      .deleteMany({ retainUntil: { $lt: now } });
    return deletedCount;
  }
}
