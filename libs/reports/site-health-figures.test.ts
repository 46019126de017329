import { describe, expect, it } from 'vitest';
import type { LighthouseScores } from '../lighthouse/index.js';
import type { SiteFinding } from '../site-health/index.js';
import {
  type LighthouseScoreRecord,
  MAX_SITE_HEALTH_ITEMS,
  type SiteFindingRecord,
  type SiteHealthInput,
  siteHealthFiguresOf,
} from './site-health-figures.js';

// November 2026, [from, to).
const span = { start: Date.parse('2026-11-01T00:00:00Z'), end: Date.parse('2026-12-01T00:00:00Z') };
const at = (day: string) => new Date(`${day}T12:00:00Z`);
const SITE = 'https://shop.example';

function brokenLink(
  path: string,
  firstSeen: string,
  fixed: string | null,
  answer: Partial<Pick<Extract<SiteFinding, { type: 'broken-link' }>, 'status' | 'error'>> = {},
): SiteFindingRecord {
  return {
    finding: {
      type: 'broken-link',
      url: `${SITE}${path}`,
      status: answer.status === undefined ? 404 : answer.status,
      error: answer.error ?? null,
      pages: [
        { page: `${SITE}/`, element: 'a', text: 'Home link' },
        { page: `${SITE}/about`, element: 'a', text: null },
      ],
      pageCount: 3,
      seeded: false,
      firstSeenAt: at(firstSeen).toISOString(),
      lastSeenAt: at(firstSeen).toISOString(),
    },
    firstSeenAt: at(firstSeen),
    fixedAt: fixed === null ? null : at(fixed),
  };
}

function mixed(path: string, category: 'active' | 'passive', fixed: string | null = null): SiteFindingRecord {
  return {
    finding: {
      type: 'mixed-content',
      url: `http://cdn.example${path}`,
      category,
      pages: [{ page: `${SITE}/shop`, element: category === 'active' ? 'script' : 'img', text: null }],
      pageCount: 1,
      firstSeenAt: at('2026-10-20').toISOString(),
      lastSeenAt: at('2026-11-20').toISOString(),
    },
    firstSeenAt: at('2026-10-20'),
    fixedAt: fixed === null ? null : at(fixed),
  };
}

function sitemapError(line: number, fixed: string | null = null): SiteFindingRecord {
  return {
    finding: {
      type: 'sitemap',
      url: `${SITE}/sitemap.xml`,
      code: 'INVALID_LASTMOD',
      message: 'lastmod is not a W3C date',
      line,
      column: 3,
      entry: line,
      firstSeenAt: at('2026-11-02').toISOString(),
      lastSeenAt: at('2026-11-02').toISOString(),
    },
    firstSeenAt: at('2026-11-02'),
    fixedAt: fixed === null ? null : at(fixed),
  };
}

const scores = (
  performance: number | null,
  accessibility: number | null,
  bestPractices: number | null,
  seo: number | null,
): LighthouseScores => ({ performance, accessibility, bestPractices, seo });
const run = (
  path: string,
  preset: 'mobile' | 'desktop',
  day: string,
  scored: LighthouseScores,
): LighthouseScoreRecord => ({ url: `${SITE}${path}`, preset, at: at(day), scores: scored });

const input = (partial: Partial<SiteHealthInput>): SiteHealthInput => ({
  crawled: false,
  lighthouseChecked: false,
  findings: [],
  lighthouse: [],
  ...partial,
});

