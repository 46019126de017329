import { z } from 'zod';
import { crawlSettingsSchema, crawlSite } from '../../../crawl/index.js';
import { limitsOf } from '../../../packages/index.js';
import { readSitemaps } from '../../../sitemaps/index.js';
import { newRunId } from '../../run-files.js';
import { defineProbeKind } from '../probe-kind.js';
import { reachablePage, SCHEDULE_SECONDS, scheduleField, siteUrlField } from '../site-kind.js';
import { type CrawlObservation, crawlEvidence, crawlVerdict } from './crawl.verdict.js';

/** A crawl's whole time: the sitemaps read first (at most `SITEMAP_SHARE`), then the pages. */
const CRAWL_DEADLINE_MS = 15 * 60_000;
const SITEMAP_SHARE = 0.2;
/** Sitemap URLs a crawl starts from besides its start page (the rest are sampled by the sitemap read). */
const MAX_SEEDS = 1000;

const crawlFields = {
  schedule: scheduleField(['hourly', 'daily', 'weekly'], 'daily'),
  startUrl: siteUrlField.optional().describe("Where the crawl starts (default: the website's URL)"),
  maxPages: crawlSettingsSchema.shape.maxPages
    .unwrap()
    .optional()
    .describe("Pages read for links at most (default and ceiling: the package's maxCrawlPages)"),
  maxDepth: crawlSettingsSchema.shape.maxDepth,
  extraHosts: crawlSettingsSchema.shape.extraHosts,
  ignore: crawlSettingsSchema.shape.ignore,
  checkExternal: crawlSettingsSchema.shape.checkExternal,
  sitemap: z
    .boolean()
    .default(true)
    .describe(
      'Whether the sitemaps (robots.txt `Sitemap:` lines or /sitemap.xml) are read, validated and their URLs crawled',
    ),
};
const crawlKindSettings = z.strictObject(crawlFields);
type CrawlKindSettings = z.output<typeof crawlKindSettings>;

const startOf = (s: CrawlKindSettings) => s.startUrl ?? '';

export const crawlKind = defineProbeKind({
  kind: 'crawl',
  noun: 'site crawl',
  feature: 'siteCrawl',
  limit: 'maxCrawlsPerWebsite',
  lane: 'site',
  description:
    'Crawls the website on a `schedule` (hourly, daily, weekly) from its URL within its host (and `extraHosts`), following links and its sitemaps’ URLs up to `maxPages` (the package’s maxCrawlPages) and `maxDepth`, honouring robots.txt for the user agent `webmon` and a politeness limit (4 requests at once, 8 a second per host), every request through the SSRF guard. Every link and resource on the pages read (a, img/srcset, script, link, iframe, source, video/audio, form action) is checked once (HEAD, then GET where HEAD is refused), other hosts’ too unless `checkExternal` is false; URLs matching `ignore` are skipped. Findings — broken links (≥ 400, DNS, timeout, TLS, a redirect loop or a chain over 10) with the pages they appear on, mixed content (http: on https: pages, active or passive), sitemap errors — are kept across crawls at GET /api/monitors/{id}/findings; new ones raise `site.links_broken` and `site.mixed_content`. A crawl whose start page does not answer is down and changes no finding. Checked from one region. Package feature `siteCrawl`, limits `maxCrawlsPerWebsite`, `maxCrawlPages` and `maxCrawlsPerDay`.',
  fields: crawlFields,
  settings: crawlKindSettings,
  checkedFrom: 'one-region',
  cadence: {
    intervalSeconds: (s) => SCHEDULE_SECONDS[s.schedule],
    timeoutSeconds: () => CRAWL_DEADLINE_MS / 1000,
  },
  fromWebsite: (s, websiteUrl) => ({ ...s, startUrl: s.startUrl ?? websiteUrl }),
  hostOf: (s) => (URL.canParse(startOf(s)) ? new URL(startOf(s)).hostname.replace(/^\[|\]$/g, '') : null),
  packageProblems: (s, pkg) => [
    ...(s.maxPages !== undefined && s.maxPages > pkg.limits.maxCrawlPages
      ? [
          {
            path: 'maxPages',
            message: `is ${s.maxPages}; the package crawls ${pkg.limits.maxCrawlPages} pages at most (limits.maxCrawlPages)`,
          },
        ]
      : []),
    ...(86_400 / SCHEDULE_SECONDS[s.schedule] > pkg.limits.maxCrawlsPerDay
      ? [
          {
            path: 'schedule',
            message: `${s.schedule} crawls more often than the package's ${pkg.limits.maxCrawlsPerDay} a day (limits.maxCrawlsPerDay)`,
          },
        ]
      : []),
  ],
  defaultName: (s) => `Site crawl ${URL.canParse(startOf(s)) ? new URL(startOf(s)).host : ''}`.trim(),
  probe: async (s, context): Promise<CrawlObservation> => {
    const startedAt = new Date();
    const runId = context.runId ?? newRunId();
    // Its start page's host judged first: a site the guard refuses is not crawled at all.
    const reached = await reachablePage(context.probe, startOf(s), context.signal);
    if (reached.failure)
      return { startedAt, address: null, runId, refused: reached.failure, crawl: null, sitemap: null };
    const deadlineAt = startedAt.getTime() + Math.min(context.timeoutMs, CRAWL_DEADLINE_MS);
    const maxPages = Math.min(
      s.maxPages ?? Number.POSITIVE_INFINITY,
      limitsOf({ limits: context.limits ?? {} }).maxCrawlPages,
    );
    context.onProgress?.({ stage: 'reading the sitemaps', done: 0, total: null });
    const sitemap = s.sitemap
      ? await readSitemaps(startOf(s), {
          probe: context.probe,
          now: startedAt,
          deadlineMs: Math.max(1, Math.floor((deadlineAt - Date.now()) * SITEMAP_SHARE)),
          maxUrlsKept: MAX_SEEDS,
          ...(context.signal ? { signal: context.signal } : {}),
        })
      : null;
    const crawl = await crawlSite({
      startUrl: startOf(s),
      seeds: sitemap?.urls ?? [],
      settings: { ...s, maxPages },
      probe: context.probe,
      limits: { deadlineMs: Math.max(1, deadlineAt - Date.now()) },
      ...(context.signal ? { signal: context.signal } : {}),
      onProgress: (progress) =>
        context.onProgress?.({
          stage: `crawling: ${progress.pagesCrawled} pages read, ${progress.linksChecked} links checked, ${progress.queued} waiting`,
          done: progress.pagesCrawled,
          total: maxPages,
        }),
    });
    return { startedAt, address: reached.address, runId, refused: null, crawl, sitemap };
  },
  verdict: (_s, seen) => crawlVerdict(seen),
  evidence: crawlEvidence,
  timings: (seen) => ({ totalMs: Date.now() - seen.startedAt.getTime() }),
  // Not crawled (refused): nothing is known of its findings, as after a failed crawl.
  site: (seen) => ({
    runId: seen.runId,
    ...(seen.crawl ? { crawl: { result: seen.crawl, sitemap: seen.sitemap } } : {}),
  }),
});
