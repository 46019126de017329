import { z } from 'zod';
import { idParams, invalidFields, validate } from '../../../libs/contract/index.js';
import { DomainError, notFound } from '../../../libs/errors/index.js';
import {
  type AppContext,
  defineRoute,
  OtherAnswer,
  type Route,
  setContentSecurityPolicy,
} from '../../../libs/http/index.js';
import { renderNotFoundPage } from '../../../libs/status-pages/index.js';
import {
  linkQuery,
  type PageFeeds,
  pageOfSubscriberId,
  removeSubscriberQuery,
  renderCheckYourMail,
  renderLinkAction,
  renderLinkOutcome,
  renderSubscribeForm,
  type SubscribablePage,
  type SubscriberDocument,
  type SubscriptionService,
  subscribeAnswer,
  subscribeBody,
  subscribersAnswer,
  subscribersCsv,
  subscribersQuery,
  webhookSubscribedAnswer,
} from '../../../libs/status-subscriptions/index.js';

const PUBLIC_TAGS = ['Public status pages'];
const TAGS = ['Status pages'];
const HTML = 'text/html; charset=utf-8';
const CSV = 'text/csv; charset=utf-8';
/** A subscription form's body: an address and a few ids, JSON or form-encoded. */
const FORM_BODY = { maxBytes: 16_384, limitBytes: 16_384 };
/** Forms post to the page's own address; nothing else is loaded but inline styles and the logo. */
const VISITOR_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src http: https:',
  "base-uri 'none'",
  "form-action 'self'",
];
const FEED_TYPES = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
} as const;
const SUBSCRIBED = 'If the address can be subscribed, a link to confirm is on its way to it.';

const slugParams = z.strictObject({ slug: z.string().max(100).describe('The status page’s slug') });
const linkParams = slugParams.extend({
  subscriber: z.string().max(100).describe('The subscriber, as the mailed link names it'),
});

export interface SubscriptionRouteDeps {
  subscriptions: SubscriptionService;
  feeds: PageFeeds;
  /** A published page by slug, as a visitor may subscribe to it (null: none). */
  page(slug: string): Promise<(SubscribablePage & { accent: string | null }) | null>;
  /** The page's id when the organization has it (404 otherwise). */
  ownPage(organizationId: number, pageId: number): Promise<{ id: number }>;
  /** The page's address in the links mailed (its own domain when the visitor came by it). */
  pageUrlOf(ctx: AppContext, slug: string): string;
}

const pagePathOf = (slug: string) => `/status/${slug}`;

/** A visitor's page: no framing, forms to the page's own address, and no token in a Referer. */
function visitorPage(ctx: AppContext, html: string, status = 200): OtherAnswer | string {
  setContentSecurityPolicy(ctx, VISITOR_POLICY, { origins: [] });
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.type = HTML;
  return status === 200 ? html : new OtherAnswer(status, html);
}

/** A form's fields as a JSON body would hold them (`components` repeated: a list of numbers). */
function formFields(bytes: Buffer): Record<string, unknown> {
  const form = new URLSearchParams(bytes.toString('utf8'));
  const components = form.getAll('components');
  return {
    email: form.get('email') ?? '',
    ...(components.length > 0
      ? { components: components.map((id) => (/^\d{1,15}$/.test(id) ? Number(id) : id)) }
      : {}),
  };
}

