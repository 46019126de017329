import type { CrawlReport, CrawlResult, LinkErrorCode } from '../../../crawl/index.js';
import type { SitemapReport } from '../../../sitemaps/index.js';
import { downVerdict, type MonitorVerdict, upVerdict } from '../../verdict.js';

/** What a crawl saw: its report and coverage, the sitemaps' report, and the run's id. */
export interface CrawlObservation {
  startedAt: Date;
  /** The start page's address (null: not reached). */
  address: string | null;
  runId: string;
  /** Why its start page's host was not crawled at all (the SSRF guard, DNS); null: it was. */
  refused: { code: string; message: string } | null;
  crawl: CrawlResult | null;
  sitemap: SitemapReport | null;
}

/**
 * A crawl judged (pure): down only when it could not crawl (its start page or robots.txt did not
 * answer: the site is down, which changes no finding); a crawl that ran is up whatever it found,
 * its findings being told as their own events.
 */
export function crawlVerdict(seen: {
  refused: CrawlObservation['refused'];
  crawl: { report: Pick<CrawlReport, 'outcome' | 'failure'> } | null;
}): MonitorVerdict {
  if (seen.refused) return downVerdict(seen.refused.code, seen.refused.message);
  const report = seen.crawl?.report;
  if (report?.outcome !== 'failed') return upVerdict();
  const code = report.failure?.code;
  return downVerdict(
    (code && PROBE_CODES[code]) ?? 'CRAWL_FAILED',
    `${report.failure?.message ?? 'the crawl could not start'}`,
  );
}

/** A start page's failure as other kinds' results name it (the rest: CRAWL_FAILED). */
const PROBE_CODES: Partial<Record<LinkErrorCode, string>> = {
  timeout: 'TIMEOUT',
  dns: 'DNS',
  tls: 'TLS',
  'connection-refused': 'CONNECT',
  connection: 'CONNECT',
  blocked: 'BLOCKED_TARGET',
};

/** What a crawl's result keeps: its counts and bounds (the findings are kept apart, across crawls). */
export function crawlEvidence(seen: CrawlObservation) {
  if (!seen.crawl) return { runId: seen.runId, outcome: 'failed' as const, refused: seen.refused };
  const { report } = seen.crawl;
  const count = (type: string, category?: string) =>
    report.findings.filter(
      (finding) =>
        finding.type === type && (!category || ('category' in finding && finding.category === category)),
    ).length;
  return {
    runId: seen.runId,
    outcome: report.outcome,
    failure: report.failure,
    pagesCrawled: report.pages.length,
    linksChecked: report.linksChecked,
    requests: report.requests,
    brokenLinks: count('broken-link'),
    mixedContent: { active: count('mixed-content', 'active'), passive: count('mixed-content', 'passive') },
    stoppedBy: report.stoppedBy.map(({ bound, limit, count: held }) => ({ bound, limit, count: held })),
    skipped: report.skipped,
    robots: report.robots,
    sitemap: seen.sitemap
      ? {
          found: seen.sitemap.found,
          files: seen.sitemap.sitemaps.length,
          urlCount: seen.sitemap.urlCount,
          errorCount: seen.sitemap.errorCount,
          stoppedBy: seen.sitemap.stoppedBy,
        }
      : null,
  };
}