describe('a website’s site health over a period', () => {
  it('broken links: found in the period and fixed in it, each listed once per list, and those open at its end', () => {
    const figures = siteHealthFiguresOf(
      input({
        crawled: true,
        findings: [
          brokenLink('/found-open', '2026-11-05', null),
          brokenLink('/found-and-fixed', '2026-11-03', '2026-11-20'),
          brokenLink('/old-fixed-now', '2026-10-10', '2026-11-10', { status: 500 }),
          brokenLink('/old-still-open', '2026-09-01', null, {
            status: null,
            error: { code: 'dns', message: 'getaddrinfo ENOTFOUND old.example' },
          }),
          // Found in the period, fixed after it: open at its end.
          brokenLink('/fixed-later', '2026-11-25', '2026-12-03'),
          // Outside the period either way.
          brokenLink('/found-after', '2026-12-02', null),
          brokenLink('/fixed-before', '2026-10-01', '2026-10-15'),
        ],
      }),
      span,
    );
    const links = figures?.crawl?.brokenLinks;
    expect(links?.opened.count).toBe(3);
    // Latest found first.
    expect(links?.opened.items.map((link) => link.url)).toEqual([
      `${SITE}/fixed-later`,
      `${SITE}/found-open`,
      `${SITE}/found-and-fixed`,
    ]);
    expect(links?.fixed.count).toBe(2);
    expect(links?.fixed.items.map((link) => [link.url, link.status])).toEqual([
      [`${SITE}/found-and-fixed`, 404],
      [`${SITE}/old-fixed-now`, 500],
    ]);
    expect(links?.openAtEnd).toBe(3);
    expect(links?.opened.items[1]).toEqual({
      url: `${SITE}/found-open`,
      status: 404,
      error: null,
      page: `${SITE}/`,
      pageCount: 3,
      firstSeenAt: at('2026-11-05'),
      fixedAt: null,
    });
  });

  it('a link that does not answer carries its error, not a status', () => {
    const figures = siteHealthFiguresOf(
      input({
        findings: [
          brokenLink('/slow', '2026-11-05', null, {
            status: null,
            error: { code: 'timeout', message: 'no answer within 10 s' },
          }),
        ],
      }),
      span,
    );
    expect(figures?.crawl?.brokenLinks.opened.items[0]).toMatchObject({
      status: null,
      error: { code: 'timeout', message: 'no answer within 10 s' },
    });
  });

  it('mixed content and sitemap errors open at the end of the period; active first', () => {
    const figures = siteHealthFiguresOf(
      input({
        crawled: true,
        findings: [
          mixed('/a.png', 'passive'),
          mixed('/z.js', 'active'),
          mixed('/b.css', 'active'),
          mixed('/fixed.png', 'passive', '2026-11-15'),
          // Fixed after the period ended: it was open at its end.
          mixed('/fixed-later.png', 'passive', '2026-12-02'),
          sitemapError(4),
          sitemapError(9, '2026-11-21'),
        ],
      }),
      span,
    );
    expect(figures?.crawl?.mixedContent).toMatchObject({ active: 2, passive: 2 });
    expect(figures?.crawl?.mixedContent.items.map((item) => [item.url, item.category])).toEqual([
      ['http://cdn.example/b.css', 'active'],
      ['http://cdn.example/z.js', 'active'],
      ['http://cdn.example/a.png', 'passive'],
      ['http://cdn.example/fixed-later.png', 'passive'],
    ]);
    expect(figures?.crawl?.mixedContent.items[0]).toMatchObject({ page: `${SITE}/shop`, pageCount: 1 });
    expect(figures?.crawl?.sitemapErrors).toBe(1);
    // No link broken: zero, not absent.
    expect(figures?.crawl?.brokenLinks).toMatchObject({
      opened: { count: 0 },
      fixed: { count: 0 },
      openAtEnd: 0,
    });
  });

  it('the same finding from two crawls of the website counts once: open while either has it, first seen when either saw it', () => {
    const figures = siteHealthFiguresOf(
      input({
        findings: [
          brokenLink('/twice', '2026-11-10', '2026-11-12'),
          brokenLink('/twice', '2026-11-04', null),
          // Fixed by one crawl before the other found it again: found anew.
          brokenLink('/again', '2026-11-01', '2026-11-02'),
          brokenLink('/again', '2026-11-06', null),
          mixed('/twice.js', 'active', '2026-11-03'),
          mixed('/twice.js', 'active', '2026-11-08'),
        ],
      }),
      span,
    );
    expect(figures?.crawl?.brokenLinks.opened.items).toMatchObject([
      { url: `${SITE}/again`, firstSeenAt: at('2026-11-06'), fixedAt: null },
      { url: `${SITE}/twice`, firstSeenAt: at('2026-11-04'), fixedAt: null },
    ]);
    expect(figures?.crawl?.brokenLinks).toMatchObject({ fixed: { count: 0 }, openAtEnd: 2 });
    expect(figures?.crawl?.mixedContent.active).toBe(0);
  });

  it('lists are bounded; counts are not', () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      brokenLink(`/page-${String(i).padStart(3, '0')}`, '2026-11-05', i % 2 === 0 ? '2026-11-20' : null),
    );
    const figures = siteHealthFiguresOf(input({ crawled: true, findings: many }), span);
    expect(figures?.crawl?.brokenLinks.opened.count).toBe(120);
    expect(figures?.crawl?.brokenLinks.opened.items).toHaveLength(MAX_SITE_HEALTH_ITEMS);
    expect(figures?.crawl?.brokenLinks.fixed.count).toBe(60);
    expect(figures?.crawl?.brokenLinks.fixed.items).toHaveLength(MAX_SITE_HEALTH_ITEMS);
    expect(figures?.crawl?.brokenLinks.openAtEnd).toBe(60);
  });

  it('Lighthouse: each page and preset’s first and last scored run of the period and the change; one run has no trend', () => {
    const figures = siteHealthFiguresOf(
      input({
        lighthouseChecked: true,
        lighthouse: [
          run('/', 'desktop', '2026-11-02', scores(90, 100, 100, 90)),
          run('/', 'mobile', '2026-11-28', scores(71, 88, 96, null)),
          run('/', 'mobile', '2026-11-02', scores(62, 95, 96, 90)),
          run('/', 'mobile', '2026-11-15', scores(10, 10, 10, 10)),
          run('/about', 'mobile', '2026-11-10', scores(80, 80, 80, 80)),
        ],
      }),
      span,
    );
    expect(figures?.crawl).toBeNull();
    expect(figures?.lighthouse?.count).toBe(3);
    const [mobile, desktop, about] = figures?.lighthouse?.items ?? [];
    expect(mobile).toEqual({
      url: `${SITE}/`,
      preset: 'mobile',
      runs: 3,
      start: { at: at('2026-11-02'), scores: scores(62, 95, 96, 90) },
      end: { at: at('2026-11-28'), scores: scores(71, 88, 96, null) },
      trend: { performance: 9, accessibility: -7, bestPractices: 0, seo: null },
    });
    expect(desktop).toMatchObject({
      preset: 'desktop',
      runs: 1,
      trend: { performance: null, accessibility: null, bestPractices: null, seo: null },
    });
    expect(about?.url).toBe(`${SITE}/about`);
  });

  it('no crawl and no Lighthouse data: no section; a check that ran and found nothing: a section saying so', () => {
    expect(siteHealthFiguresOf(input({}), span)).toBeNull();
    expect(siteHealthFiguresOf(input({ crawled: true }), span)).toEqual({
      crawl: {
        brokenLinks: { opened: { count: 0, items: [] }, fixed: { count: 0, items: [] }, openAtEnd: 0 },
        mixedContent: { active: 0, passive: 0, items: [] },
        sitemapErrors: 0,
      },
      lighthouse: null,
    });
    expect(siteHealthFiguresOf(input({ lighthouseChecked: true }), span)).toEqual({
      crawl: null,
      lighthouse: { count: 0, items: [] },
    });
  });
});
