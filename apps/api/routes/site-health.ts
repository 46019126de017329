// Site health through the one engine's routes: a crawl's findings, Lighthouse's history and reports, a run's progress.
import { z } from 'zod';
import { decimalId } from '../../../libs/contract/index.js';
import { notFound } from '../../../libs/errors/index.js';
import { defineRoute, type Route, setContentSecurityPolicy } from '../../../libs/http/index.js';
import type { LighthouseCategory } from '../../../libs/lighthouse/index.js';
import {
  lighthouseBreachesSchema,
  lighthouseFiguresSchema,
  lighthousePresetSchema,
} from '../../../libs/lighthouse/index.js';
import {
  ARTIFACT_CONTENT_TYPES,
  type MonitorService,
  type RunArtifacts,
} from '../../../libs/monitors/index.js';
import {
  crawlStandingSchema,
  FINDING_STATES,
  FINDING_TYPES,
  type LighthouseHistory,
  type LighthouseStanding,
  lighthouseStandingSchema,
  type SiteFindings,
  type SiteHealthSummaries,
  siteFindingSchema,
  siteRunViewSchema,
} from '../../../libs/site-health/index.js';
import type { WebsiteDocument } from '../../../libs/websites/index.js';
import { idParams } from './monitor-views.js';

const runId = z
  .string()
  .regex(/^[0-9a-f]{24}$/)
  .describe('The run’s id, 24 hexadecimal digits');

const findingView = z
  .intersection(
    siteFindingSchema,
    z.object({
      state: z.enum(FINDING_STATES),
      fixedAt: z.iso.datetime().nullable().describe('When a crawl found it gone (fixed findings)'),
    }),
  )
  .meta({ id: 'SiteFindingView' });

const lighthouseRunView = z
  .object({
    runId,
    at: z.iso.datetime(),
    url: z.string(),
    preset: lighthousePresetSchema,
    outcome: z.enum(['completed', 'failed', 'deadline', 'cancelled']),
    error: z.string().nullable(),
    figures: lighthouseFiguresSchema.nullable(),
    breaches: lighthouseBreachesSchema.nullable(),
    reportUrl: z.string().nullable().describe('Its full Lighthouse HTML report (null: not kept)'),
    reportNote: z.string().nullable().describe('What the kept report left out, and why'),
  })
  .meta({ id: 'LighthouseRunView' });

const COUNT_SORTS = new Set<string>(['brokenLinks', 'mixedContent', 'sitemapErrors']);

/** A Lighthouse check's report among its run's files: `run-<n>`, n its page and preset's place from 1. */
const reportQuery = z.strictObject({
  run: z.coerce
    .number()
    .int()
    .min(1)
    .max(20)
    .default(1)
    .describe("Which page and preset of the check's run (from 1, as its history lists them)"),
});

/** What a report may do when opened: run its own scripts in an opaque origin, load nothing, reach nothing. */
const REPORT_POLICY = [
  'sandbox allow-scripts allow-popups',
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'font-src data:',
];

const SORTS = [
  'brokenLinks',
  'mixedContent',
  'sitemapErrors',
  'performance',
  'accessibility',
  'bestPractices',
  'seo',
  'name',
] as const;

const overviewItem = z
  .object({
    website: z.object({
      id: z.number().int(),
      publicId: z.string(),
      name: z.string(),
      url: z.string(),
      customerId: z.number().int(),
    }),
    crawl: crawlStandingSchema
      .extend({ monitorId: z.number().int() })
      .nullable()
      .describe('Its crawl’s last run (null: no crawl)'),
    lighthouse: z
      .object({ monitorId: z.number().int(), pages: lighthouseStandingSchema })
      .nullable()
      .describe('Its Lighthouse check’s last scores per page and preset (null: none)'),
  })
  .meta({ id: 'SiteHealthOverviewItem' });

/** The lowest of a website's last scores in a category (its worst page and preset), null when none. */
const lowest = (pages: LighthouseStanding, category: LighthouseCategory) => {
  const scores = pages.flatMap((page) => (page.scores[category] === null ? [] : [page.scores[category]]));
  return scores.length > 0 ? Math.min(...scores) : null;
};

