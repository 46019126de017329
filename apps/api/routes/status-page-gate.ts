import { z } from 'zod';
import { notFound } from '../../../libs/errors/index.js';
import type { AppContext, OtherResponse, Route } from '../../../libs/http/index.js';
import { setContentSecurityPolicy } from '../../../libs/http/index.js';
import type { RateLimiter } from '../../../libs/redis/index.js';
import {
  decideAccess,
  type PageAccessEntry,
  type PageAccessLookup,
  type PageLanguage,
  type PageSessions,
  type Refusal,
  renderNotFoundPage,
  renderPasswordPage,
  renderPrivatePage,
  renderSignInAtAgencyPage,
  renderSignInPage,
  type SignedInPerson,
  SLUG_PATTERN,
} from '../../../libs/status-pages/index.js';

/** The page session's cookie (a random id; its SHA-256 in Redis): scoped to the page's path. */
export const PAGE_ACCESS_COOKIE = 'webmon_status_access';

/** What a private page and the gate's own pages answer: kept by no browser cache, CDN or proxy. */
export const PRIVATE_CACHE = 'private, no-store';

/** The gate's pages: styles inline, no script, a form posted only here. */
const GATE_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'self'",
];

/** What a gated HTML route may answer besides its own (the OpenAPI document lists it). */
const GATE_PAGE: OtherResponse = {
  description:
    'A private page to a visitor it does not let in: its password form, or a page saying it is private or asking to sign in (nothing of the page)',
  body: { schema: z.string(), contentType: 'text/html; charset=utf-8' },
  headers: ['Cache-Control'],
};

/** Set by the custom-domain middleware for a request that came by a page's own domain. */
interface StatusPageDomain {
  host: string;
  organizationId: number;
  pageId: number;
  slug: string;
}
export const statusPageDomainOf = (ctx: AppContext): StatusPageDomain | undefined =>
  (ctx.state as { statusPageDomain?: StatusPageDomain }).statusPageDomain;

export interface StatusPageGateDeps {
  lookup: PageAccessLookup;
  sessions: PageSessions;
  /** The person the app's session cookie signs in, or null (none, ended, or not enrolled yet). */
  person: (ctx: AppContext) => Promise<SignedInPerson | null>;
  /** Password attempts per client address and page. */
  attempts: RateLimiter;
  passwords: { verify(password: string, hash: string): Promise<boolean> };
  /** PUBLIC_URL: where the app is (the sign-in link; a custom domain's client-only page links there). */
  publicUrl?: string;
}

/** What a refused visitor of the page gets: HTML pages a word of why; data (JSON, images) nothing. */
export type Answer = 'html' | 'data';

/**
 * The gate in front of every route of a published page (`/status/:slug…`): a page anyone may see
 * passes untouched; a private one passes only visitors its mode lets in, answered `private,
 * no-store`, and refuses the others with a page of the gate (HTML) or the 404 of "no page by that
 * name" (data: JSON, badges, feeds), so nothing of the page reaches one who may not see it.
 */
export class StatusPageGate {
  constructor(readonly deps: StatusPageGateDeps) {}

  /** The published page of `slug` with its access, or null for none (or a slug that cannot be one). */
  published(slug: string): Promise<PageAccessEntry | null> {
    return SLUG_PATTERN.test(slug) ? this.deps.lookup.published(slug) : Promise.resolve(null);
  }

  /** Where the page is for this request: `/status/<slug>`, or `/` on its custom domain. */
  pagePath(ctx: AppContext, slug: string): string {
    return statusPageDomainOf(ctx) ? '/' : `/status/${slug}`;
  }

  /** The page at the agency's address (PUBLIC_URL), where the app's session cookie is sent. */
  agencyPageUrl(slug: string): string {
    return `${(this.deps.publicUrl ?? '').replace(/\/$/, '')}/status/${slug}`;
  }

