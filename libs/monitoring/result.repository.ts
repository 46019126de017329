import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { Binary, type Collection, type Db, type Filter, ObjectId, type WithId } from 'mongodb';
import {
  type CheckResult,
  type Evidence,
  evidenceSchema,
  type HealthStatus,
  type ProbeError,
  type RedirectHop,
  type Timings,
} from '../checks/index.js';
import type { CollectionIndexes } from '../db/index.js';
import type { ResultSummary } from '../events/index.js';

/** One check run as stored and served. */
export interface CheckResultDocument {
  organizationId: number;
  websiteId: number;
  region: string;
  nodeId: string;
  startedAt: Date;
  status: HealthStatus;
  inMaintenance: boolean;
  httpStatus: number | null;
  sizeBytes: number | null;
  /** The body was longer than the probe reads (then `sizeBytes` is a lower bound); absent on older results. */
  truncated?: boolean;
  timings: Timings;
  redirects: RedirectHop[];
  error: ProbeError | null;
  checks: CheckResult[];
  ssl: { validTo: Date; daysLeft: number; issuer: string; subject: string; valid: boolean } | null;
  /** Deleted by the retention cleanup after this (the package's resultRetentionDays). */
  retainUntil: Date;
  /** A failing result's evidence, gzipped JSON (`evidenceBytes`: its size), read on its own. */
  evidence?: Binary;
  evidenceBytes?: number;
}

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** A failing result's evidence as stored beside it: gzipped JSON (a 16 KB body text: ~2–6 KB). */
export async function packEvidence(
  evidence: Evidence,
): Promise<Pick<CheckResultDocument, 'evidence' | 'evidenceBytes'>> {
  const packed = await gzipAsync(Buffer.from(JSON.stringify(evidence)));
  return { evidence: new Binary(packed), evidenceBytes: packed.length };
}

/** A result in short, as events carry it. */
export function summaryOf(result: CheckResultDocument): ResultSummary {
  const { region, startedAt, httpStatus, error, checks } = result;
  return { region, startedAt, httpStatus, error, checks };
}

/** What went wrong in a result: the probe's error, else each failed check with its message. */
export function failuresOf(result: Pick<CheckResultDocument, 'error' | 'checks'>): string[] {
  if (result.error) return [result.error.message];
  return result.checks
    .filter((check) => check.outcome === 'fail')
    .map((check) => `${check.name}: ${check.message}`);
}

export const CHECK_RESULTS = 'check_results';

export const checkResultIndexes: CollectionIndexes = {
  collection: CHECK_RESULTS,
  indexes: [
    { key: { organizationId: 1, websiteId: 1, startedAt: -1 }, name: 'website_time' },
    { key: { retainUntil: 1 }, name: 'retain_until' },
  ],
};

export class ResultRepository {
  readonly collection: Collection<CheckResultDocument>;

  constructor(db: Db) {
    this.collection = db.collection<CheckResultDocument>(CHECK_RESULTS);
  }

  /**
   * A page of a website's results, newest first. The cursor is the (startedAt, _id) of the last
   * item seen, so results of several regions with the same timestamp are never skipped.
   */
  page(
    organizationId: number,
    websiteId: number,
    range: {
      from?: Date | undefined;
      to?: Date | undefined;
      /** Older than this result (`including` it: from it on). */
      after?: { startedAt: Date; id: ObjectId; including?: boolean } | undefined;
      limit: number;
    },
  ): Promise<Array<WithId<CheckResultDocument>>> {
    const startedAt: Record<string, Date> = {};
    if (range.from) startedAt.$gte = range.from;
    if (range.to) startedAt.$lte = range.to;
    const filter: Filter<CheckResultDocument> = {
      organizationId,
      websiteId,
      ...(Object.keys(startedAt).length ? { startedAt } : {}),
    };
    if (range.after) {
      filter.$or = [
        { startedAt: { $lt: range.after.startedAt } },
        {
          startedAt: range.after.startedAt,
          _id: { [range.after.including ? '$lte' : '$lt']: range.after.id },
        },
      ];
    }
    return this.collection
      .find(filter, { sort: { startedAt: -1, _id: -1 }, limit: range.limit, projection: { evidence: 0 } })
      .toArray();
  }

  /** A result's evidence (by its `_id`, the website's only), or null when it has none. */
  async evidence(organizationId: number, websiteId: number, resultId: string): Promise<Evidence | null> {
    if (!ObjectId.isValid(resultId)) return null;
    const found = await this.collection.findOne(
      { _id: new ObjectId(resultId) },
      { projection: { organizationId: 1, websiteId: 1, evidence: 1 } },
    );
    if (!found?.evidence || found.organizationId !== organizationId || found.websiteId !== websiteId)
      return null;
    const json = await gunzipAsync(found.evidence.buffer);
    return evidenceSchema.parse(JSON.parse(json.toString()));
  }

  /** The website's newest result (what an event told without a result of its own shows). */
  latest(organizationId: number, websiteId: number): Promise<CheckResultDocument | null> {
    return this.collection.findOne(
      { organizationId, websiteId },
      { projection: { _id: 0, evidence: 0 }, sort: { startedAt: -1 } },
    );
  }

  /** Status, response time and time of every result since `from` (for uptime figures). */
  since(organizationId: number, websiteId: number, from: Date) {
    return this.collection
      .find(
        { organizationId, websiteId, startedAt: { $gte: from } },
        {
          projection: { _id: 0, status: 1, startedAt: 1, 'timings.total': 1 },
          sort: { startedAt: 1 },
        },
      )
      .toArray() as Promise<
      Array<
        Pick<CheckResultDocument, 'status' | 'startedAt'> & {
          timings: { total: number };
        }
      >
    >;
  }

  /** Retention cleanup: results past their package's retention. */
  async deleteExpired(now: Date): Promise<number> {
    return (await this.collection.deleteMany({ retainUntil: { $lt: now } })).deletedCount;
  }
}
