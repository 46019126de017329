import type { AnyBulkWriteOperation, Db, Filter } from 'mongodb';
import { type CollectionIndexes, chunkedBulkWrite } from '../db/index.js';
import {
  type FindingState,
  type FindingsComparison,
  type FindingType,
  type SiteFinding,
  siteFindingKey,
} from './site-findings.js';

export const SITE_FINDINGS = 'site_findings';

/** Whose finding it is: the monitor that found it, its website and customer (tenancy on every read). */
export interface FindingOwner {
  organizationId: number;
  customerId: number;
  websiteId: number;
  monitorId: number;
}

interface FindingDocument extends FindingOwner {
  /** `<monitorId> <key>`: one document per finding and monitor, whatever its state. */
  _id: string;
  type: FindingType;
  state: FindingState;
  finding: SiteFinding;
  /** The run that last found it (or fixed it). */
  runId: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
  fixedAt: Date | null;
  /** A fixed finding is forgotten after the result retention. */
  retainUntil: Date | null;
}

/** A finding as the API lists it. */
export interface StoredFinding {
  finding: SiteFinding;
  state: FindingState;
  fixedAt: Date | null;
}

export const siteFindingIndexes: CollectionIndexes = {
  collection: SITE_FINDINGS,
  indexes: [
    { key: { organizationId: 1, monitorId: 1, state: 1, type: 1 }, name: 'monitor_state' },
    { key: { organizationId: 1, websiteId: 1, state: 1 }, name: 'website_state' },
    { key: { organizationId: 1, websiteId: 1, fixedAt: 1 }, name: 'website_fixed' },
    { key: { retainUntil: 1 }, name: 'retain_until' },
  ],
};

/**
 * The findings of websites' crawls, kept across crawls: open ones as the last crawl found them,
 * fixed ones until their retention ends. One writer per monitor (its run holds the lease), so a
 * whole document is written, never merged.
 */
export class SiteFindings {
  constructor(private readonly db: Db) {}

  private get collection() {
    return this.db.collection<FindingDocument>(SITE_FINDINGS);
  }

  /** The monitor's open findings, as the comparison reads them. */
  async open(owner: FindingOwner): Promise<SiteFinding[]> {
    const found = await this.collection
      .find({ organizationId: owner.organizationId, monitorId: owner.monitorId, state: 'open' })
      .project<{ finding: SiteFinding }>({ finding: 1 })
      .toArray();
    return found.map((document) => document.finding);
  }

  /** A crawl's comparison written: opened and still open findings as found, fixed ones marked. */
  async apply(
    owner: FindingOwner,
    comparison: FindingsComparison,
    run: { runId: string; at: Date; retentionDays: number },
  ): Promise<void> {
    const retainUntil = new Date(run.at.getTime() + run.retentionDays * 86_400_000);
    const idOf = (finding: SiteFinding) => `${owner.monitorId} ${siteFindingKey(finding)}`;
    const operations: AnyBulkWriteOperation<FindingDocument>[] = [
      ...[...comparison.opened, ...comparison.stillOpen].map((finding) => ({
        replaceOne: {
          filter: { _id: idOf(finding) },
          replacement: {
            ...owner,
            type: finding.type,
            state: 'open' as const,
            finding,
            runId: run.runId,
            firstSeenAt: new Date(finding.firstSeenAt),
            lastSeenAt: new Date(finding.lastSeenAt),
            fixedAt: null,
            retainUntil: null,
          },
          upsert: true,
        },
      })),
      ...comparison.fixed.map((finding) => ({
        replaceOne: {
          filter: { _id: idOf(finding) },
          replacement: {
            ...owner,
            type: finding.type,
            state: 'fixed' as const,
            finding,
            runId: run.runId,
            firstSeenAt: new Date(finding.firstSeenAt),
            lastSeenAt: new Date(finding.lastSeenAt),
            fixedAt: run.at,
            retainUntil,
          },
          upsert: true,
        },
      })),
    ];
    // In chunks: a large site's first crawl opens thousands at once, and FerretDB hangs on 100 updates in one.
    await chunkedBulkWrite(this.collection, operations);
  }

  /** A monitor's findings, newest first, of a type and state when given. */
  async list(
    owner: Pick<FindingOwner, 'organizationId' | 'monitorId'>,
    filter: { type?: FindingType | undefined; state?: FindingState | undefined; limit: number },
  ): Promise<{ findings: StoredFinding[]; total: number }> {
    const query: Filter<FindingDocument> = {
      organizationId: owner.organizationId,
      monitorId: owner.monitorId,
      ...(filter.type ? { type: filter.type } : {}),
      ...(filter.state ? { state: filter.state } : {}),
    };
    const [documents, total] = await Promise.all([
      this.collection.find(query).sort({ lastSeenAt: -1, _id: 1 }).limit(filter.limit).toArray(),
      this.collection.countDocuments(query),
    ]);
    return {
      findings: documents.map(({ finding, state, fixedAt }) => ({ finding, state, fixedAt })),
      total,
    };
  }

  /** Open findings per website and type, for the organization's overview of its sites. */
  async openCounts(
    organizationId: number,
    websiteIds?: readonly number[],
  ): Promise<Map<number, Record<FindingType, number>>> {
    const rows = await this.collection
      .aggregate<{ _id: { websiteId: number; type: FindingType }; count: number }>([
        {
          $match: {
            organizationId,
            state: 'open',
            ...(websiteIds ? { websiteId: { $in: [...websiteIds] } } : {}),
          },
        },
        { $group: { _id: { websiteId: '$websiteId', type: '$type' }, count: { $sum: 1 } } },
      ])
      .toArray();
    const counts = new Map<number, Record<FindingType, number>>();
    for (const row of rows) {
      const entry = counts.get(row._id.websiteId) ?? { 'broken-link': 0, 'mixed-content': 0, sitemap: 0 };
      entry[row._id.type] = row.count;
      counts.set(row._id.websiteId, entry);
    }
    return counts;
  }

  /** A website's findings opened or fixed within a period, for its client report. */
  async changedWithin(
    organizationId: number,
    websiteId: number,
    period: { from: Date; to: Date },
  ): Promise<Array<StoredFinding & { firstSeenAt: Date }>> {
    const documents = await this.collection
      .find({
        organizationId,
        websiteId,
        $or: [
          { firstSeenAt: { $gte: period.from, $lt: period.to } },
          { fixedAt: { $gte: period.from, $lt: period.to } },
          { state: 'open', firstSeenAt: { $lt: period.to } },
          // Open at the period's end, fixed since: a past period's report counts it open.
          { firstSeenAt: { $lt: period.to }, fixedAt: { $gte: period.to } },
        ],
      })
      .toArray();
    return documents.map(({ finding, state, fixedAt, firstSeenAt }) => ({
      finding,
      state,
      fixedAt,
      firstSeenAt,
    }));
  }

  /** A removed monitor's findings. */
  async forget(owner: Pick<FindingOwner, 'organizationId' | 'monitorId'>): Promise<void> {
    await this.collection.deleteMany({ organizationId: owner.organizationId, monitorId: owner.monitorId });
  }

  /** Fixed findings past their retention. */
  async deleteExpired(now: Date): Promise<number> {
    const { deletedCount } = await this.collection.deleteMany({ retainUntil: { $lt: now } });
    return deletedCount;
  }
}
