import { z } from 'zod';
import { lighthousePresetSchema, lighthouseScoresSchema } from '../lighthouse/index.js';
import { MAX_SITE_HEALTH_ITEMS, type SiteHealthFigures } from './site-health-figures.js';

const change = z.number().int().nullable();
const trend = z
  .object({ performance: change, accessibility: change, bestPractices: change, seo: change })
  .describe('end − start per category, in points; null: one run only, or a score missing at either end')
  .meta({ id: 'ReportLighthouseTrend' });

const firstPage = {
  page: z.string().nullable().describe('The first page it was found on; null: none kept'),
  pageCount: z.number().int().describe('Pages it appears on, all of them'),
  firstSeenAt: z.iso.datetime().describe('When a crawl first found it'),
};

const brokenLink = z
  .object({
    url: z.string(),
    status: z.number().int().nullable().describe('The HTTP status (≥ 400); null: no answer (see `error`)'),
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .describe('Why there was no answer (dns, timeout, tls, redirect-loop …); null: there was one'),
    ...firstPage,
    fixedAt: z.iso.datetime().nullable().describe('When a crawl no longer found it; null: still open'),
  })
  .meta({ id: 'ReportBrokenLink' });

const listOf = <T extends z.ZodType>(item: T, what: string) =>
  z.object({
    count: z.number().int().describe(`How many ${what}, all of them`),
    items: z.array(item).describe(`The first ${MAX_SITE_HEALTH_ITEMS}`),
  });

const lighthousePage = z
  .object({
    url: z.string(),
    preset: lighthousePresetSchema,
    runs: z.number().int().describe('Scored runs of this page and preset in the period'),
    start: z
      .object({ at: z.iso.datetime(), scores: lighthouseScoresSchema })
      .describe('Its first scored run in the period'),
    end: z
      .object({ at: z.iso.datetime(), scores: lighthouseScoresSchema })
      .describe('Its last scored run in the period'),
    trend,
  })
  .meta({ id: 'ReportLighthousePage' });

export const siteHealthView = z
  .object({
    crawl: z
      .object({
        brokenLinks: z.object({
          opened: listOf(brokenLink, 'broken links first found in the period').describe('Latest first'),
          fixed: listOf(brokenLink, 'broken links fixed in the period').describe('Latest fixed first'),
          openAtEnd: z.number().int().describe('Broken links open at the period’s end'),
        }),
        mixedContent: z
          .object({
            active: z
              .number()
              .int()
              .describe('Scripts, stylesheets, frames, form posts (browsers block them)'),
            passive: z.number().int().describe('Images, media, icons (the padlock breaks)'),
            items: z
              .array(
                z.object({
                  url: z.string().describe('The http: resource'),
                  category: z.enum(['active', 'passive']),
                  ...firstPage,
                }),
              )
              .describe(`Active first; the first ${MAX_SITE_HEALTH_ITEMS}`),
          })
          .describe('Mixed content open at the period’s end'),
        sitemapErrors: z.number().int().describe('Sitemap errors open at the period’s end'),
      })
      .nullable()
      .describe('From its site crawls; null: none ran in the period and no finding touches it'),
    lighthouse: listOf(lighthousePage, 'pages and presets scored')
      .nullable()
      .describe(
        'Each page and preset’s scores at its first and last scored run of the period; null: no Lighthouse check ran in it',
      ),
  })
  .optional()
  .describe(
    'Site health: broken links found and fixed in the period, mixed content and sitemap errors open at its end, Lighthouse scores at its start and end (absent: the website has no site crawl or Lighthouse data)',
  )
  .meta({ id: 'ReportSiteHealth' });
export type ReportSiteHealth = NonNullable<z.infer<typeof siteHealthView>>;

const iso = (at: Date) => at.toISOString();

type BrokenLinks = NonNullable<SiteHealthFigures['crawl']>['brokenLinks'];

const linksView = (links: BrokenLinks['opened']) => ({
  count: links.count,
  items: links.items.map((item) => ({
    ...item,
    error: item.error && { ...item.error },
    firstSeenAt: iso(item.firstSeenAt),
    fixedAt: item.fixedAt && iso(item.fixedAt),
  })),
});

/** A website's site-health figures as the API shows them (instants as ISO text). */
export function toSiteHealthView(figures: SiteHealthFigures): ReportSiteHealth {
  const { crawl, lighthouse } = figures;
  return {
    crawl: crawl && {
      brokenLinks: {
        opened: linksView(crawl.brokenLinks.opened),
        fixed: linksView(crawl.brokenLinks.fixed),
        openAtEnd: crawl.brokenLinks.openAtEnd,
      },
      mixedContent: {
        active: crawl.mixedContent.active,
        passive: crawl.mixedContent.passive,
        items: crawl.mixedContent.items.map((item) => ({ ...item, firstSeenAt: iso(item.firstSeenAt) })),
      },
      sitemapErrors: crawl.sitemapErrors,
    },
    lighthouse: lighthouse && {
      count: lighthouse.count,
      items: lighthouse.items.map((page) => ({
        url: page.url,
        preset: page.preset,
        runs: page.runs,
        start: { at: iso(page.start.at), scores: { ...page.start.scores } },
        end: { at: iso(page.end.at), scores: { ...page.end.scores } },
        trend: { ...page.trend },
      })),
    },
  };
}
