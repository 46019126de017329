// A website's check results: every monitor's results merged in pages, a failing HTTP result's evidence.
import { ObjectId, type WithId } from 'mongodb';
import { z } from 'zod';
import { evidenceSchema, timingsSchema } from '../../../libs/checks/index.js';
import { decimalInteger } from '../../../libs/contract/index.js';
import { notFound } from '../../../libs/errors/index.js';
import { checkResultSchema } from '../../../libs/events/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type { CheckResultDocument, ResultRepository } from '../../../libs/monitoring/index.js';
import {
  CHECKED_KINDS,
  mergedPage,
  notACursor,
  type OtherResultItem,
  otherResultView,
  type PagedSource,
} from '../../../libs/monitoring/index.js';
import { type WebsiteDocument, websiteRefParams } from '../../../libs/websites/index.js';

const isoDate = z.iso.datetime({ offset: true }).transform((text) => new Date(text));

type ResultItem = OtherResultItem | z.input<typeof resultView>;

const resultView = z
  .object({
    id: z.string().describe('The result’s id (for its evidence)'),
    websiteId: z.number().int(),
    kind: z
      .literal('http')
      .describe(
        "The monitor that made it: the website's HTTP check (DNS and port checks have results of their own)",
      ),
    monitorId: z.number().int().describe('For an HTTP result, the website'),
    region: z.string(),
    nodeId: z.string(),
    startedAt: z.iso.datetime(),
    status: z.enum(['up', 'degraded', 'down']),
    inMaintenance: z.boolean(),
    httpStatus: z.number().int().nullable(),
    sizeBytes: z.number().int().nullable(),
    truncated: z
      .boolean()
      .describe(
        'The body was longer than the probe reads (the page-size cap, at least 10 MiB): sizeBytes is a lower bound',
      ),
    timings: timingsSchema,
    redirects: z
      .array(
        z.object({
          url: z.string(),
          status: z.number().int(),
          timings: z
            .object({ dns: z.number(), connect: z.number(), tls: z.number(), ttfb: z.number() })
            .optional()
            .describe('This request’s phases in ms (the result’s `timings` add up every request)'),
        }),
      )
      .describe('The requests that answered with a redirect, in order; the last request is the result’s own'),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    checks: z.array(checkResultSchema),
    ssl: z
      .object({
        validTo: z.iso.datetime(),
        daysLeft: z.number().int(),
        issuer: z.string(),
        subject: z.string(),
        valid: z.boolean(),
      })
      .nullable(),
    hasEvidence: z
      .boolean()
      .describe('A failing result keeps what it saw: GET …/results/{resultRef}/evidence'),
  })
  .meta({ id: 'Result' });

function toResultView(result: WithId<CheckResultDocument>): z.input<typeof resultView> {
  return {
    id: result._id.toHexString(),
    websiteId: result.websiteId,
    kind: 'http',
    monitorId: result.websiteId,
    region: result.region,
    nodeId: result.nodeId,
    startedAt: result.startedAt.toISOString(),
    status: result.status,
    inMaintenance: result.inMaintenance,
    httpStatus: result.httpStatus,
    sizeBytes: result.sizeBytes,
    truncated: result.truncated ?? false,
    timings: result.timings,
    redirects: result.redirects,
    error: result.error,
    checks: result.checks,
    ssl: result.ssl && { ...result.ssl, validTo: result.ssl.validTo.toISOString() },
    hasEvidence: (result.evidenceBytes ?? 0) > 0,
  };
}

/** A position in a website's HTTP results: `<startedAt>|<_id>`, below it (or `…|=`: from it on). */
function positionOf(result: { startedAt: Date; _id: ObjectId }, including = false): string {
  return `${result.startedAt.toISOString()}|${result._id.toHexString()}${including ? '|=' : ''}`;
}

function afterPosition(position: string): { startedAt: Date; id: ObjectId; including: boolean } {
  const [iso, id, including] = position.split('|');
  const startedAt = new Date(iso ?? '');
  if (!id || !ObjectId.isValid(id) || Number.isNaN(startedAt.getTime()) || (including && including !== '=')) {
    throw notACursor();
  }
  return { startedAt, id: new ObjectId(id), including: including === '=' };
}

/** The website's HTTP results as a source of its merged results page. */
function httpResultSource(
  results: ResultRepository,
  website: WebsiteDocument,
  window: { from?: Date | undefined; to?: Date | undefined },
): PagedSource<z.input<typeof resultView>> {
  return {
    key: 'http',
    read: async (position, limit) =>
      (
        await results.page(website.organizationId, website.id, {
          ...window,
          after: position ? afterPosition(position) : undefined,
          limit,
        })
      ).map((result) => ({
        at: result.startedAt,
        item: toResultView(result),
        below: positionOf(result),
        from: positionOf(result, true),
      })),
  };
}

