import type { Db } from 'mongodb';
import { z } from 'zod';
import type { CollectionIndexes } from '../db/index.js';
import { lighthousePresetSchema, lighthouseScoresSchema } from '../lighthouse/index.js';
import type { FindingOwner } from './site-findings.repository.js';

export const SITE_HEALTH_SUMMARIES = 'site_health_summaries';

/** Where a crawl monitor stands after its last run: its open findings counted. */
export const crawlStandingSchema = z.object({
  at: z.iso.datetime().describe('When its last crawl ran'),
  outcome: z.enum(['complete', 'partial', 'failed']),
  pagesCrawled: z.number().int(),
  brokenLinks: z.number().int().describe('Open broken links'),
  mixedContent: z.number().int().describe('Open mixed-content resources (active and passive)'),
  activeMixedContent: z.number().int(),
  sitemapErrors: z.number().int(),
});
export type CrawlStanding = z.infer<typeof crawlStandingSchema>;

/** Where a Lighthouse check stands: each page and preset's last scores. */
export const lighthouseStandingSchema = z.array(
  z.object({
    url: z.string(),
    preset: lighthousePresetSchema,
    at: z.iso.datetime(),
    scores: lighthouseScoresSchema,
  }),
);
export type LighthouseStanding = z.infer<typeof lighthouseStandingSchema>;

interface SummaryDocument extends FindingOwner {
  _id: number;
  kind: 'crawl' | 'lighthouse';
  crawl: CrawlStanding | null;
  lighthouse: LighthouseStanding | null;
}

export type SiteHealthSummary = Omit<SummaryDocument, '_id'>;

export const siteHealthSummaryIndexes: CollectionIndexes = {
  collection: SITE_HEALTH_SUMMARIES,
  indexes: [{ key: { organizationId: 1, customerId: 1 }, name: 'organization_customer' }],
};

/**
 * One document per site-health monitor saying where it stands after its last run, written with
 * the run's findings and scores: the organization's overview reads these, not every finding.
 */
export class SiteHealthSummaries {
  constructor(private readonly db: Db) {}

  private get collection() {
    return this.db.collection<SummaryDocument>(SITE_HEALTH_SUMMARIES);
  }

  async write(summary: SiteHealthSummary): Promise<void> {
    await this.collection.replaceOne({ _id: summary.monitorId }, summary, { upsert: true });
  }

  /** The organization's summaries, of one customer when given. */
  async list(organizationId: number, customerId?: number): Promise<SiteHealthSummary[]> {
    const found = await this.collection
      .find({ organizationId, ...(customerId === undefined ? {} : { customerId }) })
      .limit(10_000)
      .toArray();
    return found.map(({ _id, ...summary }) => summary);
  }

  async forget(owner: Pick<FindingOwner, 'organizationId' | 'monitorId'>): Promise<void> {
    await this.collection.deleteOne({ _id: owner.monitorId, organizationId: owner.organizationId });
  }
}
