import { z } from 'zod';
import { notFound } from '../../../libs/errors/index.js';
import type { AppContext, OtherResponse, Route } from '../../../libs/http/index.js';
import { defineRoute, sendStoredBody, setContentSecurityPolicy } from '../../../libs/http/index.js';
import {
  badgeSvg,
  PUBLIC_CACHE_SECONDS,
  type PublicStatusPages,
  pageBadgeSvg,
  publicStatusPageView,
  publishedSummary,
  renderNotFoundPage,
  renderWidget,
  SLUG_PATTERN,
  statusBadgeColor,
  statusText,
  uptimeBadgeColor,
} from '../../../libs/status-pages/index.js';

import { statusPageDomainOf } from './status-page-gate.js';

const TAGS = ['Public status pages'];
/**
 * Routes only a page anyone may see has (a private page's answer 404, as no page): the gate in
 * front of the pages' routes reads this list (apps/api/status-page-access.ts).
 */
export const PUBLIC_ONLY_STATUS_PATHS = ['/status/:slug/badge.svg', '/status/:slug/widget'] as const;
/** The widget shows what the badge does, and is meant to be framed by any site. */
const WIDGET_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
];
const BADGE_CACHE = `public, max-age=${PUBLIC_CACHE_SECONDS}`;
/**
 * A page is asked again each time (304 while its ETag holds): one kept for a while by a browser or
 * CDN would still show after it was unpublished, renamed or deleted.
 */
const PAGE_CACHE = 'no-cache';
const SVG = 'image/svg+xml; charset=utf-8';
const BADGE_PERIODS = { '24h': 1, '7d': 7, '30d': 30, '90d': 90 } as const;

const slugParams = z.strictObject({ slug: z.string().describe('The status page’s slug') });
const badgeParams = z.strictObject({
  publicId: z.uuid().describe('The website’s publicId (the website must be on a public status page)'),
});

/** Styles inline, no script, images (the logo) from anywhere the agency put it. */
export const PAGE_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src http: https:',
  "base-uri 'none'",
  "form-action 'none'",
];
/** A badge is an image: it draws with its own inline styles and loads nothing. */
/** What every badge route answers: an SVG, cached a while. */
const BADGE_SUCCESS = {
  status: 200 as const,
  description: 'The badge',
  schema: z.string(),
  contentType: SVG,
  headers: ['Cache-Control' as const],
};
const BADGE_POLICY = ["default-src 'none'", "style-src 'unsafe-inline'"];

const NOT_MODIFIED: OtherResponse = {
  description: 'Unchanged since the ETag sent in If-None-Match',
  headers: ['Cache-Control', 'ETag'],
};
const NOT_FOUND_PAGE: OtherResponse = {
  description: 'No public page by that slug: a page saying so',
  body: { schema: z.string(), contentType: 'text/html; charset=utf-8' },
};

