import type { Db } from 'mongodb';
import type { CollectionIndexes } from '../db/index.js';
import type { LighthouseBreaches, LighthouseFigures, LighthousePreset } from '../lighthouse/index.js';
import type { FindingOwner } from './site-findings.repository.js';

export const LIGHTHOUSE_RUNS = 'lighthouse_runs';

/** A page and preset's Lighthouse run as its history keeps it. */
export interface LighthouseRunRecord extends FindingOwner {
  /** `<runId> <place in the check>`. */
  _id: string;
  runId: string;
  at: Date;
  url: string;
  preset: LighthousePreset;
  outcome: 'completed' | 'failed' | 'deadline' | 'cancelled';
  error: string | null;
  /** Its scores, metrics and the audits that cost most (null: it gave none). */
  figures: LighthouseFigures | null;
  breaches: LighthouseBreaches | null;
  /** The run's file holding its HTML report (null: not kept), and why not whole. */
  report: string | null;
  reportNote: string | null;
  retainUntil: Date;
}

export const lighthouseRunIndexes: CollectionIndexes = {
  collection: LIGHTHOUSE_RUNS,
  indexes: [
    { key: { organizationId: 1, monitorId: 1, at: -1 }, name: 'monitor_at' },
    { key: { organizationId: 1, websiteId: 1, at: -1 }, name: 'website_at' },
    { key: { retainUntil: 1 }, name: 'retain_until' },
  ],
};

/** Lighthouse's scores and metrics over time, per monitor, page and preset (kept as long as results). */
export class LighthouseHistory {
  constructor(private readonly db: Db) {}

  private get collection() {
    return this.db.collection<LighthouseRunRecord>(LIGHTHOUSE_RUNS);
  }

  /** The last scored run of each page and preset of a monitor (what the next run is compared with). */
  async lastScored(
    owner: Pick<FindingOwner, 'organizationId' | 'monitorId'>,
  ): Promise<LighthouseRunRecord[]> {
    const rows = await this.collection
      .find({ organizationId: owner.organizationId, monitorId: owner.monitorId, figures: { $ne: null } })
      .sort({ at: -1 })
      .limit(200)
      .toArray();
    const last = new Map<string, LighthouseRunRecord>();
    for (const row of rows)
      if (!last.has(`${row.url} ${row.preset}`)) last.set(`${row.url} ${row.preset}`, row);
    return [...last.values()];
  }

  async add(records: readonly LighthouseRunRecord[]): Promise<void> {
    if (records.length === 0) return;
    // A retried write of the same run stores each record once.
    await this.collection.insertMany([...records], { ordered: false }).catch((error: unknown) => {
      if ((error as { code?: number }).code !== 11000) throw error;
    });
  }

  /** A monitor's runs, newest first, within a period when given. */
  list(
    owner: Pick<FindingOwner, 'organizationId' | 'monitorId'>,
    options: { limit: number; from?: Date | undefined; to?: Date | undefined },
  ): Promise<LighthouseRunRecord[]> {
    return this.collection
      .find({
        organizationId: owner.organizationId,
        monitorId: owner.monitorId,
        ...(options.from || options.to
          ? {
              at: {
                ...(options.from ? { $gte: options.from } : {}),
                ...(options.to ? { $lt: options.to } : {}),
              },
            }
          : {}),
      })
      .sort({ at: -1 })
      .limit(options.limit)
      .toArray();
  }

  /** A website's scored runs within a period, oldest first (a client report's start and end). */
  forWebsite(organizationId: number, websiteId: number, period: { from: Date; to: Date }) {
    return this.collection
      .find({ organizationId, websiteId, figures: { $ne: null }, at: { $gte: period.from, $lt: period.to } })
      .sort({ at: 1 })
      .toArray();
  }

  /** One run's record of a monitor (another organization's: null). */
  findRun(owner: Pick<FindingOwner, 'organizationId' | 'monitorId'>, runId: string) {
    return this.collection
      .find({ organizationId: owner.organizationId, monitorId: owner.monitorId, runId })
      .sort({ _id: 1 })
      .toArray();
  }

  async forget(owner: Pick<FindingOwner, 'organizationId' | 'monitorId'>): Promise<void> {
    await this.collection.deleteMany({ organizationId: owner.organizationId, monitorId: owner.monitorId });
  }

  async deleteExpired(now: Date): Promise<number> {
    const { deletedCount } = await this.collection.deleteMany({ retainUntil: { $lt: now } });
    return deletedCount;
  }
}
