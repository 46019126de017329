import { z } from 'zod';
import { noteForAudit } from '../../../libs/audit/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type { WebsiteDocument, WebsiteService } from '../../../libs/websites/index.js';
import {
  batchBody,
  checkConfigView,
  createWebsiteBody,
  identityOf,
  LISTED_STATUSES,
  listWebsiteSummariesQuery,
  listWebsitesQuery,
  patchCheckConfigBody,
  patchWebsiteBody,
  toCheckConfigView,
  toWebsiteView,
  websitePublicIdParams,
  websiteRefParams,
  websiteView,
} from '../../../libs/websites/index.js';

/** What the monitor says of listed websites now (the API wires the monitor states in). */
export type ListedStatuses = (
  organizationId: number,
  websites: readonly WebsiteDocument[],
) => Promise<Map<number, { status: (typeof LISTED_STATUSES)[number]; lastCheckedAt: Date | null }>>;

/** What a list says of each website besides its fields. */
const listedFields = {
  status: z.enum(LISTED_STATUSES).describe('As GET …/status reports it'),
  lastCheckedAt: z.iso.datetime().nullable(),
};

const listedWebsite = websiteView.extend(listedFields).meta({ id: 'ListedWebsite' });

const DEFAULT_PAGE = 100;

/** Every website's summary: the fields a screen listing hundreds of websites shows. */
const websiteSummary = websiteView
  .pick({ id: true, publicId: true, organizationId: true, customerId: true, name: true, url: true })
  .extend(listedFields)
  .meta({ id: 'WebsiteSummary' });

