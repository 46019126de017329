import { z } from 'zod';
import { invalidInput, notAllowed, notFound } from '../../../libs/errors/index.js';
import { type AppContext, applyRateLimit, type Route } from '../../../libs/http/index.js';
import {
  PAGE_SESSION_SECONDS,
  renderNotFoundPage,
  renderPasswordPage,
} from '../../../libs/status-pages/index.js';
import { PAGE_ACCESS_COOKIE, type StatusPageGate, statusPageDomainOf } from './status-page-gate.js';

/** A password is short: what a form or JSON body of one may hold. */
const MAX_BODY_BYTES = 4096;
const MAX_PASSWORD_CHARS = 200;

const accessBody = z.strictObject({
  password: z.string().min(1, 'enter the page’s password').max(MAX_PASSWORD_CHARS),
});

/** The body as a browser's form (`password=…`) or as JSON; the password, or a 400 naming it. */
function passwordOf(ctx: AppContext): string {
  const text = ctx.state.rawBody?.bytes.toString('utf8') ?? '';
  let raw: unknown;
  if (ctx.is('application/x-www-form-urlencoded')) raw = Object.fromEntries(new URLSearchParams(text));
  else if (ctx.is('application/json', '+json'))
    try {
      raw = JSON.parse(text);
    } catch {
      throw invalidInput('The body is not JSON', [{ path: 'body', message: 'must be a JSON object' }]);
    }
  else
    throw invalidInput('Send the password as a form or as JSON', [
      { path: 'body', message: 'must be application/x-www-form-urlencoded or application/json' },
    ]);
  const parsed = accessBody.safeParse(raw);
  if (!parsed.success)
    throw invalidInput('A password is needed', [{ path: 'password', message: 'enter the page’s password' }]);
  return parsed.data.password;
}

/**
 * `POST /status/{slug}/access {password}`: the way into a password page. A browser's form comes
 * back to the page (303) with the page session's cookie; a JSON client gets 204 and the cookie.
 * Attempts are counted per client address and page (429 with Retry-After past them), each
 * verified against the page's scrypt hash on the bounded hashing slots.
 */
export function statusPageAccessRoute(gate: StatusPageGate): Route {
  return {
    method: 'post',
    path: '/status/:slug/access',
    operationId: 'enterStatusPage',
    summary: 'Give a password page its password (a page session cookie)',
    description:
      'For a published page whose access is `password`: the right password sets an HttpOnly cookie ' +
      `(Path /status/{slug}; / on the page’s own domain) for ${PAGE_SESSION_SECONDS / 3600} h or until the password changes. ` +
      'A form post (application/x-www-form-urlencoded) is sent back to the page (303); JSON gets 204. ' +
      'Any other page answers 404, as an unknown one does.',
    tags: ['Public status pages'],
    access: 'public',
    // A visitor's attempt changes nothing of the organization's.
    unaudited: true,
    params: z.strictObject({ slug: z.string().describe('The status page’s slug') }),
    rawBody: { maxBytes: MAX_BODY_BYTES, limitBytes: MAX_BODY_BYTES * 2 },
    success: {
      status: 303,
      description: 'The password was right: back to the page, with the page session’s cookie',
      contentType: 'text/plain',
      headers: ['Location'],
    },
    problems: [400, 403, 404, 413, 429, 503],
    otherResponses: {
      204: { description: 'The password was right (a JSON request): the cookie is set' },
    },
    async run(ctx) {
      const slug = String(ctx.params?.slug ?? '');
      const form = ctx.is('application/x-www-form-urlencoded') !== false;
      const page = await gate.published(slug);
      const hash = page?.access.mode === 'password' ? page.access.passwordHash : null;
      if (!page || !hash) {
        if (!form) throw notFound('No public status page by that name');
        ctx.status = 404;
        ctx.type = 'text/html; charset=utf-8';
        ctx.set('Cache-Control', 'no-store');
        ctx.body = renderNotFoundPage();
        return;
      }
      const action = gate.accessPath(ctx, slug);
      const decision = await gate.deps.attempts.consume(`status-page-access:${page.id}:${ctx.ip}`);
      if (!decision.allowed && form) {
        ctx.set('Retry-After', String(decision.resetSeconds));
        gate.gatePage(
          ctx,
          429,
          renderPasswordPage({
            action,
            problem: { retryAfterSeconds: decision.resetSeconds },
            language: page.language,
          }),
        );
        return;
      }
      applyRateLimit(ctx, decision, 'This address');
      const password = passwordOf(ctx);
      if (!(await gate.deps.passwords.verify(password, hash))) {
        if (!form) throw notAllowed('That password is not right');
        gate.gatePage(
          ctx,
          403,
          renderPasswordPage({ action, problem: 'wrong-password', language: page.language }),
        );
        return;
      }
      const sessionId = await gate.deps.sessions.open({ id: page.id, passwordHash: hash });
      ctx.cookies.set(PAGE_ACCESS_COOKIE, sessionId, {
        httpOnly: true,
        sameSite: 'lax',
        // The page's routes only (its JSON twin at /status/{slug}.json is outside: clients send it themselves).
        path: statusPageDomainOf(ctx) ? '/' : `/status/${slug}`,
        // ctx.secure: HTTPS, or with TRUST_PROXY `X-Forwarded-Proto: https` from the proxy.
        secure: ctx.secure,
        maxAge: PAGE_SESSION_SECONDS * 1000,
        overwrite: true,
      });
      ctx.set('Cache-Control', 'no-store');
      if (!form) {
        ctx.status = 204;
        return;
      }
      ctx.status = 303;
      ctx.redirect(gate.pagePath(ctx, slug));
      ctx.status = 303;
    },
  };
}
