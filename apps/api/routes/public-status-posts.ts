import { z } from 'zod';
import { decimalId } from '../../../libs/contract/index.js';
import type { AppContext } from '../../../libs/http/index.js';
import { defineRoute, OtherAnswer, type Route, setContentSecurityPolicy } from '../../../libs/http/index.js';
import {
  MONTH_PATTERN,
  type PostPageAnswer,
  type PublicPostPages,
  renderNotFoundPage,
  SLUG_PATTERN,
} from '../../../libs/status-pages/index.js';
import { PAGE_POLICY } from './public-status.js';

const TAGS = ['Public status pages'];
const HTML = 'text/html; charset=utf-8';
const slug = z.string().describe('The status page’s slug');

const NOT_FOUND_PAGE = {
  description: 'No public page by that slug, no such post on it, or a month outside the page’s life',
  body: { schema: z.string(), contentType: HTML },
};

/** A page under a public status page (script-free, as the page itself), or the page saying there is none. */
function answer(ctx: AppContext, found: PostPageAnswer | null): string | OtherAnswer {
  setContentSecurityPolicy(ctx, PAGE_POLICY, { origins: found?.page.embedAllowedOrigins ?? [] });
  ctx.type = HTML;
  if (!found) {
    ctx.set('Cache-Control', 'no-store');
    return new OtherAnswer(404, renderNotFoundPage());
  }
  ctx.set('Cache-Control', 'no-cache');
  return found.html;
}

/** `/status/{slug}/history` by month and `/status/{slug}/incidents/{postId}`, each post's permalink. No token. */
export function publicStatusPostRoutes(pages: PublicPostPages): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/status/:slug/history',
      operationId: 'viewStatusPageHistory',
      summary:
        'A public status page’s incident posts of one month (HTML), with links to the months around it',
      tags: TAGS,
      access: 'public',
      params: z.strictObject({ slug }),
      query: z.strictObject({
        month: z
          .string()
          .regex(MONTH_PATTERN, 'must be a month such as 2026-05')
          .optional()
          .describe('YYYY-MM (UTC); absent: this month'),
      }),
      success: {
        status: 200,
        description: 'The month’s posts',
        schema: z.string(),
        contentType: HTML,
        headers: ['Cache-Control'],
      },
      problems: [429, 503],
      otherResponses: { 404: NOT_FOUND_PAGE },
      handle: async ({ params, query, ctx }) => {
        const month = query.month ?? new Date().toISOString().slice(0, 7);
        return answer(ctx, SLUG_PATTERN.test(params.slug) ? await pages.history(params.slug, month) : null);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/status/:slug/incidents/:postId',
      operationId: 'viewStatusPagePost',
      summary: 'One incident post of a public status page (HTML): its permalink',
      tags: TAGS,
      access: 'public',
      params: z.strictObject({ slug, postId: decimalId() }),
      success: {
        status: 200,
        description: 'The post',
        schema: z.string(),
        contentType: HTML,
        headers: ['Cache-Control'],
      },
      problems: [429, 503],
      otherResponses: { 404: NOT_FOUND_PAGE },
      handle: async ({ params, ctx }) =>
        answer(ctx, SLUG_PATTERN.test(params.slug) ? await pages.post(params.slug, params.postId) : null),
    }),
  ];
}
