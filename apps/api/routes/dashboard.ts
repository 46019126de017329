import { z } from 'zod';
import { decimalId, decimalInteger } from '../../../libs/contract/index.js';
import type { OverviewStreams } from '../../../libs/dashboard/index.js';
import {
  OVERVIEW_IDS_MAX,
  OVERVIEW_PAGE_MAX,
  type OverviewDeps,
  type OverviewSelection,
  websiteOverview,
} from '../../../libs/dashboard/index.js';
import { WEBSITE_STATUSES } from '../../../libs/events/index.js';
import { AppError, defineRoute, type Route, StreamedBody } from '../../../libs/http/index.js';
import { ConcurrencyLimit } from '../../../libs/runtime/index.js';
import { appRoutes } from './app.js';

const checkStatus = z.enum(['up', 'degraded', 'down']);
const recentCheck = z
  .object({
    at: z.iso.datetime(),
    status: checkStatus,
    responseMs: z.number().nullable().describe('null: the check got no answer'),
  })
  .meta({ id: 'RecentCheck' });

const websiteOverviewView = z
  .object({
    id: z.number().int(),
    name: z.string(),
    url: z.string(),
    customerId: z.number().int(),
    customerName: z.string(),
    status: z.enum(WEBSITE_STATUSES),
    statusText: z.string(),
    lastCheckedAt: z.iso.datetime().nullable(),
    uptime24hPercent: z.number().nullable(),
    uptime30dPercent: z.number().nullable(),
    lastResponseMs: z
      .number()
      .nullable()
      .describe("The last check's response time (null: none, or no answer)"),
    recentChecks: z.array(recentCheck).max(30).describe('The last checks (up to 30), oldest first'),
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
/** A refused stream is worth trying again after this (another process may have room; some close). */
const STREAM_RETRY_SECONDS = 30;

const websiteIds = z
  .string()
  .regex(
    new RegExp(`^[1-9][0-9]{0,15}(,[1-9][0-9]{0,15}){0,${OVERVIEW_IDS_MAX - 1}}$`),
    `must be website ids written in decimal, separated by commas, at most ${OVERVIEW_IDS_MAX}`,
  )
  .transform((text) => text.split(',').map(Number));

/** The browser app (`/`, its pages and files), the overview it reads and its live stream. */
export function dashboardRoutes(deps: OverviewDeps & { streams: OverviewStreams }): Route[] {
  const overviews = new ConcurrencyLimit(OVERVIEWS_AT_ONCE, {
    maxWaiting: OVERVIEWS_WAITING,
    resource: 'The website overview',
  });
  return [
    defineRoute({
      method: 'get',
      path: '/api/dashboard/websites',
      operationId: 'getWebsiteOverview',
      summary:
        'Every website of the organization with status, its last checks, response times of the last day and uptime over 24 h and 30 days',
      description: `\`limit\` websites an answer (100; at most 1,000), each page costing the same however many websites the organization has; \`nextAfterId\` asks for the next ones. Or \`ids\`: these websites (at most ${OVERVIEW_IDS_MAX}; unknown ones left out), the rows a screen shows. A client user gets its customer's websites only. A few answers are made at once per API process: past those, 503 with Retry-After. Changes after the answer come on \`GET /api/dashboard/websites/stream\`.`,
      tags: ['Dashboard'],
      access: 'read',
      query: z.strictObject({
        afterId: decimalId().optional().describe('The last website id of the previous page'),
        limit: decimalInteger({ min: 1, max: OVERVIEW_PAGE_MAX })
          .optional()
          .describe('Websites per answer (100)'),
        ids: websiteIds
          .optional()
          .describe(`These websites only (comma-separated, at most ${OVERVIEW_IDS_MAX})`),
      }),
      success: {
        status: 200,
        description: 'The websites, by id',
        schema: z.object({ items: z.array(websiteOverviewView), nextAfterId: z.number().int().nullable() }),
      },
      handle: ({ auth, query }) => {
        const selection: OverviewSelection = query.ids
          ? { ids: query.ids, customerId: auth.customerId }
          : { afterId: query.afterId, limit: query.limit, customerId: auth.customerId };
        return overviews.run(() => websiteOverview(deps, auth.organizationId, selection));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/dashboard/websites/stream',
      operationId: 'streamWebsiteOverview',
      summary: "The overview's changes as they happen (server-sent events)",
      description: `One stream per browser tab, \`text/event-stream\`: each check a worker decides is an event \`change\` (\`id\`; \`data\`: JSON \`{"id": <website id>, "status": <its status now>, "check": <a RecentCheck>}\`); a website changed otherwise (added, edited, paused or resumed, moved, in or out of maintenance, one of its other monitors up or down) is an event \`website\` (\`{"id": <website id>, "deleted": <true when deleted>}\`: read its row again by \`ids\`), and a customer written (its name, its status) an event \`customer\` (\`{"id": <customer id>}\`: read its websites' rows again); all for the caller's websites only (a client user: its customer's). Changes only: read the overview first (\`GET /api/dashboard/websites\`), then apply the changes newer than what it showed. A comment every 25 s keeps proxies from closing a quiet stream. Reconnecting with \`Last-Event-ID\` replays what was missed when the same API process still keeps it; otherwise (or after Redis was away) an event \`resync\` says to read the overview again. Each API process holds a bounded number of streams: past it, 503 with Retry-After (${STREAM_RETRY_SECONDS} s). A stream whose caller signs out, is signed out or loses its token ends within 5 s with an event \`signed-out\`. Streams end when the API shuts down; the client reconnects.`,
      tags: ['Dashboard'],
      access: 'read',
      success: {
        status: 200,
        description:
          'The stream of changes (events `change`, `website`, `customer`, `resync` and `signed-out`, heartbeat comments)',
        schema: z.string().describe('Server-sent events'),
        contentType: 'text/event-stream',
      },
      problems: [503],
      handle: async ({ auth, ctx }) => {
        const lastEventId = ctx.get('last-event-id') || undefined;
        const body = await deps.streams.start(
          { organizationId: auth.organizationId, customerId: auth.customerId },
          lastEventId,
          ctx.state.stillSignedIn,
        );
        if (!body)
          throw new AppError('service-unavailable', {
            detail: `This API process serves as many overview streams as it may (${deps.streams.open}); retry in ${STREAM_RETRY_SECONDS} s (the overview still reads by GET /api/dashboard/websites).`,
            headers: { 'Retry-After': String(STREAM_RETRY_SECONDS) },
          });
        ctx.set('Cache-Control', 'no-cache, no-transform');
        // Proxies such as nginx pass each event on at once instead of buffering the answer.
        ctx.set('X-Accel-Buffering', 'no');
        ctx.req.socket.setNoDelay(true);
        ctx.req.socket.setKeepAlive(true);
        return new StreamedBody(body);
      },
    }),
    ...appRoutes(),
  ];
}