/** The public page as HTML (a 404 page when there is none) or as JSON (a 404 problem). */
function publishedPageRoute(pages: PublicStatusPages, format: 'html' | 'json'): Route {
  const html = format === 'html';
  return {
    method: 'get',
    // The JSON route is mounted first: `/status/:slug` would take `x.json` as a slug.
    path: html ? '/status/:slug' : '/status/:slug.json',
    operationId: html ? 'viewStatusPage' : 'getStatusPageData',
    summary: html
      ? 'A public status page (HTML, works without JavaScript)'
      : 'A public status page’s data (what the HTML page shows)',
    description:
      'An unknown or unpublished slug answers 404. A private page (its `access`) is answered only to ' +
      'visitors it lets in, `Cache-Control: private, no-store`; ' +
      (html
        ? 'others get its password form or a page saying it is private (403). '
        : 'others get the same 404 as for no page. ') +
      'The answer carries a strong ETag: If-None-Match with it answers 304 while the page is unchanged.',
    tags: TAGS,
    access: 'public',
    params: slugParams,
    success: html
      ? {
          status: 200,
          description: 'The page',
          schema: z.string(),
          contentType: 'text/html; charset=utf-8',
          headers: ['Cache-Control', 'ETag'],
        }
      : {
          status: 200,
          description: 'The page’s data',
          schema: publicStatusPageView,
          contentType: 'application/json',
          headers: ['Cache-Control', 'ETag'],
        },
    // A browser gets a page saying there is none, not a problem document.
    problems: html ? [429, 503] : [404, 429, 503],
    otherResponses: html ? { 304: NOT_MODIFIED, 404: NOT_FOUND_PAGE } : { 304: NOT_MODIFIED },
    async run(ctx: AppContext) {
      const slug = String(ctx.params?.slug ?? '');
      const page = SLUG_PATTERN.test(slug) ? await pages.page(slug) : null;
      if (!page && !html) throw notFound('No public status page by that name');
      if (html) setContentSecurityPolicy(ctx, PAGE_POLICY, { origins: page?.embedAllowedOrigins ?? [] });
      if (!page) {
        // A visitor's browser gets a page, not a problem document.
        ctx.status = 404;
        ctx.type = 'text/html; charset=utf-8';
        ctx.set('Cache-Control', 'no-store');
        ctx.body = renderNotFoundPage();
        return;
      }
      ctx.set('Cache-Control', PAGE_CACHE);
      await sendStoredBody(ctx, html ? page.html : page.json);
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
  ctx.set('Cache-Control', BADGE_CACHE);
  setContentSecurityPolicy(ctx, BADGE_POLICY, 'anywhere');
  return svg;
}

/** The page's title and overall state, or 404 for no public page by that slug. */
async function summaryOf(pages: PublicStatusPages, slug: string) {
  const page = SLUG_PATTERN.test(slug) ? await pages.page(slug) : null;
  if (!page) throw notFound('No public status page by that name');
  return publishedSummary(page);
}

/** The whole page's badge and its embeddable widget: for pages anyone may see only. */
function pageEmbedRoutes(pages: PublicStatusPages): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/status/:slug/badge.svg',
      operationId: 'getStatusPageBadge',
      summary:
        'A status page’s overall state as a badge (SVG): operational, degraded, partial or major outage',
      description: 'For a published page anyone may see; a private page answers 404, as an unknown one does.',
      tags: TAGS,
      access: 'public',
      params: slugParams,
      success: BADGE_SUCCESS,
      problems: [404, 429, 503],
      handle: async ({ params, ctx }) => {
        const summary = await summaryOf(pages, params.slug);
        return badge(ctx, pageBadgeSvg(summary.overall, summary.language));
      },
    }),
    {
      method: 'get',
      path: '/status/:slug/widget',
      operationId: 'getStatusPageWidget',
      summary: 'A small status widget for an iframe: the page’s title and overall state, linking to the page',
      description:
        'A tiny HTML document without script, framed by any site (it shows what the page’s badge shows). ' +
        'For a published page anyone may see; any other slug answers a 404 page.',
      tags: TAGS,
      access: 'public',
      params: slugParams,
      success: {
        status: 200,
        description: 'The widget',
        schema: z.string(),
        contentType: 'text/html; charset=utf-8',
        headers: ['Cache-Control'],
      },
      problems: [429, 503],
      otherResponses: { 404: NOT_FOUND_PAGE },
      async run(ctx: AppContext) {
        const slug = String(ctx.params?.slug ?? '');
        const page = SLUG_PATTERN.test(slug) ? await pages.page(slug) : null;
        ctx.type = 'text/html; charset=utf-8';
        if (!page) {
          ctx.status = 404;
          ctx.set('Cache-Control', 'no-store');
          setContentSecurityPolicy(ctx, PAGE_POLICY, { origins: [] });
          ctx.body = renderNotFoundPage();
          return;
        }
        const { title, overall, language } = await publishedSummary(page);
        ctx.set('Cache-Control', BADGE_CACHE);
        setContentSecurityPolicy(ctx, WIDGET_POLICY, 'anywhere');
        ctx.body = renderWidget({
          title,
          overall,
          pageHref: statusPageDomainOf(ctx) ? '/' : `/status/${slug}`,
          language,
        });
      },
    },
  ];
}

/** `/status/{slug}`, its JSON twin, badge and widget, and badges of the websites on public pages. No token. */
export function publicStatusRoutes(pages: PublicStatusPages): Route[] {
  return [
    publishedPageRoute(pages, 'json'),
    publishedPageRoute(pages, 'html'),
    ...pageEmbedRoutes(pages),
    defineRoute({
      method: 'get',
      path: '/badge/:publicId/status.svg',
      operationId: 'getStatusBadge',
      summary: 'A website’s status as a badge (SVG)',
      tags: TAGS,
      access: 'public',
      params: badgeParams,
      success: BADGE_SUCCESS,
      problems: [404, 429, 503],
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
      path: '/badge/:publicId/monitors.svg',
      operationId: 'getMonitorsBadge',
      summary: 'A website’s heartbeats, DNS and port checks as a badge (SVG): all up, or how many are down',
      tags: TAGS,
      access: 'public',
      params: badgeParams,
      success: BADGE_SUCCESS,
      problems: [404, 429, 503],
      handle: async ({ params, ctx }) => {
        const found = await pages.monitorsBadge(params.publicId);
        if (!found) throw notFound('No website by that id on a public status page');
        const [value, color] =
          found.total === 0
            ? ['none', 'grey' as const]
            : found.down > 0
              ? [`${found.down} of ${found.total} down`, 'red' as const]
              : found.degraded > 0
                ? [`${found.degraded} of ${found.total} degraded`, 'yellow' as const]
                : [`${found.total} up`, 'green' as const];
        return badge(ctx, badgeSvg('jobs & checks', value, color));
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
      success: BADGE_SUCCESS,
      problems: [404, 429, 503],
      handle: async ({ params, query, ctx }) => {
        const found = await badgeOf(pages, params.publicId, BADGE_PERIODS[query.period]);
        const value = found.uptimePercent === null ? 'no data' : `${found.uptimePercent.toFixed(2)}%`;
        return badge(ctx, badgeSvg(`uptime ${query.period}`, value, uptimeBadgeColor(found.uptimePercent)));
      },
    }),
  ];
}
