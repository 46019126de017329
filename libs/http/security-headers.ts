import type { Middleware } from 'koa';
import type { AppContext, AppState } from './context.js';

/** Who may frame a document: nobody, the listed origins, or anyone (an image such as a badge). */
export type Framing = { origins: readonly string[] } | 'anywhere';

/** What an answer that sets no policy of its own gets: JSON and problems load nothing, frame nowhere. */
const DEFAULT_POLICY = ["default-src 'none'"];

/**
 * Sets the answer's Content-Security-Policy with its `frame-ancestors`, and `X-Frame-Options: DENY`
 * when nobody may frame it (for browsers that predate frame-ancestors; it cannot list origins).
 */
export function setContentSecurityPolicy(ctx: AppContext, directives: readonly string[], framing: Framing) {
  if (framing === 'anywhere') {
    ctx.set('Content-Security-Policy', directives.join('; '));
    ctx.remove('X-Frame-Options');
    return;
  }
  const ancestors = framing.origins.length === 0 ? "'none'" : framing.origins.join(' ');
  ctx.set('Content-Security-Policy', [...directives, `frame-ancestors ${ancestors}`].join('; '));
  if (framing.origins.length === 0) ctx.set('X-Frame-Options', 'DENY');
  else ctx.remove('X-Frame-Options');
}

/**
 * Security headers on every answer (problems included): `nosniff`, a Referrer-Policy, and a CSP
 * that loads nothing and may not be framed unless the route set a policy of its own.
 */
export function securityHeadersMiddleware(): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (!ctx.response.get('Referrer-Policy')) ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (!ctx.response.get('Content-Security-Policy'))
      setContentSecurityPolicy(ctx, DEFAULT_POLICY, { origins: [] });
  };
}
