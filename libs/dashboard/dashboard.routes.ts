import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { decimalId } from '../contract/index.js';
import type { AppContext, Route } from '../http/index.js';
import { defineRoute, setContentSecurityPolicy } from '../http/index.js';
import { type OverviewDeps, websiteOverview } from './overview.js';

const websiteOverviewView = z
  .object({
    id: z.number().int(),
    name: z.string(),
    url: z.string(),
    customerId: z.number().int(),
    customerName: z.string(),
    status: z.string(),
    statusText: z.string(),
    lastCheckedAt: z.iso.datetime().nullable(),
    uptime24hPercent: z.number().nullable(),
    responseTimes24h: z.array(z.number().nullable()).length(24),
  })
  .meta({ id: 'WebsiteOverview' });

/** The dashboard's files: plain HTML, CSS and a script, no build step, nothing fetched from elsewhere. */
const ASSETS = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/dashboard/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/dashboard/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
} as const;

const DASHBOARD_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
];

function assetRoute(path: keyof typeof ASSETS): Route {
  const { file, type } = ASSETS[path];
  let content: string | undefined;
  return {
    method: 'get',
    path,
    operationId: `dashboard${file.replace(/\W/g, '_')}`,
    summary:
      path === '/'
        ? 'The dashboard (asks for an API token, kept in the tab’s session storage)'
        : `The dashboard’s ${file}`,
    tags: ['Dashboard'],
    access: 'public',
    success: {
      status: 200,
      description: file,
      schema: z.string(),
      contentType: type,
      headers: ['Cache-Control'],
    },
    problems: [],
    async run(ctx: AppContext) {
      content ??= readFileSync(new URL(`./assets/${file}`, import.meta.url), 'utf8');
      ctx.status = 200;
      ctx.type = type;
      ctx.set('Cache-Control', 'no-cache');
      // The token lives in this page: no framing, no script or connection but our own, no referrer.
      setContentSecurityPolicy(ctx, DASHBOARD_POLICY, { origins: [] });
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.body = content;
    },
  };
}

/** `/` (the agency's dashboard) and the overview it reads. */
export function dashboardRoutes(deps: OverviewDeps): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/dashboard/websites',
      operationId: 'getWebsiteOverview',
      summary: 'Every website of the organization with status, last check, 24 h uptime and response times',
      description: 'At most 1,000 websites an answer; `nextAfterId` asks for the next ones.',
      tags: ['Dashboard'],
      access: 'read',
      query: z.strictObject({
        afterId: decimalId().optional().describe('The last website id of the previous page'),
      }),
      success: {
        status: 200,
        description: 'The websites, by id',
        schema: z.object({ items: z.array(websiteOverviewView), nextAfterId: z.number().int().nullable() }),
      },
      handle: ({ auth, query }) => websiteOverview(deps, auth.organizationId, { afterId: query.afterId }),
    }),
    assetRoute('/'),
    assetRoute('/dashboard/app.js'),
    assetRoute('/dashboard/app.css'),
  ];
}
