import type { Schemas } from '../api/client.js';
import { useMonitorLatest } from '../api/monitors.js';
import { formatIn } from '../maintenance/zoned-time.js';
import { StatusBadge } from '../ui/status.js';
import { BrokenLinks, MixedContent, SitemapErrors } from './crawl-findings.js';
import { counted } from './scores.js';
import { SiteRunNow } from './site-run-now.js';

type CrawlCheck = Schemas['CrawlCheck'];
/** How often the findings are read when the crawl's results cannot be (a client user's). */
const FINDINGS_POLL_MS = 60_000;

/** What a crawl's result keeps of its run (its evidence): counts, the bounds it met, its sitemaps. */
interface CrawlEvidence {
  outcome?: 'complete' | 'partial' | 'failed';
  failure?: { message: string } | null;
  refused?: string | null;
  pagesCrawled?: number;
  linksChecked?: number;
  stoppedBy?: Array<{ bound: string; limit: number }>;
  skipped?: { robots: number; ignored: number; external: number };
  sitemap?: {
    found: 'robots.txt' | 'default' | 'none';
    files: number;
    urlCount: number;
    errorCount: number;
    stoppedBy: Array<{ message: string }>;
  } | null;
}

/** How the sitemaps were found, in words. */
const FOUND = { 'robots.txt': 'named in robots.txt', default: 'at /sitemap.xml', none: 'none found' };

/** What the last crawl did: when, how it ended, pages and links, what stopped it short. */
function LastCrawl({ evidence, at, zone }: { evidence: CrawlEvidence; at: string; zone: string }) {
  const skipped = evidence.skipped;
  const skips = skipped
    ? [
        skipped.robots ? `${counted(skipped.robots, 'URL')} robots.txt forbids` : '',
        skipped.ignored ? `${counted(skipped.ignored, 'URL')} ignored` : '',
        skipped.external ? `${counted(skipped.external, 'external link')} not checked` : '',
      ].filter(Boolean)
    : [];
  return (
    <>
      <dt>Last crawl</dt>
      <dd>
        {formatIn(at, zone)}:{' '}
        {evidence.outcome === 'failed'
          ? `failed — ${evidence.failure?.message ?? evidence.refused ?? 'the site did not answer'}; findings unchanged`
          : `${evidence.outcome === 'partial' ? 'partial' : 'complete'}, ${counted(evidence.pagesCrawled ?? 0, 'page')} crawled, ${counted(evidence.linksChecked ?? 0, 'other link')} checked`}
        {skips.length > 0 && <span class="muted"> ({skips.join(', ')})</span>}
      </dd>
      {(evidence.stoppedBy ?? []).length > 0 && (
        <>
          <dt>Stopped short by</dt>
          <dd>{evidence.stoppedBy?.map((hit) => `${hit.bound} (${hit.limit})`).join(', ')}</dd>
        </>
      )}
    </>
  );
}

/** The sitemaps as the last crawl read them: found how, files, URLs listed, errors. */
function SitemapState({ check, evidence }: { check: CrawlCheck; evidence: CrawlEvidence | null }) {
  if (!check.sitemap) return <p>Sitemaps are not read: turned off in this crawl’s settings.</p>;
  const sitemap = evidence?.sitemap;
  if (!evidence || evidence.outcome === 'failed' || !sitemap)
    return <p class="muted">Known after a crawl that reached the site.</p>;
  if (sitemap.found === 'none')
    return (
      <p class="warn-text">
        <span aria-hidden="true">! </span>No sitemap: robots.txt names none and /sitemap.xml is not there.
      </p>
    );
  return (
    <p>
      {sitemap.errorCount === 0 ? '✓ ' : ''}
      {counted(sitemap.files, 'sitemap file')} {FOUND[sitemap.found]}, listing{' '}
      {counted(sitemap.urlCount, 'URL')}; {counted(sitemap.errorCount, 'error')}.
      {sitemap.stoppedBy.length > 0 && (
        <span class="muted"> {sitemap.stoppedBy.map((s) => s.message).join('; ')}</span>
      )}
    </p>
  );
}

/** A crawl's part of the Site health tab: its last run, run now, broken links, mixed content, sitemaps. */
export function CrawlSection({
  check,
  site,
  zone,
  editor,
  pollMs,
}: {
  check: CrawlCheck;
  site: string;
  zone: string;
  editor: boolean;
  pollMs: number;
}) {
  const latest = useMonitorLatest(check.id, check.updatedAt, pollMs);
  const result = latest.data;
  const evidence = result ? ((result.evidence as CrawlEvidence | undefined) ?? null) : null;
  // A client user may read the findings but not the monitor's results: its findings are read on
  // their own then, else again when a new crawl's result lands.
  const unread = latest.error !== null;
  const props = {
    monitorId: check.id,
    site,
    zone,
    version: result?.at ?? 'none',
    pollMs: unread ? FINDINGS_POLL_MS : undefined,
  };
  const id = `crawl-${check.id}`;
  return (
    <section class="site-section" aria-labelledby={id}>
      <h2 id={id}>
        <span class="kind">Site crawl:</span> {check.name}
      </h2>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={check.status} />
          {check.lastCause && <span class="muted"> — {check.lastCause}</span>}
        </dd>
        <dt>Crawls</dt>
        <dd>
          {check.schedule}, up to {check.maxPages ? counted(check.maxPages, 'page') : 'the package’s pages'},{' '}
          {counted(check.maxDepth, 'click')} deep
          {check.checkExternal ? ', links to other sites checked' : ', links to other sites not checked'}
        </dd>
        {result === undefined && !unread && (
          <>
            <dt>Last crawl</dt>
            <dd>Loading…</dd>
          </>
        )}
        {result === null && (
          <>
            <dt>Last crawl</dt>
            <dd>none yet: the first crawl is on its way (a few minutes for a small site)</dd>
          </>
        )}
        {result && evidence && <LastCrawl evidence={evidence} at={result.at} zone={zone} />}
      </dl>
      {editor && <SiteRunNow monitor={check} />}
      {(result || unread) && (
        <>
          <h3>Broken links</h3>
          <BrokenLinks {...props} />
          <h3>Mixed content</h3>
          <MixedContent {...props} />
          <h3>Sitemap</h3>
          {!unread && <SitemapState check={check} evidence={evidence} />}
          {check.sitemap && <SitemapErrors {...props} />}
        </>
      )}
    </section>
  );
}