export function websiteRoutes(service: WebsiteService, statusesOf: ListedStatuses): Route[] {
  /** A page of websites with their status, filtered by status; the Link header set to the next page. */
  const listPage = async (
    organizationId: number,
    query: z.output<typeof listWebsiteSummariesQuery>,
    ctx: { path: string; querystring: string; set(field: string, value: string): void },
  ) => {
    const limit = query.limit ?? (query.customerId === undefined ? DEFAULT_PAGE : undefined);
    const { websites, nextAfterId } = await service.list(organizationId, {
      customerId: query.customerId,
      afterId: query.afterId,
      limit,
      query: query.q,
    });
    if (limit !== undefined && nextAfterId !== null) {
      const next = new URLSearchParams(ctx.querystring);
      next.set('afterId', String(nextAfterId));
      next.set('limit', String(limit));
      ctx.set('Link', `<${ctx.path}?${next}>; rel="next"`);
    }
    const statuses = await statusesOf(organizationId, websites);
    return websites
      .map((website) => {
        const listed = statuses.get(website.id);
        return {
          website,
          status: listed?.status ?? ('unknown' as const),
          lastCheckedAt: listed?.lastCheckedAt?.toISOString() ?? null,
        };
      })
      .filter((item) => query.status === undefined || item.status === query.status);
  };
  return [
    defineRoute({
      method: 'post',
      path: '/api/websites',
      operationId: 'createWebsite',
      summary: 'Add a website to a customer',
      description:
        'Omitted fields take their defaults. The website is scheduled before the response is sent.',
      tags: ['Websites'],
      access: 'write',
      body: createWebsiteBody,
      success: { status: 201, description: 'Created', schema: websiteView },
      handle: async ({ auth, body, ctx }) => {
        const website = await service.create(auth.organizationId, body);
        ctx.set('Location', `/api/websites/${website.publicId}`);
        return toWebsiteView(website);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/websites/batch',
      operationId: 'createWebsites',
      summary: 'Add up to 1,000 websites at once, each with its check configuration',
      description:
        'Every item is validated first as a single create validates it (its fields, its customer, the package’s features and limits for the whole batch, its channels, its `checkConfig`). Any invalid item: 400 naming each `items.<index>.<field>`, nothing written, unless `partial: true` (the valid ones are written; each item says how it went). Items valid in themselves but past their customer’s package `maxWebsites` (with no other invalid item): 409 naming each `items.<index>.customerId`, nothing written. `dryRun: true` writes nothing and says which items would be created. The websites are stored in bulk and scheduled before the answer.',
      tags: ['Websites'],
      access: 'write',
      body: batchBody,
      problems: [409],
      success: {
        status: 200,
        description: 'How each item went, in the order sent',
        schema: z
          .object({
            dryRun: z.boolean(),
            created: z.number().int(),
            invalid: z.number().int(),
            items: z.array(
              z.object({
                index: z.number().int(),
                status: z
                  .enum(['created', 'valid', 'invalid'])
                  .describe('valid: it would be created (a dry run)'),
                website: websiteView.nullable(),
                errors: z.array(z.object({ path: z.string(), message: z.string() })),
              }),
            ),
          })
          .meta({ id: 'WebsiteBatchResult' }),
      },
      handle: async ({ auth, body }) => {
        const outcomes = await service.createMany(auth.organizationId, body.items, body);
        return {
          dryRun: body.dryRun,
          created: outcomes.filter((o) => o.status === 'created').length,
          invalid: outcomes.filter((o) => o.status === 'invalid').length,
          items: outcomes.map((outcome) => ({
            ...outcome,
            website: outcome.website && toWebsiteView(outcome.website),
          })),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/websites',
      operationId: 'listWebsites',
      summary: "List the organization's websites, or one customer's, with their status",
      description:
        'Without customerId: every customer\'s websites, a page of `limit` (100) at a time; a `Link: <…>; rel="next"` header points to the next page. A page filtered by `status` may hold fewer. `q` searches names and URLs (without the scheme) for a text of 3 characters or more; a search page may hold fewer too (it reads at most 1,000 candidates), the Link header then says where to go on.',
      tags: ['Websites'],
      access: 'read',
      query: listWebsitesQuery,
      success: {
        status: 200,
        description: 'Websites, by id',
        schema: z.array(listedWebsite),
        headers: ['Link'],
      },
      problems: [404],
      handle: async ({ auth, query, ctx }) =>
        // Completed in place: a spread copy of each view cost as much again, and its schema check too.
        (await listPage(auth.organizationId, query, ctx)).map(({ website, status, lastCheckedAt }) =>
          Object.assign(toWebsiteView(website), { status, lastCheckedAt }),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/api/websites/summaries',
      operationId: 'listWebsiteSummaries',
      summary: 'List websites as `GET /api/websites` does, each in a few fields (for overviews that poll)',
      description:
        'The same pages, filters, search and Link header as `GET /api/websites`, up to 1,000 a page, each website as its ids, customer, name, URL and status: about a tenth of the bytes, for a screen that reads every website every few seconds.',
      tags: ['Websites'],
      access: 'read',
      query: listWebsiteSummariesQuery,
      success: {
        status: 200,
        description: 'Websites, by id',
        schema: z.array(websiteSummary),
        headers: ['Link'],
      },
      problems: [404],
      handle: async ({ auth, query, ctx }) =>
        (await listPage(auth.organizationId, query, ctx)).map(({ website, status, lastCheckedAt }) =>
          Object.assign(identityOf(website), { status, lastCheckedAt }),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/api/websites/:websiteRef',
      operationId: 'getWebsite',
      summary: 'Get a website by publicId (UUID) or integer id',
      tags: ['Websites'],
      access: 'read',
      params: websiteRefParams,
      success: { status: 200, description: 'The website', schema: websiteView },
      handle: async ({ auth, params }) =>
        toWebsiteView(await service.get(auth.organizationId, params.websiteRef)),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/websites/:websiteRef',
      operationId: 'updateWebsite',
      summary: 'Update a website (full or partial)',
      description:
        'A body with customerId, name and url is a full update: every omitted optional field returns to its default (except mtlsClientKey, which is write-only and kept unless sent as null). Any other body is a partial update: only the fields sent change. The path takes the publicId (UUID).',
      tags: ['Websites'],
      access: 'write',
      params: websitePublicIdParams,
      body: patchWebsiteBody,
      // The update reads the website under its lock anyway: the audit log takes it from there.
      tellsAuditBefore: true,
      success: { status: 200, description: 'The updated website', schema: websiteView },
      handle: async ({ auth, params, body, ctx }) => {
        const { before, website } = await service.update(auth.organizationId, params.websiteRef, body);
        noteForAudit(ctx, { before: toWebsiteView(before) });
        return toWebsiteView(website);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/websites/:websiteRef',
      operationId: 'deleteWebsite',
      summary: 'Delete a website and stop checking it',
      tags: ['Websites'],
      access: 'write',
      params: websitePublicIdParams,
      success: { status: 204, description: 'Deleted' },
      handle: ({ auth, params }) => service.delete(auth.organizationId, params.websiteRef),
    }),
    defineRoute({
      method: 'get',
      path: '/api/websites/:websiteRef/check-config',
      operationId: 'getCheckConfig',
      summary: 'Which checks run for a website, and their settings',
      tags: ['Check configuration'],
      access: 'read',
      params: websiteRefParams,
      success: { status: 200, description: 'The whole configuration', schema: checkConfigView },
      handle: async ({ auth, params }) => {
        const { website, pkg } = await service.checkConfig(auth.organizationId, params.websiteRef);
        return toCheckConfigView(website, pkg);
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/api/websites/:websiteRef/check-config',
      operationId: 'updateCheckConfig',
      summary: 'Change which checks run; the fields sent are merged',
      description:
        'Turning on a check the customer’s package lacks answers 403 naming it (assertions need the package feature `assertions`). minPageSize must not exceed maxPageSize; the keyword check needs a keyword; the size check needs a bound. responseTimeThresholdMs null returns to the package default. `assertions` (at most 20) replaces the list: each tests the JSON body at an RFC 9535 JSONPath (its first node), a header, the body, the status or the response time; `matches` takes an RE2 pattern (linear time: no backreferences or lookaround); all must hold, else the website is down and the failed ones are named in the result, the incident cause and the alert.',
      tags: ['Check configuration'],
      access: 'write',
      params: websiteRefParams,
      body: patchCheckConfigBody,
      success: { status: 200, description: 'The whole configuration', schema: checkConfigView },
      handle: async ({ auth, params, body }) => {
        const { website, pkg } = await service.patchCheckConfig(auth.organizationId, params.websiteRef, body);
        return toCheckConfigView(website, pkg);
      },
    }),
  ];
}
