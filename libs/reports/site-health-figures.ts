import type { LighthouseCategory, LighthousePreset, LighthouseScores } from '../lighthouse/index.js';
import type { Span } from '../monitoring/index.js';
import { type SiteFinding, siteFindingKey } from '../site-health/index.js';

/** Items listed per list of a website's site health (its counts say all of them). */
export const MAX_SITE_HEALTH_ITEMS = 50;

/** The categories in the order Lighthouse's own report shows them. */
const CATEGORIES: readonly LighthouseCategory[] = ['performance', 'accessibility', 'bestPractices', 'seo'];
const PRESET_ORDER: Record<LighthousePreset, number> = { mobile: 0, desktop: 1 };

/** A finding as a report reads it: opened at `firstSeenAt`, fixed at `fixedAt` (null: still open). */
export interface SiteFindingRecord {
  finding: SiteFinding;
  firstSeenAt: Date;
  fixedAt: Date | null;
}

/** A page and preset's scored Lighthouse run. */
export interface LighthouseScoreRecord {
  url: string;
  preset: LighthousePreset;
  at: Date;
  scores: LighthouseScores;
}

/** What a website's site health is figured from, for a period. */
export interface SiteHealthInput {
  /** A site crawl of the website ran in the period (it may have found nothing). */
  crawled: boolean;
  /** A Lighthouse check of the website ran in the period (it may have scored nothing). */
  lighthouseChecked: boolean;
  /** Findings opened or fixed in the period, or open at its end, of every crawl of the website. */
  findings: readonly SiteFindingRecord[];
  /** Its scored Lighthouse runs in the period, any order. */
  lighthouse: readonly LighthouseScoreRecord[];
}

export interface BrokenLinkItem {
  url: string;
  status: number | null;
  error: { code: string; message: string } | null;
  /** The first page it was found on (null: none kept, e.g. a sitemap's URL). */
  page: string | null;
  pageCount: number;
  firstSeenAt: Date;
  fixedAt: Date | null;
}

export interface MixedContentItem {
  url: string;
  category: 'active' | 'passive';
  page: string | null;
  pageCount: number;
  firstSeenAt: Date;
}

export type ScoreTrend = Record<LighthouseCategory, number | null>;

export interface LighthousePageFigures {
  url: string;
  preset: LighthousePreset;
  /** Scored runs of this page and preset in the period. */
  runs: number;
  start: { at: Date; scores: LighthouseScores };
  end: { at: Date; scores: LighthouseScores };
  /** End − start per category; null: one run only, or a score missing at either end. */
  trend: ScoreTrend;
}

export interface Listed<T> {
  count: number;
  items: T[];
}

export interface SiteHealthFigures {
  /** null: no crawl ran and no crawl finding touches the period. */
  crawl: {
    brokenLinks: { opened: Listed<BrokenLinkItem>; fixed: Listed<BrokenLinkItem>; openAtEnd: number };
    /** Open at the period's end, active first. */
    mixedContent: { active: number; passive: number; items: MixedContentItem[] };
    /** Sitemap errors open at the period's end. */
    sitemapErrors: number;
  } | null;
  /** null: no Lighthouse check ran and none scored in the period. */
  lighthouse: Listed<LighthousePageFigures> | null;
}

const time = (at: Date) => at.getTime();
const bounded = <T>(items: readonly T[]): Listed<T> => ({
  count: items.length,
  items: items.slice(0, MAX_SITE_HEALTH_ITEMS),
});

/** Of two records of one finding, the one that says most now: an open one, else the last fixed. */
const current = (a: SiteFindingRecord, b: SiteFindingRecord) =>
  a.fixedAt === null ? a : b.fixedAt === null ? b : time(a.fixedAt) >= time(b.fixedAt) ? a : b;

/**
 * One record per finding: two crawls of one website (say, with other hosts) can find the same
 * one. It is open while either has it open, and broken since the other saw it when their times
 * overlap (one fixed before the other found it again is found anew).
 */
function distinct(findings: readonly SiteFindingRecord[]): SiteFindingRecord[] {
  const byKey = new Map<string, SiteFindingRecord>();
  for (const record of findings) {
    const key = siteFindingKey(record.finding);
    const kept = byKey.get(key);
    if (!kept) {
      byKey.set(key, record);
      continue;
    }
    const latest = current(kept, record);
    const other = latest === kept ? record : kept;
    const overlap = other.fixedAt === null || time(other.fixedAt) >= time(latest.firstSeenAt);
    byKey.set(key, {
      ...latest,
      firstSeenAt:
        overlap && time(other.firstSeenAt) < time(latest.firstSeenAt)
          ? other.firstSeenAt
          : latest.firstSeenAt,
    });
  }
  return [...byKey.values()];
}

