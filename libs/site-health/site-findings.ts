import { z } from 'zod';
import {
  type CrawlResult,
  compareCrawls,
  findingKey,
  type TrackedCrawlFinding,
  trackedCrawlFindingSchema,
} from '../crawl/index.js';
import { MAX_EVENT_FINDINGS, type SiteHealthNews } from '../events/index.js';
import { SitemapErrorSchema, type SitemapReport } from '../sitemaps/index.js';

/** What a site-health run found, beside its verdict (a crawl's whole report and its sitemaps'). */
export interface CrawlFound {
  result: CrawlResult;
  sitemap: SitemapReport | null;
}

export const FINDING_TYPES = ['broken-link', 'mixed-content', 'sitemap'] as const;
export type FindingType = (typeof FINDING_TYPES)[number];
export const FINDING_STATES = ['open', 'fixed'] as const;
export type FindingState = (typeof FINDING_STATES)[number];

const seen = {
  firstSeenAt: z.iso.datetime().describe('When a crawl first found it (carried over while it stays open)'),
  lastSeenAt: z.iso.datetime().describe('When a crawl last found it'),
};

/** A sitemap's error as a finding: the file (its `url`) and what is wrong where. */
export const sitemapFindingSchema = SitemapErrorSchema.omit({ file: true })
  .extend({
    type: z.literal('sitemap'),
    url: z.string().describe('The sitemap file (or robots.txt, or the site)'),
  })
  .extend(seen)
  .meta({ id: 'SitemapFinding' });
export type SitemapFinding = z.infer<typeof sitemapFindingSchema>;

/** A finding kept across crawls, of any type. */
export const siteFindingSchema = z.union([trackedCrawlFindingSchema, sitemapFindingSchema]);
export type SiteFinding = z.infer<typeof siteFindingSchema>;

/** A finding's identity across crawls: its type and URL; a sitemap error's code and place too. */
export const siteFindingKey = (finding: SiteFinding): string =>
  finding.type === 'sitemap'
    ? `sitemap ${finding.url} ${finding.code} ${finding.line ?? ''}:${finding.column ?? ''}:${finding.entry ?? ''}`
    : findingKey(finding);

export interface FindingsComparison {
  opened: SiteFinding[];
  stillOpen: SiteFinding[];
  fixed: SiteFinding[];
  untouched: SiteFinding[];
}

/**
 * A sitemap read's errors against those open before: found again stays open, new opens; one not
 * found is fixed only when the read was whole (no bound stopped it, every error kept), else left
 * as it was. No read (sitemaps off, a failed crawl): nothing changes. Pure.
 */
function compareSitemaps(
  previousOpen: readonly SitemapFinding[],
  report: SitemapReport | null,
  at: Date,
): FindingsComparison {
  if (!report) return { opened: [], stillOpen: [], fixed: [], untouched: [...previousOpen] };
  const now = at.toISOString();
  const before = new Map(previousOpen.map((finding) => [siteFindingKey(finding), finding]));
  const opened: SiteFinding[] = [];
  const stillOpen: SiteFinding[] = [];
  const found = new Set<string>();
  for (const { file, ...error } of report.errors) {
    const draft: SitemapFinding = { ...error, type: 'sitemap', url: file, firstSeenAt: now, lastSeenAt: now };
    const key = siteFindingKey(draft);
    if (found.has(key)) continue;
    found.add(key);
    const previous = before.get(key);
    (previous ? stillOpen : opened).push({ ...draft, firstSeenAt: previous?.firstSeenAt ?? now });
  }
  const whole = report.stoppedBy.length === 0 && report.errorCount === report.errors.length;
  const gone = [...before].filter(([key]) => !found.has(key)).map(([, finding]) => finding);
  return {
    opened,
    stillOpen,
    fixed: whole ? gone : [],
    untouched: whole ? [] : gone,
  };
}

/** A crawl's findings (links, mixed content, its sitemaps) against those open before it. Pure. */
export function compareFindings(
  previousOpen: readonly SiteFinding[],
  found: CrawlFound,
  at: Date,
): FindingsComparison {
  const crawlOpen = previousOpen.filter(
    (finding): finding is TrackedCrawlFinding => finding.type !== 'sitemap',
  );
  const sitemapOpen = previousOpen.filter((finding): finding is SitemapFinding => finding.type === 'sitemap');
  const crawl = compareCrawls(crawlOpen, found.result, at);
  // A failed crawl read no sitemap worth judging either: the site was down.
  const sitemaps = compareSitemaps(
    sitemapOpen,
    found.result.report.outcome === 'failed' ? null : found.sitemap,
    at,
  );
  return {
    opened: [...crawl.opened, ...sitemaps.opened],
    stillOpen: [...crawl.stillOpen, ...sitemaps.stillOpen],
    fixed: [...crawl.fixed, ...sitemaps.fixed],
    untouched: [...crawl.untouched, ...sitemaps.untouched],
  };
}

type NewFinding = SiteHealthNews['brokenLinks'][number];

const newFinding = (finding: TrackedCrawlFinding): NewFinding => ({
  url: finding.url,
  status: finding.type === 'broken-link' ? finding.status : null,
  detail:
    finding.type === 'broken-link'
      ? finding.error
        ? `${finding.error.code}: ${finding.error.message}`
        : null
      : finding.category,
  pages: finding.pages.slice(0, 5).map(({ page, element, text }) => ({ page, element, text })),
  pageCount: finding.pageCount,
});

/** What a crawl's comparison tells people: its new broken links and mixed content, and how many were fixed. */
export function crawlNews(runId: string, comparison: FindingsComparison): SiteHealthNews {
  const opened = comparison.opened.filter(
    (finding): finding is TrackedCrawlFinding => finding.type !== 'sitemap',
  );
  const broken = opened.filter((finding) => finding.type === 'broken-link');
  // Active mixed content first: browsers block it.
  const mixed = opened
    .filter((finding) => finding.type === 'mixed-content')
    .sort(
      (a, b) =>
        Number(b.type === 'mixed-content' && b.category === 'active') -
        Number(a.type === 'mixed-content' && a.category === 'active'),
    );
  return {
    runId,
    brokenLinks: broken.slice(0, MAX_EVENT_FINDINGS).map(newFinding),
    brokenLinkCount: broken.length,
    mixedContent: mixed.slice(0, MAX_EVENT_FINDINGS).map(newFinding),
    mixedContentCount: mixed.length,
    fixedCount: comparison.fixed.length,
    lighthouse: [],
  };
}