/** The body of a subscription request, JSON or a form's; `form` says which (its answer is a page). */
function subscriptionRequest(ctx: AppContext): { form: boolean; fields: unknown } {
  const bytes = ctx.state.rawBody?.bytes ?? Buffer.alloc(0);
  if (ctx.is('application/x-www-form-urlencoded')) return { form: true, fields: formFields(bytes) };
  if (!ctx.is('application/json', '+json'))
    throw new DomainError(
      'invalid',
      'Send the body as application/json or a form (application/x-www-form-urlencoded)',
      {
        errors: [{ path: '(body)', message: 'must be JSON or form-encoded' }],
      },
    );
  try {
    return { form: false, fields: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch {
    throw new DomainError('invalid', 'The body is not JSON', {
      errors: [{ path: '(body)', message: 'must be a JSON object' }],
    });
  }
}

/**
 * Visitors' subscriptions under `/status/{slug}` (and a custom domain's `/`): the form, the request
 * (202, the same answer whatever the address), the confirmation and unsubscribe links (a GET shows
 * a button, the POST acts; a mail client's RFC 8058 one-click POST acts at once); and the page's
 * subscribers for its staff.
 */
export function statusPageSubscriptionRoutes(deps: SubscriptionRouteDeps): Route[] {
  const { subscriptions } = deps;
  const published = async (ctx: AppContext, slug: string) => {
    const page = await deps.page(slug);
    if (!page) {
      ctx.type = HTML;
      ctx.set('Cache-Control', 'no-store');
      return null;
    }
    return page;
  };
  const linkRoutes = (action: 'confirm' | 'unsubscribe'): Route[] => {
    const path = `/status/:slug/subscriptions/:subscriber/${action}`;
    const common = {
      path,
      tags: PUBLIC_TAGS,
      access: 'public' as const,
      params: linkParams,
      query: linkQuery,
      credentialInPath: true as const,
      success: {
        status: 200 as const,
        description: 'A page saying so',
        schema: z.string(),
        contentType: HTML,
      },
      problems: [429, 503],
      otherResponses: {
        404: {
          description: 'No such page: a page saying so',
          body: { schema: z.string(), contentType: HTML },
        },
      },
    };
    return [
      defineRoute({
        ...common,
        method: 'get',
        operationId: action === 'confirm' ? 'viewSubscriptionConfirmation' : 'viewUnsubscribe',
        summary:
          action === 'confirm'
            ? 'A confirmation link: a page with a button that confirms (mail scanners open links)'
            : 'An unsubscribe link: a page with a button that unsubscribes',
        handle: async ({ ctx, params, query }) => {
          const page = await published(ctx, params.slug);
          if (!page) return visitorPage(ctx, renderNotFoundPage(), 404);
          const pagePath = pagePathOf(page.slug);
          const formAction = `${pagePath}/subscriptions/${encodeURIComponent(params.subscriber)}/${action}?token=${encodeURIComponent(query.token)}`;
          return visitorPage(ctx, renderLinkAction({ page, pagePath, action, formAction }));
        },
      }),
      defineRoute({
        ...common,
        method: 'post',
        operationId: action === 'confirm' ? 'confirmSubscription' : 'unsubscribe',
        summary:
          action === 'confirm'
            ? 'Confirms a subscription (the button of its link)'
            : 'Unsubscribes (the button of its link, or a mail client’s RFC 8058 one-click POST)',
        description:
          'The same page whether the link was never valid, expired or used: it says only that it does not hold.',
        rawBody: FORM_BODY,
        unaudited: true,
        handle: async ({ ctx, params, query }) => {
          const page = await published(ctx, params.slug);
          if (!page) return visitorPage(ctx, renderNotFoundPage(), 404);
          const ours = pageOfSubscriberId(params.subscriber) === page.id;
          const outcome = !ours
            ? 'invalid'
            : action === 'confirm'
              ? await subscriptions.confirm(params.subscriber, query.token, page, {
                  pageUrl: deps.pageUrlOf(ctx, page.slug),
                })
              : await subscriptions.unsubscribe(params.subscriber, query.token);
          return visitorPage(
            ctx,
            renderLinkOutcome({ page, pagePath: pagePathOf(page.slug), action, done: outcome === 'done' }),
          );
        },
      }),
    ];
  };

  return [
    defineRoute({
      method: 'get',
      path: '/status/:slug/subscribe',
      operationId: 'viewSubscribeForm',
      summary: 'The form to subscribe to a status page by e-mail (works without JavaScript)',
      tags: PUBLIC_TAGS,
      access: 'public',
      params: slugParams,
      success: { status: 200, description: 'The form', schema: z.string(), contentType: HTML },
      problems: [429, 503],
      otherResponses: {
        404: { description: 'No such page', body: { schema: z.string(), contentType: HTML } },
      },
      handle: async ({ ctx, params }) => {
        const page = await published(ctx, params.slug);
        if (!page) return visitorPage(ctx, renderNotFoundPage(), 404);
        return visitorPage(ctx, renderSubscribeForm({ page, pagePath: pagePathOf(page.slug) }));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/status/:slug/subscriptions',
      operationId: 'subscribeToStatusPage',
      summary: 'Subscribes an address to a status page: a confirmation link is mailed (double opt-in)',
      description:
        'JSON ({email, components?}) answers 202 with the same message whether the address was new, pending or ' +
        'subscribed; the subscribe form (application/x-www-form-urlencoded) gets a page saying the same. ' +
        'Confirmation mails are bounded per address (3 a day; past that nothing is sent, and nothing is said) ' +
        'and requests per client address (429).',
      tags: PUBLIC_TAGS,
      access: 'public',
      params: slugParams,
      rawBody: FORM_BODY,
      unaudited: true,
      success: {
        status: 202,
        description: 'A confirmation link is mailed if the address can be subscribed',
        schema: subscribeAnswer,
        alternatives: [{ contentType: HTML, schema: z.string().describe('From the form: a page saying so') }],
      },
      problems: [409, 413, 415, 429, 503],
      otherResponses: {
        201: {
          description:
            'A webhook answered the challenge and is subscribed: its signing secret, shown this once',
          body: { schema: webhookSubscribedAnswer, contentType: 'application/json' },
        },
        400: {
          description:
            'Invalid input: a problem naming the field (JSON); from the form, the form again saying what to fix (HTML)',
          body: { schema: z.string(), contentType: HTML },
        },
        404: {
          description: 'No published page by that slug: a problem (JSON), or a page saying so (the form)',
          body: { schema: z.string(), contentType: HTML },
        },
      },
      handle: async ({ ctx, params }) => {
        const { form, fields } = subscriptionRequest(ctx);
        const page = await deps.page(params.slug);
        if (!page) {
          if (form) return visitorPage(ctx, renderNotFoundPage(), 404);
          throw notFound('No public status page by that name');
        }
        const pagePath = pagePathOf(page.slug);
        const parsed = validate(subscribeBody, fields);
        const client = { address: ctx.ip, links: { pageUrl: deps.pageUrlOf(ctx, page.slug) } };
        try {
          if (!parsed.success) throw invalidFields('body', parsed.errors);
          const { email, webhookUrl, components } = parsed.data;
          if (webhookUrl !== undefined) {
            const subscribed = await subscriptions.subscribeWebhook(
              page.slug,
              { webhookUrl, components },
              client,
            );
            ctx.set('Cache-Control', 'no-store');
            return new OtherAnswer(201, subscribed);
          }
          await subscriptions.subscribe(page.slug, { email: email ?? '', components }, client);
        } catch (error) {
          if (!form || !(error instanceof DomainError) || error.kind !== 'invalid') throw error;
          const email =
            typeof (fields as { email?: unknown }).email === 'string'
              ? String((fields as { email: string }).email)
              : '';
          return visitorPage(
            ctx,
            renderSubscribeForm({
              page,
              pagePath,
              email,
              error: 'Enter a valid e-mail address (and websites of this page).',
            }),
            400,
          );
        }
        ctx.status = 202;
        if (form) return visitorPage(ctx, renderCheckYourMail({ page, pagePath }));
        ctx.set('Cache-Control', 'no-store');
        return { message: SUBSCRIBED };
      },
    }),
    ...(['rss', 'atom'] as const).map((format) =>
      defineRoute({
        method: 'get',
        path: `/status/:slug/feed.${format}`,
        operationId: format === 'rss' ? 'getStatusPageRssFeed' : 'getStatusPageAtomFeed',
        summary: `A status page’s incident posts and maintenance as ${format === 'rss' ? 'an RSS 2.0' : 'an Atom 1.0'} feed`,
        tags: PUBLIC_TAGS,
        access: 'public',
        params: slugParams,
        success: {
          status: 200,
          description: 'The feed, newest first',
          schema: z.string(),
          contentType: FEED_TYPES[format],
          headers: ['Cache-Control'],
        },
        problems: [404, 429, 503],
        handle: async ({ ctx, params }) => {
          const feed = await deps.feeds.feed(params.slug, format, deps.pageUrlOf(ctx, params.slug));
          if (feed === null) throw notFound('No public status page by that name');
          ctx.type = FEED_TYPES[format];
          ctx.set('Cache-Control', 'public, max-age=60');
          return feed;
        },
      }),
    ),
    ...linkRoutes('confirm'),
    ...linkRoutes('unsubscribe'),
    defineRoute({
      method: 'get',
      path: '/api/status-pages/:id/subscribers',
      operationId: 'listStatusPageSubscribers',
      summary: 'A status page’s subscribers (paged), or all of them as CSV',
      tags: TAGS,
      access: 'read',
      params: idParams,
      query: subscribersQuery,
      success: {
        status: 200,
        description: 'Subscribers in a stable order, and how many there are',
        schema: subscribersAnswer,
        headers: ['Content-Disposition'],
        alternatives: [
          {
            contentType: CSV,
            schema: z
              .string()
              .describe('`format=csv`: email,state,components,createdAt,confirmedAt,channel,webhookUrl'),
          },
        ],
      },
      problems: [404],
      handle: async ({ auth, params, query, ctx }) => {
        const page = await deps.ownPage(auth.organizationId, params.id);
        if (query.format === 'csv') {
          ctx.type = CSV;
          ctx.set('Content-Disposition', `attachment; filename="status-page-${page.id}-subscribers.csv"`);
          return subscribersCsv(await everySubscriber(subscriptions, auth.organizationId, page.id));
        }
        const found = await subscriptions.list(auth.organizationId, page.id, {
          limit: query.limit + 1,
          ...(query.state ? { state: query.state } : {}),
          ...(query.after ? { after: query.after } : {}),
        });
        const shown = found.slice(0, query.limit);
        return {
          subscribers: shown.map(subscriberViewOf),
          counts: await subscriptions.counts(auth.organizationId, page.id),
          nextAfter: found.length > query.limit ? (shown.at(-1)?._id ?? null) : null,
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/status-pages/:id/subscribers',
      operationId: 'removeStatusPageSubscriberByEmail',
      summary: 'Removes an address from a status page’s subscribers',
      tags: TAGS,
      access: 'write',
      params: idParams,
      query: removeSubscriberQuery,
      success: { status: 204, description: 'Removed' },
      problems: [404],
      handle: async ({ auth, params, query }) => {
        const page = await deps.ownPage(auth.organizationId, params.id);
        if (!(await subscriptions.remove(auth.organizationId, page.id, { email: query.email })))
          throw notFound('That address is not subscribed to this page');
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/status-pages/:id/subscribers/:subscriber',
      operationId: 'removeStatusPageSubscriber',
      summary: 'Removes a subscriber from a status page',
      tags: TAGS,
      access: 'write',
      params: idParams.extend({ subscriber: z.string().max(100).describe('The subscriber’s id') }),
      success: { status: 204, description: 'Removed' },
      problems: [404],
      handle: async ({ auth, params }) => {
        const page = await deps.ownPage(auth.organizationId, params.id);
        if (!(await subscriptions.remove(auth.organizationId, page.id, { id: params.subscriber })))
          throw notFound('No such subscriber of this page');
      },
    }),
  ];
}

function subscriberViewOf(subscriber: SubscriberDocument) {
  return {
    id: subscriber._id,
    email: subscriber.email,
    channel: subscriber.channel ?? 'email',
    webhookUrl: subscriber.webhookUrl ?? null,
    state: subscriber.state,
    components: subscriber.components,
    createdAt: subscriber.createdAt.toISOString(),
    confirmedAt: subscriber.confirmedAt?.toISOString() ?? null,
  };
}

async function everySubscriber(
  subscriptions: SubscriptionService,
  organizationId: number,
  pageId: number,
): Promise<SubscriberDocument[]> {
  const all: SubscriberDocument[] = [];
  let after: string | undefined;
  for (;;) {
    const batch = await subscriptions.list(organizationId, pageId, {
      limit: 1000,
      ...(after ? { after } : {}),
    });
    all.push(...batch);
    if (batch.length < 1000) return all;
    after = batch.at(-1)?._id;
  }
}
