import type { Collection, Db } from 'mongodb';
import { FlushedIncrements, type MongoHealth, readFanOut } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import { MONITOR_LOG, type MonitorDocument, type MonitorLogEntry } from './monitor.repository.js';
import {
  addRun,
  type DayTally,
  isTalliedKind,
  mergeDays,
  type TalliedKind,
  talliedRun,
  tallyCell,
  tallyUpdate,
} from './run-tally.js';

const DAY_MS = 86_400_000;
/** A month's tallies are kept this long after it ends: as long as the websites' day rollups. */
const TALLY_RETENTION_MS = 800 * DAY_MS;
/**
 * How often a worker writes the tallies it counted: one upsert per journey, region and month each
 * time, whatever the journey's interval. Reports' journey figures lag by at most this.
 */
export const TALLY_FLUSH_MS = 10 * 60_000;
/** A write not answered within this is given up (and kept for the next flush). */
const WRITE_TIMEOUT_MS = 10_000;
/** Documents read at once for one journey's figures. */
const READ_CONCURRENCY = 8;

/**
 * A journey's runs of one region and UTC month, a document of the monitor log (its retention index
 * removes it): written by that region's workers, so two regions never update one document at once.
 */
interface TallyDocument {
  _id: string;
  organizationId: number;
  monitorId: number;
  kind: TalliedKind;
  region: string;
  month: string;
  /** As stored: a field a write has not reached yet is absent (a step only ever skipped has no times). */
  days?: Record<
    string,
    {
      runs?: number;
      passed?: number;
      steps?: Record<string, { name?: string; latency?: Record<string, number> }>;
    }
  >;
  retainUntil: Date;
}

/** Which regions ever counted a journey's runs (read first: documents are read by key only). */
interface TallyRegionsDocument {
  _id: string;
  organizationId: number;
  regions?: Record<string, true>;
  retainUntil: Date;
}

type TallyMonitor = Pick<MonitorDocument, 'organizationId' | 'id'> & { kind: TalliedKind };

const regionsId = (kind: TalliedKind, monitorId: number) => `${kind}:${monitorId}/tally`;
const monthId = (kind: TalliedKind, monitorId: number, region: string, month: string) =>
  `${regionsId(kind, monitorId)}/${region}/${month}`;

/** The first instant after a UTC month (`yyyy-MM`). */
function monthEnd(month: string): Date {
  const start = new Date(`${month}-01T00:00:00Z`);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/** The UTC months (`yyyy-MM`) from the one of `from` to the one of `to` (days, yyyy-MM-dd). */
function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (
    let month = from.slice(0, 7);
    month <= to.slice(0, 7);
    month = monthEnd(month).toISOString().slice(0, 7)
  )
    months.push(month);
  return months;
}

/** One day of a journey's runs, every region summed (`date`: a UTC day, yyyy-MM-dd). */
export interface JourneyRunDay extends DayTally {
  date: string;
}

/** What a flush writes for one journey, region and month. */
interface TallyIncrement {
  monitor: TallyMonitor;
  region: string;
  month: string;
  days: Map<string, DayTally>;
}

/** Journeys' tallies in MongoDB: each month's upserted, a journey's days read for a report. */
export class RunTallies {
  private readonly collection: Collection<TallyDocument | TallyRegionsDocument>;

  constructor(db: Db) {
    this.collection = db.collection(MONITOR_LOG);
  }

  /** Adds a month's days; the region is named in the journey's list each time (a lost race heals at the next). */
  async write(increment: TallyIncrement): Promise<void> {
    const { monitor, region, month } = increment;
    const retainUntil = new Date(monthEnd(month).getTime() + TALLY_RETENTION_MS);
    const options = { upsert: true, timeoutMS: WRITE_TIMEOUT_MS };
    await this.collection.updateOne(
      { _id: monthId(monitor.kind, monitor.id, region, month) },
      {
        ...tallyUpdate(increment.days),
        $setOnInsert: {
          organizationId: monitor.organizationId,
          monitorId: monitor.id,
          kind: monitor.kind,
          region,
          month,
        },
        $max: { retainUntil },
      } as never,
      options,
    );
    await this.collection.updateOne(
      { _id: regionsId(monitor.kind, monitor.id) },
      {
        $set: { [`regions.${region}`]: true },
        $setOnInsert: { organizationId: monitor.organizationId },
        $max: { retainUntil },
      } as never,
      options,
    );
  }

