import { z } from 'zod';
import { decimalId, decimalInteger } from '../contract/index.js';
import { defineRoute, type Route } from '../http/index.js';
import { ConcurrencyLimit } from '../runtime/index.js';
import { appRoutes } from './app.routes.js';
import { OVERVIEW_PAGE_MAX, type OverviewDeps, websiteOverview } from './overview.js';

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
    monitors: z
      .object({ total: z.number().int(), down: z.number().int() })
      .describe('Its heartbeats, DNS and port checks, and how many of them are down'),
  })
  .meta({ id: 'WebsiteOverview' });

/**
 * Overviews a process builds at once, and how many may wait: each is hundreds of primary-key reads
 * (a page of 100 websites' rollups and incidents, ~0.5 s on the embedded store). Unbounded, 32 at
 * once held MongoDB's connections long enough for the API to answer 503 to everybody for a while
 * (bench:lookups at 10,000 websites); bounded, the 11th gets 503 with Retry-After, nobody else.
 */
const OVERVIEWS_AT_ONCE = 2;
const OVERVIEWS_WAITING = 8;

/** The browser app (`/`, its pages and files) and the overview it reads. */
export function dashboardRoutes(deps: OverviewDeps): Route[] {
  const overviews = new ConcurrencyLimit(OVERVIEWS_AT_ONCE, {
    maxWaiting: OVERVIEWS_WAITING,
    resource: 'The website overview',
  });
  return [
    defineRoute({
      method: 'get',
      path: '/api/dashboard/websites',
      operationId: 'getWebsiteOverview',
      summary: 'Every website of the organization with status, last check, 24 h uptime and response times',
      description:
        '`limit` websites an answer (100; at most 1,000), each page costing the same however many websites the organization has; `nextAfterId` asks for the next ones. A few answers are made at once per API process: past those, 503 with Retry-After.',
      tags: ['Dashboard'],
      access: 'read',
      query: z.strictObject({
        afterId: decimalId().optional().describe('The last website id of the previous page'),
        limit: decimalInteger({ min: 1, max: OVERVIEW_PAGE_MAX })
          .optional()
          .describe('Websites per answer (100)'),
      }),
      success: {
        status: 200,
        description: 'The websites, by id',
        schema: z.object({ items: z.array(websiteOverviewView), nextAfterId: z.number().int().nullable() }),
      },
      handle: ({ auth, query }) =>
        overviews.run(() =>
          websiteOverview(deps, auth.organizationId, { afterId: query.afterId, limit: query.limit }),
        ),
    }),
    ...appRoutes(),
  ];
}