/** A cursor as pages of HTTP results wrote it before every kind was merged (`<startedAt>|<_id>`). */
function mergedCursor(cursor: string): string {
  const text = Buffer.from(cursor, 'base64url').toString();
  return /^\d{4}-[^|]+\|[0-9a-f]{24}$/.test(text)
    ? Buffer.from(JSON.stringify({ http: text })).toString('base64url')
    : cursor;
}

/** What the results routes read: the website, its HTTP results, and its other monitors' logs. */
export interface WebsiteResultDeps {
  website: (organizationId: number, ref: string) => Promise<WebsiteDocument>;
  results: ResultRepository;
  /** The logs of the website's other monitors (of `kind`, or the one `monitorId`) its results page merges. */
  resultSources(
    website: WebsiteDocument,
    filter: { kind?: string; monitorId?: number },
    window: { from?: Date | undefined; to?: Date | undefined },
  ): Promise<Array<PagedSource<OtherResultItem>>>;
}

/** A website's results, merged newest first in pages, and what a failing one saw. */
export function websiteResultRoutes(deps: WebsiteResultDeps): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/websites/:websiteRef/results',
      operationId: 'listWebsiteResults',
      summary: 'Check results, newest first, in pages',
      tags: ['Results'],
      access: 'read',
      params: websiteRefParams,
      description:
        'Without `kind` and `monitorId`: the results of every monitor of the website (its HTTP check and its DNS, port and probe checks), merged newest first, each with its `kind` and `monitorId`. With `kind` (http, dns, port, icmp, udp, grpc, websocket, smtp, imap, pop3, api-flow, browser): those of its monitors of that kind; with `monitorId`: that monitor’s. Pages follow `nextCursor` either way (a heartbeat’s pings are at /api/heartbeats/{id}/pings).',
      query: z.strictObject({
        from: isoDate.optional(),
        to: isoDate.optional(),
        limit: decimalInteger({ min: 1, max: 1000 }).default(100),
        cursor: z.string().max(2000).optional(),
        kind: z.enum(['http', ...CHECKED_KINDS]).optional(),
        monitorId: decimalInteger({ min: 1, max: Number.MAX_SAFE_INTEGER }).optional(),
      }),
      success: {
        status: 200,
        description: 'A page of results; nextCursor is null on the last page',
        schema: z
          .object({
            items: z.array(z.union([resultView, otherResultView])),
            nextCursor: z.string().nullable(),
          })
          .meta({ id: 'ResultPage' }),
      },
      problems: [404],
      handle: async ({ auth, params, query }) => {
        const website = await deps.website(auth.organizationId, params.websiteRef);
        const window = { from: query.from, to: query.to };
        const { kind, monitorId } = query;
        const withHttp = kind === 'http' || (kind === undefined && monitorId === undefined);
        const sources: Array<PagedSource<ResultItem>> = [
          ...(withHttp ? [httpResultSource(deps.results, website, window)] : []),
          ...(kind === 'http'
            ? []
            : await deps.resultSources(
                website,
                { ...(kind ? { kind } : {}), ...(monitorId !== undefined ? { monitorId } : {}) },
                window,
              )),
        ];
        return mergedPage(sources, {
          limit: query.limit,
          cursor: query.cursor === undefined ? undefined : mergedCursor(query.cursor),
        });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/websites/:websiteRef/results/:resultRef/evidence',
      operationId: 'getResultEvidence',
      summary: 'What a failing check saw: the answer (status, headers, body as text) or why none came',
      description:
        'Kept with every down or degraded result; the body once per website, region and 5 minutes ' +
        '(other results say it was omitted). Cookies, credentials and the website’s secret headers are ' +
        'redacted, their values blanked wherever the server echoed them. 404 for a result without evidence.',
      tags: ['Results'],
      access: 'read',
      params: websiteRefParams.extend({
        resultRef: z
          .string()
          .regex(/^[0-9a-f]{24}$/)
          .describe('The result’s id, 24 hexadecimal digits (from its list)'),
      }),
      success: { status: 200, description: 'The evidence', schema: evidenceSchema },
      problems: [404],
      handle: async ({ auth, params }) => {
        const website = await deps.website(auth.organizationId, params.websiteRef);
        const evidence = await deps.results.evidence(auth.organizationId, website.id, params.resultRef);
        if (!evidence) throw notFound('No evidence for that result: it passed, or it is not this website’s');
        return evidence;
      },
    }),
  ];
}
