import { z } from 'zod';
import { notFound } from '../errors/index.js';
import type { AppContext, Route } from '../http/index.js';
import { defineRoute } from '../http/index.js';
import { badgeSvg, statusBadgeColor, uptimeBadgeColor } from './badge.js';
import { renderNotFoundPage, renderStatusPage } from './page-html.js';
import { type StatusPageData, statusText } from './page-model.js';
import { PUBLIC_CACHE_SECONDS, type PublicStatusPages } from './public-pages.js';
import { SLUG_PATTERN } from './status-page.schema.js';

const TAGS = ['Public status pages'];
const CACHE = `public, max-age=${PUBLIC_CACHE_SECONDS}`;
const SVG = 'image/svg+xml; charset=utf-8';
const BADGE_PERIODS = { '24h': 1, '7d': 7, '30d': 30, '90d': 90 } as const;

const slugParams = z.strictObject({ slug: z.string().describe('The status page’s slug') });
const badgeParams = z.strictObject({
  publicId: z.uuid().describe('The website’s publicId (the website must be on a public status page)'),
});

/** The page's data in JSON: the same figures the HTML page shows. */
const statusPageDataView = z
  .object({
    title: z.string(),
    branding: z.object({
      logoUrl: z.string().nullable(),
      accentColor: z.string().nullable(),
      footerText: z.string().nullable(),
    }),
    generatedAt: z.iso.datetime(),
    overall: z.object({ state: z.string(), text: z.string() }),
    websites: z.array(
      z.object({
        publicId: z.string(),
        name: z.string(),
        status: z.string(),
        statusText: z.string(),
        lastCheckedAt: z.iso.datetime().nullable(),
        uptime90dPercent: z.number().nullable(),
        days: z.array(
          z.object({
            date: z.string(),
            uptimePercent: z.number().nullable(),
            downtimeSeconds: z.number().int(),
          }),
        ),
        responseTimes: z
          .array(z.object({ hour: z.iso.datetime(), averageMs: z.number().nullable() }))
          .nullable(),
      }),
    ),
    incidents: z.array(
      z.object({
        website: z.string(),
        startedAt: z.iso.datetime(),
        resolvedAt: z.iso.datetime().nullable(),
        durationSeconds: z.number().int(),
        open: z.boolean(),
      }),
    ),
    maintenance: z.array(
      z.object({
        website: z.string(),
        title: z.string(),
        startsAt: z.iso.datetime(),
        endsAt: z.iso.datetime(),
      }),
    ),
  })
  .meta({ id: 'PublicStatusPage' });

/** The page itself: HTML whatever happens (a visitor's browser gets a page, not a problem document). */
function htmlPageRoute(pages: PublicStatusPages): Route {
  return {
    method: 'get',
    path: '/status/:slug',
    operationId: 'viewStatusPage',
    summary: 'A public status page (HTML, works without JavaScript)',
    description: 'An unknown or non-public slug answers a 404 page.',
    tags: TAGS,
    access: 'public',
    params: slugParams,
    success: {
      status: 200,
      description: 'The page',
      schema: z.string(),
      contentType: 'text/html; charset=utf-8',
      headers: ['Cache-Control'],
    },
    problems: [404],
    async run(ctx: AppContext) {
      const slug = String(ctx.params.slug ?? '');
      const data: StatusPageData | null = SLUG_PATTERN.test(slug) ? await pages.page(slug) : null;
      ctx.type = 'text/html; charset=utf-8';
      // Styles inline, no script, images (the logo) from anywhere the agency put it.
      ctx.set(
        'Content-Security-Policy',
        "default-src 'none'; style-src 'unsafe-inline'; img-src http: https:",
      );
      ctx.set('X-Content-Type-Options', 'nosniff');
      if (!data) {
        ctx.status = 404;
        ctx.set('Cache-Control', 'no-store');
        ctx.body = renderNotFoundPage();
        return;
      }
      ctx.status = 200;
      ctx.set('Cache-Control', CACHE);
      ctx.body = renderStatusPage(data, { jsonPath: `/status/${slug}.json` });
    },
  };
}

/** What a badge shows, or 404 for a website on no public page (or none at all). */
async function badgeOf(pages: PublicStatusPages, publicId: string, periodDays: number) {
  const found = await pages.badge(publicId, periodDays);
  if (!found) throw notFound('No website by that id on a public status page');
  return found;
}

async function badge(ctx: AppContext, svg: string) {
  ctx.type = SVG;
  ctx.set('Cache-Control', CACHE);
  ctx.set('X-Content-Type-Options', 'nosniff');
  return svg;
}

/** `/status/{slug}`, its JSON twin, and badges of the websites on public pages. No token. */
export function publicStatusRoutes(pages: PublicStatusPages): Route[] {
  return [
    // Before the HTML route: `/status/:slug` would take `x.json` as a slug.
    defineRoute({
      method: 'get',
      path: '/status/:slug.json',
      operationId: 'getStatusPageData',
      summary: 'A public status page’s data (what the HTML page shows)',
      tags: TAGS,
      access: 'public',
      params: slugParams,
      success: {
        status: 200,
        description: 'The page’s data',
        schema: statusPageDataView,
        headers: ['Cache-Control'],
      },
      problems: [404],
      handle: async ({ params, ctx }) => {
        const data = SLUG_PATTERN.test(params.slug) ? await pages.page(params.slug) : null;
        if (!data) throw notFound('No public status page by that name');
        ctx.set('Cache-Control', CACHE);
        return data;
      },
    }),
    htmlPageRoute(pages),
    defineRoute({
      method: 'get',
      path: '/badge/:publicId/status.svg',
      operationId: 'getStatusBadge',
      summary: 'A website’s status as a badge (SVG)',
      tags: TAGS,
      access: 'public',
      params: badgeParams,
      success: {
        status: 200,
        description: 'The badge',
        schema: z.string(),
        contentType: SVG,
        headers: ['Cache-Control'],
      },
      problems: [404],
      handle: async ({ params, ctx }) => {
        const found = await badgeOf(pages, params.publicId, 1);
        return badge(
          ctx,
          badgeSvg('status', statusText(found.status).toLowerCase(), statusBadgeColor(found.status)),
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: '/badge/:publicId/uptime.svg',
      operationId: 'getUptimeBadge',
      summary: 'A website’s uptime over a period as a badge (SVG)',
      tags: TAGS,
      access: 'public',
      params: badgeParams,
      query: z.strictObject({
        period: z.enum(Object.keys(BADGE_PERIODS) as [keyof typeof BADGE_PERIODS]).default('30d'),
      }),
      success: {
        status: 200,
        description: 'The badge',
        schema: z.string(),
        contentType: SVG,
        headers: ['Cache-Control'],
      },
      problems: [404],
      handle: async ({ params, query, ctx }) => {
        const found = await badgeOf(pages, params.publicId, BADGE_PERIODS[query.period]);
        const value = found.uptimePercent === null ? 'no data' : `${found.uptimePercent.toFixed(2)}%`;
        return badge(ctx, badgeSvg(`uptime ${query.period}`, value, uptimeBadgeColor(found.uptimePercent)));
      },
    }),
  ];
}
