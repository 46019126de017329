import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { REPORT_CSV_COLUMNS, reportCsv } from './report-csv.js';
import { computeReport, type WebsiteReportInput } from './report-figures.js';
import { reportHtml } from './report-html.js';
import { reportPeriod } from './report-period.js';
import { clientReportView, toClientReport } from './report-view.js';

const period = reportPeriod({ from: '2026-11-01', to: '2026-11-30' }, 'UTC', new Date());
const now = new Date('2026-12-02T00:00:00Z');
const at = (day: string) => new Date(`${day}T12:00:00Z`);
const SITE = 'https://shop.example';

const website = (
  id: number,
  name: string,
  siteHealth?: WebsiteReportInput['siteHealth'],
): WebsiteReportInput => ({
  id,
  name,
  url: `${SITE}/`,
  createdAt: new Date('2026-10-01T00:00:00Z'),
  days: [{ date: '2026-11-10', checks: 100, responseMsMax: 90 }],
  incidents: [],
  maintenance: [],
  certificateExpiresAt: null,
  domainExpiresAt: null,
  ...(siteHealth ? { siteHealth } : {}),
});

const computed = computeReport({
  period,
  now,
  websites: [
    website(1, 'Tea Shop', {
      crawled: true,
      lighthouseChecked: true,
      findings: [
        {
          finding: {
            type: 'broken-link',
            url: `${SITE}/gone`,
            status: 404,
            error: null,
            pages: [{ page: `${SITE}/`, element: 'a', text: 'Old offer' }],
            pageCount: 2,
            seeded: false,
            firstSeenAt: at('2026-11-05').toISOString(),
            lastSeenAt: at('2026-11-05').toISOString(),
          },
          firstSeenAt: at('2026-11-05'),
          fixedAt: at('2026-11-20'),
        },
        {
          finding: {
            type: 'broken-link',
            url: 'https://partner.example/',
            status: null,
            error: { code: 'dns', message: 'getaddrinfo ENOTFOUND partner.example' },
            pages: [{ page: `${SITE}/about`, element: 'a', text: 'Partner' }],
            pageCount: 1,
            seeded: false,
            firstSeenAt: at('2026-11-07').toISOString(),
            lastSeenAt: at('2026-11-29').toISOString(),
          },
          firstSeenAt: at('2026-11-07'),
          fixedAt: null,
        },
        {
          finding: {
            type: 'mixed-content',
            url: '=cmd|calc', // a crawled text a spreadsheet would run
            category: 'active',
            pages: [{ page: `${SITE}/`, element: 'script', text: null }],
            pageCount: 1,
            firstSeenAt: at('2026-11-07').toISOString(),
            lastSeenAt: at('2026-11-29').toISOString(),
          },
          firstSeenAt: at('2026-11-07'),
          fixedAt: null,
        },
      ],
      lighthouse: [
        {
          url: `${SITE}/`,
          preset: 'mobile',
          at: at('2026-11-02'),
          scores: { performance: 62, accessibility: 95, bestPractices: 96, seo: 90 },
        },
        {
          url: `${SITE}/`,
          preset: 'mobile',
          at: at('2026-11-28'),
          scores: { performance: 71, accessibility: 88, bestPractices: 96, seo: null },
        },
      ],
    }),
    website(2, 'Blog'),
  ],
});
const report = toClientReport(computed, {
  organizationName: 'Agency',
  customer: { id: 3, name: 'Tea Shop Ltd' },
  now,
});
const branding = { accentColor: null, footerText: null, logoDataUrl: null, intro: null };