export function siteHealthRoutes(deps: {
  service: MonitorService;
  summaries: Pick<SiteHealthSummaries, 'list'>;
  website(organizationId: number, id: number): Promise<WebsiteDocument | null>;
  findings: Pick<SiteFindings, 'list'>;
  lighthouse: Pick<LighthouseHistory, 'list'>;
  artifacts: Pick<RunArtifacts, 'read'>;
}): Route[] {
  const { service } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/api/site-health',
      operationId: 'getSiteHealthOverview',
      summary:
        'Every website’s site health: open broken links, mixed content, sitemap errors and Lighthouse scores',
      description:
        'One item per website with a crawl or a Lighthouse check, from their last runs; `sort` by a count (most first) or a score (its worst page and preset, lowest first) unless `order` says otherwise; websites without the figure last. A client user sees its own customer’s websites.',
      tags: ['Site health'],
      access: 'read',
      query: z.strictObject({
        customerId: decimalId().optional(),
        sort: z.enum(SORTS).default('brokenLinks'),
        order: z
          .enum(['asc', 'desc'])
          .optional()
          .describe('Default: counts most first, scores lowest first, names A–Z'),
      }),
      success: { status: 200, description: 'Sorted', schema: z.object({ items: z.array(overviewItem) }) },
      handle: async ({ auth, query }) => {
        const byWebsite = new Map<number, z.input<typeof overviewItem>>();
        const summaries = await deps.summaries.list(auth.organizationId, query.customerId);
        // Each website read once (a crawl and a Lighthouse check share it), all at once.
        const ids = [...new Set(summaries.map((summary) => summary.websiteId))];
        const websites = new Map(
          (await Promise.all(ids.map((id) => deps.website(auth.organizationId, id)))).flatMap((website) =>
            website ? [[website.id, website] as const] : [],
          ),
        );
        for (const summary of summaries) {
          const website = websites.get(summary.websiteId);
          if (!website) continue;
          const item = byWebsite.get(website.id) ?? {
            website: {
              id: website.id,
              publicId: website.publicId,
              name: website.name,
              url: website.url,
              customerId: website.customerId,
            },
            crawl: null,
            lighthouse: null,
          };
          if (summary.crawl) item.crawl = { ...summary.crawl, monitorId: summary.monitorId };
          if (summary.lighthouse)
            item.lighthouse = { monitorId: summary.monitorId, pages: summary.lighthouse };
          byWebsite.set(website.id, item);
        }
        const figure = (item: z.input<typeof overviewItem>): number | string | null => {
          if (query.sort === 'name') return item.website.name.toLowerCase();
          if (query.sort === 'brokenLinks' || query.sort === 'mixedContent' || query.sort === 'sitemapErrors')
            return item.crawl ? item.crawl[query.sort] : null;
          return item.lighthouse ? lowest(item.lighthouse.pages, query.sort) : null;
        };
        const ascending =
          (query.order ?? (query.sort === 'name' || !COUNT_SORTS.has(query.sort) ? 'asc' : 'desc')) === 'asc';
        const items = [...byWebsite.values()].sort((a, b) => {
          const [x, y] = [figure(a), figure(b)];
          if (x === null || y === null) return x === y ? a.website.id - b.website.id : x === null ? 1 : -1;
          const order = x < y ? -1 : x > y ? 1 : a.website.id - b.website.id;
          return ascending ? order : -order;
        });
        return { items };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/monitors/:id/runs/:runRef',
      operationId: 'getSiteRun',
      summary: 'A crawl’s or Lighthouse check’s run: queued, running (with its progress) or ended',
      description:
        'POST /api/monitors/{id}/run answers 202 with this for a crawl or a Lighthouse check (scheduled runs are shown too while they go on). Kept a day after the run.',
      tags: ['Site health'],
      access: 'read',
      params: idParams.extend({ runRef: runId }),
      success: { status: 200, description: 'The run', schema: siteRunViewSchema },
      handle: ({ auth, params }) => service.siteRun(auth.organizationId, params.id, params.runRef),
    }),
    defineRoute({
      method: 'get',
      path: '/api/monitors/:id/findings',
      operationId: 'listSiteFindings',
      summary: 'A crawl’s findings: broken links, mixed content and sitemap errors, open or fixed',
      description:
        'Newest first. Each finding with its `url`, the `pages` it appears on (the first 20; `pageCount` all), its `status` or `error` (broken links), `category` (mixed content: active or passive) or `code` (sitemaps), `firstSeenAt` and `lastSeenAt`; fixed ones with `fixedAt` (kept as long as results). A client user reads its own customer’s websites’ only.',
      tags: ['Site health'],
      access: 'read',
      params: idParams,
      query: z.strictObject({
        type: z.enum(FINDING_TYPES).optional(),
        state: z.enum(FINDING_STATES).optional(),
        limit: z.coerce.number().int().min(1).max(1000).default(200),
      }),
      success: {
        status: 200,
        description: 'Newest first',
        schema: z.object({
          items: z.array(findingView),
          total: z.number().int().describe('Findings matching, beyond `limit` too'),
        }),
      },
      handle: async ({ auth, params, query }) => {
        const monitor = await service.getAny(auth.organizationId, params.id);
        if (monitor.kind !== 'crawl')
          throw notFound(`Monitor ${params.id} is not a crawl: it has no findings`);
        const { findings, total } = await deps.findings.list(
          { organizationId: auth.organizationId, monitorId: monitor.id },
          query,
        );
        return {
          items: findings.map(({ finding, state, fixedAt }) => ({
            ...finding,
            state,
            fixedAt: fixedAt?.toISOString() ?? null,
          })),
          total,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/monitors/:id/lighthouse',
      operationId: 'listLighthouseRuns',
      summary: 'A Lighthouse check’s history: scores and lab metrics of each page and preset, newest first',
      description:
        'Each run’s scores (performance, accessibility, best practices, SEO, 0–100), lab metrics (LCP, CLS, TBT, FCP, Speed Index), the audits that cost most points, the thresholds it breached, and its full report’s link. Kept as long as results (reports 30 days at most).',
      tags: ['Site health'],
      access: 'read',
      params: idParams,
      query: z.strictObject({
        limit: z.coerce.number().int().min(1).max(500).default(100),
        from: z.iso.datetime().optional(),
        to: z.iso.datetime().optional(),
      }),
      success: {
        status: 200,
        description: 'Newest first',
        schema: z.object({ items: z.array(lighthouseRunView) }),
      },
      handle: async ({ auth, params, query }) => {
        const monitor = await service.getAny(auth.organizationId, params.id);
        if (monitor.kind !== 'lighthouse')
          throw notFound(`Monitor ${params.id} is not a Lighthouse check: it has no Lighthouse history`);
        const records = await deps.lighthouse.list(
          { organizationId: auth.organizationId, monitorId: monitor.id },
          {
            limit: query.limit,
            from: query.from ? new Date(query.from) : undefined,
            to: query.to ? new Date(query.to) : undefined,
          },
        );
        return {
          items: records.map((record) => ({
            runId: record.runId,
            at: record.at.toISOString(),
            url: record.url,
            preset: record.preset,
            outcome: record.outcome,
            error: record.error,
            figures: record.figures,
            breaches: record.breaches,
            reportUrl: record.report
              ? `/api/monitors/${monitor.id}/lighthouse/${record.runId}/report.html?run=${record.report.replace(/^run-/, '')}`
              : null,
            reportNote: record.reportNote,
          })),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/monitors/:id/lighthouse/:runRef/report.html',
      operationId: 'getLighthouseReport',
      summary: 'A Lighthouse run’s full HTML report, as Lighthouse made it',
      description:
        'Served sandboxed (CSP `sandbox allow-scripts`: its scripts run in an opaque origin and reach nothing). `run`: the page and preset’s place in the check (history items link each). A client user reads its own customer’s websites’ only.',
      tags: ['Site health'],
      access: 'read',
      params: idParams.extend({ runRef: runId }),
      query: reportQuery,
      success: {
        status: 200,
        description: 'The report',
        schema: z.string(),
        contentType: ARTIFACT_CONTENT_TYPES.report,
      },
      problems: [404],
      handle: async ({ auth, params, query, ctx }) => {
        const monitor = await service.getAny(auth.organizationId, params.id);
        const file =
          monitor.kind === 'lighthouse'
            ? await deps.artifacts.read(
                { organizationId: auth.organizationId, websiteId: monitor.websiteId, runId: params.runRef },
                'report',
                `run-${query.run}`,
              )
            : null;
        if (!file) throw notFound('No such report of this monitor (reports are kept 30 days at most)');
        ctx.type = ARTIFACT_CONTENT_TYPES.report;
        ctx.set('Cache-Control', 'private, max-age=3600');
        setContentSecurityPolicy(ctx, REPORT_POLICY, { origins: ["'self'"] });
        return file.data.toString('utf8');
      },
    }),
  ];
}
