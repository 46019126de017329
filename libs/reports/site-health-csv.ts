import { spreadsheetSafe } from '../exports/index.js';
import { LIGHTHOUSE_COLUMNS } from './site-health-texts.js';
import type { ReportSiteHealth } from './site-health-view.js';

/**
 * The site-health columns of the report's CSV, in order: the crawl's counts (on its `site_health`
 * row), a finding (`broken_link` and `mixed_content` rows), a Lighthouse page, preset and category
 * (`lighthouse` rows).
 */
export const SITE_HEALTH_CSV_COLUMNS = [
  'broken_links_found',
  'broken_links_fixed',
  'broken_links_open_at_end',
  'mixed_content_active',
  'mixed_content_passive',
  'sitemap_errors',
  'finding_url',
  'finding_detail',
  'finding_page',
  'first_seen_at',
  'fixed_at',
  'lighthouse_url',
  'lighthouse_preset',
  'lighthouse_category',
  'score_start',
  'score_end',
  'score_trend',
] as const;

type Column = (typeof SITE_HEALTH_CSV_COLUMNS)[number];

/** The site-health cells of a row, empty but for `values`. */
function cells(values: Partial<Record<Column, string>>): string[] {
  return SITE_HEALTH_CSV_COLUMNS.map((column) => values[column] ?? '');
}

/** The cells of a row that is not site health's. */
export const siteHealthCells = { none: cells({}) };

const number = (value: number | null) => (value === null ? '' : String(value));

export interface SiteHealthCsvRow {
  /** `period_kind`: site_health, broken_link, mixed_content or lighthouse. */
  kind: 'site_health' | 'broken_link' | 'mixed_content' | 'lighthouse';
  /** `monitor_kind`: crawl or lighthouse (the website's checks of that kind, together). */
  monitorKind: 'crawl' | 'lighthouse';
  values: string[];
}

/**
 * A website's site-health rows (none without site health): its crawl's counts, each broken link
 * listed (found or fixed in the period, once), each mixed content listed, and a row per Lighthouse
 * page, preset and category with its first and last score and the change. Text a crawl found
 * (URLs) is made safe for spreadsheets.
 */
export function siteHealthRows(health: ReportSiteHealth | undefined): SiteHealthCsvRow[] {
  if (!health) return [];
  const rows: SiteHealthCsvRow[] = [];
  const { crawl, lighthouse } = health;
  if (crawl) {
    const { brokenLinks, mixedContent } = crawl;
    rows.push({
      kind: 'site_health',
      monitorKind: 'crawl',
      values: cells({
        broken_links_found: String(brokenLinks.opened.count),
        broken_links_fixed: String(brokenLinks.fixed.count),
        broken_links_open_at_end: String(brokenLinks.openAtEnd),
        mixed_content_active: String(mixedContent.active),
        mixed_content_passive: String(mixedContent.passive),
        sitemap_errors: String(crawl.sitemapErrors),
      }),
    });
    // A link found and fixed in the period is in both lists: one row, its dates say both.
    const links = new Map([...brokenLinks.opened.items, ...brokenLinks.fixed.items].map((l) => [l.url, l]));
    for (const link of links.values())
      rows.push({
        kind: 'broken_link',
        monitorKind: 'crawl',
        values: cells({
          finding_url: spreadsheetSafe(link.url),
          finding_detail: link.status !== null ? String(link.status) : (link.error?.code ?? ''),
          finding_page: spreadsheetSafe(link.page ?? ''),
          first_seen_at: link.firstSeenAt,
          fixed_at: link.fixedAt ?? '',
        }),
      });
    for (const item of mixedContent.items)
      rows.push({
        kind: 'mixed_content',
        monitorKind: 'crawl',
        values: cells({
          finding_url: spreadsheetSafe(item.url),
          finding_detail: item.category,
          finding_page: spreadsheetSafe(item.page ?? ''),
          first_seen_at: item.firstSeenAt,
        }),
      });
  }
  for (const page of lighthouse?.items ?? [])
    for (const [category] of LIGHTHOUSE_COLUMNS)
      rows.push({
        kind: 'lighthouse',
        monitorKind: 'lighthouse',
        values: cells({
          lighthouse_url: spreadsheetSafe(page.url),
          lighthouse_preset: page.preset,
          lighthouse_category: category,
          score_start: number(page.start.scores[category]),
          score_end: number(page.end.scores[category]),
          score_trend: number(page.trend[category]),
        }),
      });
  return rows;
}