  /**
   * Whether the route may run for this request; when not, the answer is made here. A private page
   * that lets the visitor in is marked so the route's answer is kept by no cache (see `behind`).
   */
  async admit(ctx: AppContext, slug: string, answer: Answer): Promise<boolean> {
    const page = await this.published(slug);
    // No published page by that name: the route says so, as it always has.
    if (!page || page.access.mode === 'public') return true;
    ctx.set('Cache-Control', PRIVATE_CACHE);
    const decision = await decideAccess(page, {
      address: () => ctx.ip,
      hasPasswordSession: () =>
        this.deps.sessions.holds(
          { id: page.id, passwordHash: page.access.passwordHash ?? '' },
          ctx.cookies.get(PAGE_ACCESS_COOKIE),
        ),
      person: () => this.deps.person(ctx),
      onCustomDomain: statusPageDomainOf(ctx) !== undefined,
    });
    if (decision.allowed) return true;
    if (answer === 'data') throw notFound('No public status page by that name');
    this.refuse(ctx, slug, decision.refusal, page.language);
    return false;
  }

  /** A gate's page: 403 (the password form comes back here with its cookie). */
  private refuse(ctx: AppContext, slug: string, refusal: Refusal, language: PageLanguage) {
    const body = {
      password: () => renderPasswordPage({ action: this.accessPath(ctx, slug), language }),
      'outside-ranges': () => renderPrivatePage({ language }),
      'sign-in': () =>
        renderSignInPage({
          signInUrl: `${(this.deps.publicUrl ?? '').replace(/\/$/, '')}/sign-in?next=${encodeURIComponent(`/status/${slug}`)}`,
          language,
        }),
      'sign-in-at-agency': () => renderSignInAtAgencyPage({ pageUrl: this.agencyPageUrl(slug), language }),
    }[refusal]();
    this.gatePage(ctx, 403, body);
  }

  /** Where the password form posts: the page's path and `/access`. */
  accessPath(ctx: AppContext, slug: string): string {
    return statusPageDomainOf(ctx) ? '/access' : `/status/${slug}/access`;
  }

  /** Answers one of the gate's pages, kept by no cache and framed nowhere. */
  gatePage(ctx: AppContext, status: number, html: string) {
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', PRIVATE_CACHE);
    setContentSecurityPolicy(ctx, GATE_POLICY, { origins: [] });
    ctx.body = html;
  }

  /**
   * For a route only public pages have (the page's badge, its widget): true when the page may be
   * shown to anyone; else the route answers as for no page (404), in its form.
   */
  async anyoneMaySee(ctx: AppContext, slug: string, answer: Answer): Promise<boolean> {
    const page = await this.published(slug);
    if (!page || page.access.mode === 'public') return true;
    if (answer === 'data') throw notFound('No public status page by that name');
    ctx.status = 404;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = renderNotFoundPage();
    return false;
  }

  /**
   * Every route of `routes` under `/status/:slug` behind the gate, each judged by its path: those
   * of `publicOnly` answer only for a page anyone may see, the page's `access` route is the way in
   * and stays open, as do links carrying their own credential (`credentialInPath`); the rest serve a private page to those it lets in. A route answering HTML gets
   * the gate's pages, any other the 404 of no page. Others' routes go behind it the same way.
   */
  behind(
    routes: readonly Route[],
    options: { publicOnly?: readonly string[]; open?: readonly string[] } = {},
  ) {
    const publicOnly = new Set(options.publicOnly ?? []);
    const open = new Set(options.open ?? []);
    return routes.map((route): Route => {
      if (!/^\/status\/:slug(\/|\.|$)/.test(route.path) || open.has(route.path)) return route;
      // A link carrying its own credential (a subscriber's confirm and unsubscribe links) is its
      // own gate: one who got it was let in before, and leaving must never need a password.
      if (route.credentialInPath) return route;
      const answer: Answer = route.success.contentType.startsWith('text/html') ? 'html' : 'data';
      const only = publicOnly.has(route.path);
      return {
        ...route,
        // Documented: a data route's refusal is the 404 of no page, an HTML route's a gate page.
        problems:
          answer === 'data' && !route.problems.includes(404) ? [...route.problems, 404] : route.problems,
        otherResponses:
          answer === 'html' && !only ? { ...route.otherResponses, 403: GATE_PAGE } : route.otherResponses,
        run: async (ctx) => {
          const slug = String(ctx.params?.slug ?? '');
          if (only) {
            if (await this.anyoneMaySee(ctx, slug, answer)) await route.run(ctx);
            return;
          }
          if (!(await this.admit(ctx, slug, answer))) return;
          const gated = ctx.response.get('Cache-Control') === PRIVATE_CACHE;
          await route.run(ctx);
          // The route sets its own (public pages are cached a while); a private page's never is.
          if (gated) ctx.set('Cache-Control', PRIVATE_CACHE);
        },
      };
    });
  }
}