describe('a client report’s site health', () => {
  it('the JSON: broken links found and fixed, mixed content and scores with their trend; none for a website without; as the API documents it', () => {
    const [shop, blog] = report.websites;
    expect(blog).not.toHaveProperty('siteHealth');
    expect(shop?.siteHealth?.crawl).toEqual({
      brokenLinks: {
        opened: {
          count: 2,
          items: [
            {
              url: 'https://partner.example/',
              status: null,
              error: { code: 'dns', message: 'getaddrinfo ENOTFOUND partner.example' },
              page: `${SITE}/about`,
              pageCount: 1,
              firstSeenAt: '2026-11-07T12:00:00.000Z',
              fixedAt: null,
            },
            {
              url: `${SITE}/gone`,
              status: 404,
              error: null,
              page: `${SITE}/`,
              pageCount: 2,
              firstSeenAt: '2026-11-05T12:00:00.000Z',
              fixedAt: '2026-11-20T12:00:00.000Z',
            },
          ],
        },
        fixed: { count: 1, items: [expect.objectContaining({ url: `${SITE}/gone` })] },
        openAtEnd: 1,
      },
      mixedContent: {
        active: 1,
        passive: 0,
        items: [
          {
            url: '=cmd|calc',
            category: 'active',
            page: `${SITE}/`,
            pageCount: 1,
            firstSeenAt: '2026-11-07T12:00:00.000Z',
          },
        ],
      },
      sitemapErrors: 0,
    });
    expect(shop?.siteHealth?.lighthouse?.items).toEqual([
      {
        url: `${SITE}/`,
        preset: 'mobile',
        runs: 2,
        start: {
          at: '2026-11-02T12:00:00.000Z',
          scores: { performance: 62, accessibility: 95, bestPractices: 96, seo: 90 },
        },
        end: {
          at: '2026-11-28T12:00:00.000Z',
          scores: { performance: 71, accessibility: 88, bestPractices: 96, seo: null },
        },
        trend: { performance: 9, accessibility: -7, bestPractices: 0, seo: null },
      },
    ]);
    expect(clientReportView.safeParse(report).error).toBeUndefined();
    expect(report.formulas.siteHealth).toContain('Lighthouse');
  });

  it('the page: a section per website that has it, tables with headers, the trend in arrows and words', () => {
    const html = reportHtml(report, branding);
    expect(html.match(/<h4>Site health<\/h4>/g)).toHaveLength(1);
    expect(html).toContain('Broken links: 2 found in the period, 1 fixed, 1 open at its end.');
    expect(html).toContain(
      'Mixed content open at the end of the period: 1 active (browsers block it), 0 passive',
    );
    expect(html).toContain('<caption>Broken links found in the period (2)</caption>');
    expect(html).toContain('<caption>Broken links fixed in the period (1)</caption>');
    expect(html).toContain('<td>DNS failure</td>');
    expect(html).toContain('<td>HTTP 404</td>');
    expect(html).toContain(`${SITE}/ and 1 more page`);
    expect(html).toContain('<td>still open</td>');
    expect(html).toContain('<th scope="col">Best Practices</th>');
    expect(html).toContain('62 → 71');
    // Arrows are hidden from screen readers: the words say it.
    expect(html).toContain('<span aria-hidden="true">▲ </span>+9 (better)');
    expect(html).toContain('<span aria-hidden="true">▼ </span>−7 (worse)');
    expect(html).toContain('no change');
    expect(html).toContain('90 → –');
    expect(html).toContain('mobile, 2 runs');
  });

  it('the CSV: the crawl’s counts, a row per link and mixed content, one per Lighthouse page, preset and category', () => {
    const rows = parse(reportCsv(report), { columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(rows[0] ?? {})).toEqual([...REPORT_CSV_COLUMNS]);
    const shop = rows.filter((row) => row.website === 'Tea Shop');
    expect(shop.find((row) => row.period_kind === 'site_health')).toMatchObject({
      monitor_kind: 'crawl',
      period: '2026-11-01..2026-11-30',
      broken_links_found: '2',
      broken_links_fixed: '1',
      broken_links_open_at_end: '1',
      mixed_content_active: '1',
      mixed_content_passive: '0',
      sitemap_errors: '0',
      uptime_percent: '',
    });
    expect(
      shop
        .filter((row) => row.period_kind === 'broken_link')
        .map((row) => [row.finding_url, row.finding_detail, row.finding_page, row.fixed_at]),
    ).toEqual([
      ['https://partner.example/', 'dns', `${SITE}/about`, ''],
      [`${SITE}/gone`, '404', `${SITE}/`, '2026-11-20T12:00:00.000Z'],
    ]);
    expect(shop.find((row) => row.period_kind === 'mixed_content')).toMatchObject({
      finding_url: "'=cmd|calc",
      finding_detail: 'active',
    });
    expect(
      shop
        .filter((row) => row.period_kind === 'lighthouse')
        .map((row) => [
          row.lighthouse_preset,
          row.lighthouse_category,
          row.score_start,
          row.score_end,
          row.score_trend,
        ]),
    ).toEqual([
      ['mobile', 'performance', '62', '71', '9'],
      ['mobile', 'accessibility', '95', '88', '-7'],
      ['mobile', 'bestPractices', '96', '96', '0'],
      ['mobile', 'seo', '90', '', ''],
    ]);
    expect(rows.filter((row) => row.website === 'Blog').map((row) => row.period_kind)).not.toContain(
      'site_health',
    );
  });
});