function brokenLinkItem(record: SiteFindingRecord): BrokenLinkItem | null {
  const { finding } = record;
  if (finding.type !== 'broken-link') return null;
  return {
    url: finding.url,
    status: finding.status,
    error: finding.error && { code: finding.error.code, message: finding.error.message },
    page: finding.pages[0]?.page ?? null,
    pageCount: finding.pageCount,
    firstSeenAt: record.firstSeenAt,
    fixedAt: record.fixedAt,
  };
}

/** A website's broken links, mixed content and sitemap errors over the period. */
function crawlFigures(findings: readonly SiteFindingRecord[], span: Span): SiteHealthFigures['crawl'] {
  const inPeriod = (at: Date | null) => at !== null && time(at) >= span.start && time(at) < span.end;
  // Open at the end: seen before it and not fixed before it.
  const openAtEnd = (record: { firstSeenAt: Date; fixedAt: Date | null }) =>
    time(record.firstSeenAt) < span.end && (record.fixedAt === null || time(record.fixedAt) >= span.end);
  const links = findings.flatMap((record) => brokenLinkItem(record) ?? []);
  const opened = links
    .filter((link) => inPeriod(link.firstSeenAt))
    .sort((a, b) => time(b.firstSeenAt) - time(a.firstSeenAt) || a.url.localeCompare(b.url));
  const fixed = links
    .filter((link) => inPeriod(link.fixedAt))
    .sort((a, b) => time(b.fixedAt as Date) - time(a.fixedAt as Date) || a.url.localeCompare(b.url));
  const mixed = findings
    .filter(openAtEnd)
    .flatMap(({ finding, firstSeenAt }): MixedContentItem[] =>
      finding.type === 'mixed-content'
        ? [
            {
              url: finding.url,
              category: finding.category,
              page: finding.pages[0]?.page ?? null,
              pageCount: finding.pageCount,
              firstSeenAt,
            },
          ]
        : [],
    )
    // Active first: browsers block it.
    .sort(
      (a, b) =>
        Number(b.category === 'active') - Number(a.category === 'active') || a.url.localeCompare(b.url),
    );
  return {
    brokenLinks: {
      opened: bounded(opened),
      fixed: bounded(fixed),
      openAtEnd: links.filter(openAtEnd).length,
    },
    mixedContent: {
      active: mixed.filter((item) => item.category === 'active').length,
      passive: mixed.filter((item) => item.category === 'passive').length,
      items: mixed.slice(0, MAX_SITE_HEALTH_ITEMS),
    },
    sitemapErrors: findings.filter((record) => record.finding.type === 'sitemap' && openAtEnd(record)).length,
  };
}

const trendOf = (runs: number, start: LighthouseScores, end: LighthouseScores): ScoreTrend =>
  Object.fromEntries(
    CATEGORIES.map((category) => {
      const before = start[category];
      const after = end[category];
      return [category, runs < 2 || before === null || after === null ? null : after - before];
    }),
  ) as ScoreTrend;

/** Each page and preset's first and last scored run of the period, and the change between them. */
function lighthouseFigures(runs: readonly LighthouseScoreRecord[]): LighthousePageFigures[] {
  const byPage = new Map<string, LighthouseScoreRecord[]>();
  for (const run of runs) {
    const key = `${run.preset} ${run.url}`;
    const list = byPage.get(key) ?? [];
    list.push(run);
    byPage.set(key, list);
  }
  return [...byPage.values()]
    .map((list) => {
      const sorted = [...list].sort((a, b) => time(a.at) - time(b.at));
      const first = sorted[0] as LighthouseScoreRecord;
      const last = sorted[sorted.length - 1] as LighthouseScoreRecord;
      return {
        url: first.url,
        preset: first.preset,
        runs: sorted.length,
        start: { at: first.at, scores: { ...first.scores } },
        end: { at: last.at, scores: { ...last.scores } },
        trend: trendOf(sorted.length, first.scores, last.scores),
      };
    })
    .sort((a, b) => a.url.localeCompare(b.url) || PRESET_ORDER[a.preset] - PRESET_ORDER[b.preset]);
}

/**
 * A website's site health over the period `span` (pure): broken links first found in it and fixed
 * in it, with how many are open at its end; mixed content (active, passive) and sitemap errors open
 * at its end; each page and preset's Lighthouse scores at its first and last scored run in it, and
 * the change. Lists are bounded, counts are not. null: no crawl or Lighthouse data at all (a
 * website without them has no section, not an empty one).
 */
export function siteHealthFiguresOf(input: SiteHealthInput, span: Span): SiteHealthFigures | null {
  const findings = distinct(input.findings);
  const crawl = input.crawled || findings.length > 0 ? crawlFigures(findings, span) : null;
  const lighthouse =
    input.lighthouseChecked || input.lighthouse.length > 0
      ? bounded(lighthouseFigures(input.lighthouse))
      : null;
  return crawl || lighthouse ? { crawl, lighthouse } : null;
}
