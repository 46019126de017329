import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CrawlFinding,
  type CrawlLimits,
  type CrawlResult,
  compareCrawls,
  crawlSettingsSchema,
  crawlSite,
} from '../libs/crawl/index.js';
import { type ProbeOptions, TlsContexts } from '../libs/probe/index.js';
import { type GeneratedSite, type Mention, startGeneratedSite } from './support/generated-site.js';

let site: GeneratedSite;
let probe: ProbeOptions;
/** Fast politeness for the big crawls: the site is local. */
const fast: Partial<CrawlLimits> = {
  perHostConcurrency: 8,
  perHostPerSecond: 5_000,
  requestTimeoutMs: 3_000,
};
const settings = crawlSettingsSchema.parse({ maxPages: 1_000, maxDepth: 12 });

beforeAll(async () => {
  site = await startGeneratedSite();
  probe = {
    // Private targets stay refused: only the site's own address is exempt, so links and redirects
    // to 10.0.0.5, 169.254.169.254 or 127.0.0.2 meet the guard.
    allowPrivateTargets: false,
    exemptAddresses: [{ address: '127.0.0.1', exceptPorts: [] }],
    resolve: site.resolve,
    tls: new TlsContexts([site.ca.cert]),
    userAgent: 'webmon/test (website monitoring)',
  };
});
afterAll(async () => {
  await site?.close();
});

/** The pages a URL is planted on, each with its first mention there, as findings list them. */
function plantedPages(url: string) {
  const firstByPage = new Map<string, Mention>();
  for (const mention of site.plan.mentions.get(url) ?? [])
    if (!firstByPage.has(mention.page)) firstByPage.set(mention.page, mention);
  return [...firstByPage.values()].sort((a, b) => a.page.localeCompare(b.page));
}

/** A finding as the planted sets say it: its URL, how it broke or its category, and its pages. */
function comparable(finding: CrawlFinding) {
  const pages = [...finding.pages].sort((a, b) => a.page.localeCompare(b.page));
  if (finding.type === 'mixed-content') return { url: finding.url, as: finding.category, pages };
  return {
    url: finding.url,
    as: finding.error ? { error: finding.error.code } : { status: finding.status },
    pages,
  };
}

function ofType(result: CrawlResult, type: CrawlFinding['type']) {
  return result.report.findings
    .filter((finding) => finding.type === type)
    .map(comparable)
    .sort((a, b) => a.url.localeCompare(b.url));
}

const plantedBroken = () =>
  [...site.plan.broken]
    .map(([url, as]) => ({ url, as, pages: plantedPages(url) }))
    .sort((a, b) => a.url.localeCompare(b.url));

