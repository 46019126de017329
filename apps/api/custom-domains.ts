import type { Middleware } from 'koa';
import type { AppState } from '../../libs/http/index.js';
import type { Logger } from '../../libs/logging/index.js';
import {
  hostOfHeader,
  rewriteDomainPath,
  type StatusPageDomains,
  type StatusPageDomainTarget,
} from '../../libs/status-pages/index.js';

declare module '../../libs/http/context.js' {
  interface AppState {
    /** Set when the request came by a status page's own domain (`customDomainMiddleware`): the page it serves. */
    statusPageDomain?: StatusPageDomainTarget;
  }
}

/**
 * Answered by any host that is not a page's: the proxy's questions (`/internal/`) and the process's
 * probes and metrics, which orchestrators and Prometheus ask by a service name (`api:8080`).
 */
const ANY_HOST = (path: string) =>
  path.startsWith('/internal/') || path === '/healthz' || path === '/readyz' || path === '/metrics';

const plain = (ctx: Parameters<Middleware>[0], status: number, text: string) => {
  ctx.status = status;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = text;
};

/**
 * Serves status pages by their own domains. A request whose `Host` is a verified page domain is
 * served as one under the page's `/status/<slug>` (`rewriteDomainPath`), with the page in
 * `ctx.state.statusPageDomain`. Any other host that is not the agency's gets a plain 404 naming
 * nothing when the agency's hosts are known (`strict`: PUBLIC_URL or STATUS_PAGES_HOST set);
 * without them the service cannot tell its own hosts and serves as before. The proxy's questions
 * and the probes (`ANY_HOST`) are answered by any host but a page's; the proxy keeps `/internal/`
 * from the outside.
 * Registered before the rest of the app, so the rewritten path is what is logged and routed.
 */
export function customDomainMiddleware(deps: {
  domains: StatusPageDomains;
  strict: boolean;
  logger: Logger;
}): Middleware<AppState> {
  return async (ctx, next) => {
    const host = hostOfHeader(ctx.get('host'));
    if (!host || deps.domains.isAgencyHost(host)) return next();
    let target: StatusPageDomainTarget | null;
    try {
      target = await deps.domains.resolve(host);
    } catch (error) {
      deps.logger.warn({ err: error, host }, 'a page domain could not be looked up');
      return plain(ctx, 503, 'Service unavailable; try again shortly.\n');
    }
    if (target) {
      ctx.state.statusPageDomain = target;
      ctx.path = rewriteDomainPath(ctx.path, target.slug);
      return next();
    }
    if (deps.strict && !ANY_HOST(ctx.path)) return plain(ctx, 404, 'Not found.\n');
    return next();
  };
}
