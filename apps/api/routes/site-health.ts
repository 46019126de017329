// Site health through the one engine's routes: a crawl's findings, Lighthouse's history and reports, a run's progress.
import { z } from 'zod';
import { notFound } from '../../../libs/errors/index.js';
import { defineRoute, type Route, setContentSecurityPolicy } from '../../../libs/http/index.js';
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
  FINDING_STATES,
  FINDING_TYPES,
  type LighthouseHistory,
  type SiteFindings,
  siteFindingSchema,
  siteRunViewSchema,
} from '../../../libs/site-health/index.js';
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

export function siteHealthRoutes(deps: {
  service: MonitorService;
  findings: Pick<SiteFindings, 'list'>;
  lighthouse: Pick<LighthouseHistory, 'list'>;
  artifacts: Pick<RunArtifacts, 'read'>;
}): Route[] {
  const { service } = deps;
  return [
    defineRoute({
      method: 'get',
      path: '/api/monitors/:id/runs/:runId',
      operationId: 'getSiteRun',
      summary: 'A crawl’s or Lighthouse check’s run: queued, running (with its progress) or ended',
      description:
        'POST /api/monitors/{id}/run answers 202 with this for a crawl or a Lighthouse check (scheduled runs are shown too while they go on). Kept a day after the run.',
      tags: ['Site health'],
      access: 'read',
      params: idParams.extend({ runId }),
      success: { status: 200, description: 'The run', schema: siteRunViewSchema },
      handle: ({ auth, params }) => service.siteRun(auth.organizationId, params.id, params.runId),
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
      path: '/api/monitors/:id/lighthouse/:runId/report.html',
      operationId: 'getLighthouseReport',
      summary: 'A Lighthouse run’s full HTML report, as Lighthouse made it',
      description:
        'Served sandboxed (CSP `sandbox allow-scripts`: its scripts run in an opaque origin and reach nothing). `run`: the page and preset’s place in the check (history items link each). A client user reads its own customer’s websites’ only.',
      tags: ['Site health'],
      access: 'read',
      params: idParams.extend({ runId }),
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
                { organizationId: auth.organizationId, websiteId: monitor.websiteId, runId: params.runId },
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