  /**
   * A journey's days from `from` to `to` (UTC days, inclusive), every region summed, oldest first:
   * a read of its regions, then one per region and month. Another organization's journey has none.
   */
  async days(monitor: TallyMonitor, from: string, to: string): Promise<JourneyRunDay[]> {
    const listed = (await this.collection.findOne({
      _id: regionsId(monitor.kind, monitor.id),
    })) as TallyRegionsDocument | null;
    if (!listed || listed.organizationId !== monitor.organizationId) return [];
    const reads = readFanOut(READ_CONCURRENCY);
    const documents = await Promise.all(
      Object.keys(listed.regions ?? {}).flatMap((region) =>
        monthsBetween(from, to).map((month) =>
          reads.run(
            async () =>
              (await this.collection.findOne({
                _id: monthId(monitor.kind, monitor.id, region, month),
              })) as TallyDocument | null,
          ),
        ),
      ),
    );
    const byDate = new Map<string, JourneyRunDay>();
    for (const document of documents) {
      if (!document || document.organizationId !== monitor.organizationId) continue;
      for (const [day, tally] of Object.entries(document.days ?? {})) {
        const date = `${document.month}-${day.slice(1)}`;
        if (date < from || date > to) continue;
        const summed = byDate.get(date) ?? { date, runs: 0, passed: 0, steps: {} };
        const steps = Object.fromEntries(
          Object.entries(tally.steps ?? {}).map(([key, step]) => [
            key,
            { name: step.name ?? '', latency: step.latency ?? {} },
          ]),
        );
        mergeDays(summed, { runs: tally.runs ?? 0, passed: tally.passed ?? 0, steps });
        byDate.set(date, summed);
      }
    }
    return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
  }
}

/**
 * A worker's tallies: each journey's run counted as its result is committed, written together every
 * `flushEveryMs` (an upsert per journey, region and month) and at shutdown. A worker killed without
 * a shutdown loses at most that much of them (never a result).
 */
export class RunTallyRecorder {
  private readonly increments: FlushedIncrements<TallyIncrement>;

  constructor(
    store: Pick<RunTallies, 'write'>,
    options: {
      logger: Logger;
      /** Written only while MongoDB answers; a write it stops answering is given up (and kept). */
      mongo: Pick<MongoHealth, 'available' | 'onLost'>;
      /** @defaultValue TALLY_FLUSH_MS */
      flushEveryMs?: number | undefined;
    },
  ) {
    this.increments = new FlushedIncrements({
      what: 'run tallies',
      write: (increment) => store.write(increment),
      merge: (into, from) => {
        for (const [day, tally] of from.days) {
          const now = into.days.get(day);
          into.days.set(day, now ? mergeDays(now, tally) : tally);
        }
      },
      logger: options.logger,
      mongo: options.mongo,
      flushEveryMs: options.flushEveryMs ?? TALLY_FLUSH_MS,
      writeTimeoutMs: WRITE_TIMEOUT_MS,
    });
  }

  /** Counts a committed result of a journey (a result of another kind, or without steps: nothing). */
  add(
    monitor: Pick<MonitorDocument, 'organizationId' | 'id' | 'kind'>,
    entry: Pick<MonitorLogEntry, 'at' | 'result'>,
  ): void {
    if (!isTalliedKind(monitor.kind)) return;
    const run = talliedRun(monitor.kind, entry.at, entry.result);
    if (!run) return;
    const { month, day } = tallyCell(run.at);
    const key = monthId(monitor.kind, monitor.id, run.region, month);
    const tallied = { organizationId: monitor.organizationId, id: monitor.id, kind: monitor.kind };
    this.increments.add((pending) => {
      const increment = pending.get(key) ?? {
        monitor: tallied,
        region: run.region,
        month,
        days: new Map<string, DayTally>(),
      };
      increment.days.set(day, addRun(increment.days.get(day), run));
      pending.set(key, increment);
    });
  }

  /** Writes what was counted so far; what was not written is kept for the next flush. */
  flush(): Promise<void> {
    return this.increments.flush();
  }

  close(): Promise<void> {
    return this.increments.close();
  }
}