describe('crawling the generated site', () => {
  let first: CrawlResult;
  let requestsBefore = 0;
  const progress: number[] = [];

  beforeAll(async () => {
    requestsBefore = site.requests.length;
    first = await crawlSite({
      startUrl: site.startUrl,
      settings,
      probe,
      limits: fast,
      onProgress: (seen) => progress.push(seen.pagesCrawled),
    });
  }, 60_000);

  it('finds exactly the planted broken links, each with the pages it is on and how it broke', () => {
    expect(site.plan.broken.size).toBe(100);
    expect(site.plan.linkCount).toBeGreaterThanOrEqual(5_000);
    expect(ofType(first, 'broken-link')).toEqual(plantedBroken());
  });

  it('finds exactly the planted mixed content, active and passive', () => {
    const planted = [...site.plan.mixed]
      .map(([url, as]) => ({ url, as, pages: plantedPages(url) }))
      .sort((a, b) => a.url.localeCompare(b.url));
    expect(planted).toHaveLength(20);
    expect(planted.filter((item) => item.as === 'active')).toHaveLength(10);
    expect(ofType(first, 'mixed-content')).toEqual(planted);
  });

  it('crawls every page of the site and nothing of another host', () => {
    const crawled = new Set(first.report.pages.map((page) => page.url));
    for (const path of site.plan.pages.keys()) expect(crawled).toContain(new URL(path, site.startUrl).href);
    for (const page of first.report.pages) expect(new URL(page.url).hostname).toBe('site.test');
    const external = site.requests.slice(requestsBefore).filter((request) => request.server === 'external');
    // Each partner link checked once (HEAD), none of the partner's own links followed.
    expect(external.map((request) => `${request.method} ${request.path}`).sort()).toEqual(
      site.plan.externalLinks.map((url) => `HEAD ${new URL(url).pathname}`).sort(),
    );
  });

  it('never reaches a private address through a link or a redirect', () => {
    expect(site.privateHits()).toBe(0);
    const blocked = first.report.findings.filter(
      (finding) => finding.type === 'broken-link' && finding.error?.code === 'blocked',
    );
    expect(blocked.map((finding) => new URL(finding.url).pathname).sort()).toEqual(
      ['/', '/direct', '/go/private', '/latest/meta-data/'].sort(),
    );
  });

  it('honours robots.txt for webmon: nothing under /private/ is requested', () => {
    const privateRequests = site.requests
      .slice(requestsBefore)
      .filter((request) => request.path.startsWith('/private/'));
    expect(privateRequests).toEqual([]);
    expect(first.report.skipped.robots).toBe(site.plan.privateLinks.length);
    expect(first.report.robots).toEqual(
      expect.arrayContaining([{ origin: site.plan.origins.https, state: 'parsed', status: 200 }]),
    );
    expect(first.coverage.uncheckedUrls).toEqual(new Set(site.plan.privateLinks));
  });

  it('checks each URL once and says the bounds that stopped it: depth, the big page, the gzip bomb', () => {
    const asked = new Map<string, number>();
    for (const request of site.requests.slice(requestsBefore)) {
      const key = `${request.server} ${request.method} ${request.path}`;
      asked.set(key, (asked.get(key) ?? 0) + 1);
    }
    // Asked twice: only where a redirect ends (reached as a hop, then read as a page of its own).
    const twice = [...asked].filter(([, times]) => times > 1).map(([key]) => key);
    expect(twice.sort()).toEqual(
      ['https GET /chain10/10', ...[0, 1, 2, 3, 4].map((n) => `https GET /p/${n}`)].sort(),
    );
    const bounds = Object.fromEntries(first.report.stoppedBy.map((hit) => [hit.bound, hit]));
    expect(Object.keys(bounds).sort()).toEqual(['compressionRatio', 'maxDepth', 'pageBytes']);
    expect(bounds.maxDepth).toMatchObject({
      limit: 12,
      count: 1,
      examples: [`${site.plan.origins.https}/calendar/2025-01`],
    });
    expect(bounds.pageBytes).toMatchObject({ count: 1, examples: [`${site.plan.origins.https}/big`] });
    expect(bounds.compressionRatio).toMatchObject({
      count: 1,
      examples: [`${site.plan.origins.https}/bomb`],
    });
    // What was read of the big page counts; what lies past the bound was never seen.
    expect(first.report.findings.some((finding) => finding.url.endsWith('/beyond-the-bound'))).toBe(false);
    expect(first.report.outcome).toBe('partial');
    expect(first.report.pages.filter((page) => page.url.includes('/calendar/'))).toHaveLength(12);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(first.report.pages.length);
  });

  it('after fixing two links and breaking one, the comparison says exactly those changes', async () => {
    const at = new Date(first.report.finishedAt);
    const before = compareCrawls([], first, at).open;
    const fixedUrls = [`${site.plan.origins.https}/missing/page-0`, `${site.plan.origins.https}/error/0`];
    const brokenUrl = `${site.plan.origins.https}/assets/img-7.png`;
    site.answers.set('/missing/page-0', 200);
    site.answers.set('/error/0', 200);
    site.answers.set('/assets/img-7.png', 404);
    try {
      const second = await crawlSite({ startUrl: site.startUrl, settings, probe, limits: fast });
      const later = new Date(second.report.finishedAt);
      const compared = compareCrawls(before, second, later);
      expect(compared.opened.map(comparable)).toEqual([
        { url: brokenUrl, as: { status: 404 }, pages: plantedPages(brokenUrl) },
      ]);
      expect(compared.opened[0]?.firstSeenAt).toBe(later.toISOString());
      expect(compared.fixed.map((finding) => finding.url).sort()).toEqual(fixedUrls.sort());
      expect(compared.stillOpen).toHaveLength(before.length - 2);
      expect(compared.stillOpen.every((finding) => finding.firstSeenAt === at.toISOString())).toBe(true);
      expect(compared.untouched).toEqual([]);

      // The site down: the crawl fails as a whole and the comparison leaves every finding open.
      site.down = true;
      const failed = await crawlSite({ startUrl: site.startUrl, settings, probe, limits: fast });
      expect(failed.report).toMatchObject({
        outcome: 'failed',
        findings: [],
        failure: { reason: 'robots-unreachable' },
      });
      const afterFailure = compareCrawls(compared.open, failed, new Date());
      expect(afterFailure.fixed).toEqual([]);
      expect(afterFailure.opened).toEqual([]);
      expect(afterFailure.open).toEqual(compared.open);
    } finally {
      site.down = false;
      site.answers.clear();
    }
  }, 60_000);
});

