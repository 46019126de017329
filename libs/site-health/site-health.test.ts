import { describe, expect, it } from 'vitest';
import type { CrawlResult, TrackedCrawlFinding } from '../crawl/index.js';
import type { LighthouseAuditLost } from '../lighthouse/index.js';
import type { SitemapReport } from '../sitemaps/index.js';
import { judgeLighthouseRuns } from './lighthouse-news.js';
import { compareFindings, crawlNews, type SiteFinding } from './site-findings.js';
import { siteHealthEventKinds } from './site-health-recorder.js';

const at = new Date('2026-11-29T10:00:00Z');
const before = '2026-11-20T10:00:00.000Z';
const page = (path: string) => ({ page: `https://shop.example${path}`, element: 'a' as const, text: 'Link' });

const broken = (path: string, status = 404): TrackedCrawlFinding => ({
  type: 'broken-link',
  url: `https://shop.example${path}`,
  status,
  error: null,
  pages: [page('/')],
  pageCount: 1,
  seeded: false,
  firstSeenAt: before,
  lastSeenAt: before,
});

/** A crawl that read `/` and found `findings`, with the sitemap read as given. */
function crawled(
  findings: TrackedCrawlFinding[],
  outcome: 'complete' | 'partial' | 'failed' = 'complete',
  sitemap: SitemapReport | null = null,
) {
  const result = {
    report: {
      outcome,
      failure: null,
      findings: findings.map(({ firstSeenAt: _f, lastSeenAt: _l, ...finding }) => finding),
    },
    coverage: {
      crawledPages: new Set(['https://shop.example/']),
      checkedUrls: new Set(findings.map((f) => f.url)),
      uncheckedUrls: new Set<string>(),
      urlsDropped: false,
    },
  } as unknown as CrawlResult;
  return { result, sitemap };
}

const sitemapReport = (errors: SitemapReport['errors'], stopped = false): SitemapReport => ({
  found: 'robots.txt',
  sitemaps: [],
  urlCount: 2,
  urls: [],
  sample: [],
  errors,
  errorCount: errors.length,
  stoppedBy: stopped ? [{ bound: 'deadlineMs', message: 'stopped' }] : [],
});
const lastmodError = {
  code: 'INVALID_LASTMOD' as const,
  message: 'not a W3C date',
  file: 'https://shop.example/sitemap.xml',
  line: 3,
  column: 10,
  entry: 2,
};

describe('site health: what is new, fixed or unchanged across runs (pure)', () => {
  it('a second crawl: two links fixed, one broken anew — exactly those, the one still open keeps its first sighting', () => {
    const open: SiteFinding[] = [broken('/gone'), broken('/fails', 500), broken('/retired', 410)];
    const comparison = compareFindings(open, crawled([broken('/retired', 410), broken('/new')]), at);
    expect(comparison.opened.map((f) => f.url)).toEqual(['https://shop.example/new']);
    expect(comparison.fixed.map((f) => f.url).sort()).toEqual([
      'https://shop.example/fails',
      'https://shop.example/gone',
    ]);
    expect(comparison.stillOpen).toMatchObject([
      { url: 'https://shop.example/retired', firstSeenAt: before },
    ]);
    const news = crawlNews('run-2', comparison);
    expect(news).toMatchObject({ runId: 'run-2', brokenLinkCount: 1, mixedContentCount: 0, fixedCount: 2 });
    expect(news.brokenLinks).toEqual([
      { url: 'https://shop.example/new', status: 404, detail: null, pages: [page('/')], pageCount: 1 },
    ]);
    expect(siteHealthEventKinds(news)).toEqual(['site.links_broken']);
  });

  it('a failed crawl (the site down) opens nothing and fixes nothing: no finding storm, no event', () => {
    const open: SiteFinding[] = [broken('/gone')];
    const comparison = compareFindings(open, crawled([], 'failed', sitemapReport([])), at);
    expect(comparison).toMatchObject({ opened: [], fixed: [], stillOpen: [] });
    expect(comparison.untouched).toHaveLength(1);
    expect(siteHealthEventKinds(crawlNews('r', comparison))).toEqual([]);
  });

  it('sitemap errors open and close by file, code and place; a read a bound stopped fixes none', () => {
    const first = compareFindings([], crawled([], 'complete', sitemapReport([lastmodError])), at);
    expect(first.opened).toMatchObject([
      { type: 'sitemap', url: lastmodError.file, code: 'INVALID_LASTMOD' },
    ]);
    const open = first.opened;
    const stopped = compareFindings(open, crawled([], 'complete', sitemapReport([], true)), at);
    expect(stopped.fixed).toEqual([]);
    expect(stopped.untouched).toHaveLength(1);
    const whole = compareFindings(open, crawled([], 'complete', sitemapReport([])), at);
    expect(whole.fixed).toHaveLength(1);
    // A sitemap error is kept, not told: no event names it.
    expect(siteHealthEventKinds(crawlNews('r', first))).toEqual([]);
  });

  it('Lighthouse: a breach is told once, when it begins, with the scores and the audits that cost most', () => {
    const imageAlt: LighthouseAuditLost = {
      category: 'accessibility',
      id: 'image-alt',
      title: 'Image elements do not have [alt] attributes',
      score: 0,
      weight: 0.1,
      pointsLost: 10,
    };
    const scores = (accessibility: number) => ({
      performance: 90,
      accessibility,
      bestPractices: 100,
      seo: 100,
    });
    const thresholds = { accessibility: 95, maxDrop: 5 };
    const first = judgeLighthouseRuns(
      [
        {
          url: 'https://shop.example/',
          preset: 'mobile',
          figures: { scores: scores(88), auditsLost: [imageAlt] },
        },
      ],
      () => null,
      thresholds,
    );
    expect(first.news).toEqual([
      {
        url: 'https://shop.example/',
        preset: 'mobile',
        breaches: ['Accessibility 88 (under 95)'],
        audits: ['Image elements do not have [alt] attributes (−10)'],
      },
    ]);
    // The next day, still under: no news.
    const previous = first.judged[0] ?? null;
    const again = judgeLighthouseRuns(
      [
        {
          url: 'https://shop.example/',
          preset: 'mobile',
          figures: { scores: scores(88), auditsLost: [imageAlt] },
        },
      ],
      () => previous,
      thresholds,
    );
    expect(again.news).toEqual([]);
    expect(again.judged[0]?.breaches?.under).toHaveLength(1);
    // Performance falls 20 points since: a new breach, told.
    const fell = judgeLighthouseRuns(
      [
        {
          url: 'https://shop.example/',
          preset: 'mobile',
          figures: { scores: { ...scores(88), performance: 70 }, auditsLost: [imageAlt] },
        },
      ],
      () => previous,
      thresholds,
    );
    expect(fell.news[0]?.breaches).toContain('Performance 70 (down 20 from 90)');
    // A run without figures (it failed) breaches nothing.
    expect(
      judgeLighthouseRuns([{ url: 'u', preset: 'mobile', figures: null }], () => null, thresholds),
    ).toEqual({
      judged: [{ url: 'u', preset: 'mobile', figures: null, breaches: null }],
      news: [],
    });
  });
});