describe('the bounds of a crawl', () => {
  it('stops at its page bound on an endless calendar, within the politeness limits', async () => {
    const from = site.requests.length;
    const result = await crawlSite({
      startUrl: `${site.plan.origins.https}/calendar/2024-01`,
      settings: crawlSettingsSchema.parse({ maxPages: 10, maxDepth: 100 }),
      probe,
    });
    expect(result.report.pages.map((page) => new URL(page.url).pathname)).toEqual(
      Array.from({ length: 10 }, (_, n) => `/calendar/2024-${String(n + 1).padStart(2, '0')}`),
    );
    expect(result.report.stoppedBy).toEqual([
      { bound: 'maxPages', limit: 10, count: 1, examples: [`${site.plan.origins.https}/calendar/2024-11`] },
    ]);
    expect(result.report.outcome).toBe('partial');
    const requests = site.requests.slice(from);
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /robots.txt',
      ...Array.from({ length: 10 }, (_, n) => `GET /calendar/2024-${String(n + 1).padStart(2, '0')}`),
      'HEAD /calendar/2024-11',
    ]);
    // 8 a second by default: starts 125 ms apart. Judged over the whole run, as the server sees
    // them: one request held up in transit on a busy machine narrows a single gap, not the span.
    const span = requests.at(-1)!.at - requests[0]!.at;
    expect(span).toBeGreaterThan((requests.length - 1) * 125 - 100);
  });

  it('stops at its request budget and deadline and says so', async () => {
    const budgeted = await crawlSite({
      startUrl: site.startUrl,
      settings,
      probe,
      limits: { ...fast, requestBudget: 30 },
    });
    expect(budgeted.report.requests).toBe(30);
    expect(budgeted.report.stoppedBy.find((hit) => hit.bound === 'requestBudget')).toMatchObject({
      limit: 30,
    });
    expect(budgeted.report.outcome).toBe('partial');

    const started = performance.now();
    const late = await crawlSite({ startUrl: site.startUrl, settings, probe, limits: { deadlineMs: 1_000 } });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(late.report.stoppedBy.find((hit) => hit.bound === 'deadline')).toMatchObject({ limit: 1_000 });
    expect(late.report.outcome).toBe('partial');
  });

  it('is cancelled by its signal at once, and requests nothing after', async () => {
    const abort = new AbortController();
    const crawl = crawlSite({ startUrl: site.startUrl, settings, probe, signal: abort.signal });
    setTimeout(() => abort.abort(new Error('cancelled by the test')), 500);
    await expect(crawl).rejects.toThrow('cancelled by the test');
    const count = site.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(site.requests.length).toBe(count);
  });
});
