import type Router from '@koa/router';
import type { Layer } from '@koa/router';
import type { Middleware } from 'koa';
import { AppError } from './app-error.js';
import type { AppState } from './context.js';

/** How literal each segment of a route pattern is: `batch` (2) over `:slug.json` (1) over `:slug` (0). */
function segmentRanks(pattern: string): number[] {
  return pattern.split('/').map((segment) => {
    if (!segment.includes(':')) return 2;
    return /^:[A-Za-z0-9_]+$/.test(segment) ? 0 : 1;
  });
}

/** Negative when `a` is the more literal pattern at the first segment where they differ. */
function bySpecificity(a: number[], b: number[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const difference = (b[index] ?? 0) - (a[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * The routes a path names: of the patterns that match it, the most literal ones, as OpenAPI reads
 * paths (`/check/batch` is not `/check/{websiteId}` with `websiteId=batch`).
 */
function routesNamedBy(layers: readonly Layer<AppState>[]): Layer<AppState>[] {
  const ranked = layers
    .filter((layer) => layer.methods.length > 0 && typeof layer.path === 'string')
    .map((layer) => ({ layer, ranks: segmentRanks(String(layer.path)) }));
  const best = ranked.map((entry) => entry.ranks).sort(bySpecificity)[0];
  return best
    ? ranked.filter((entry) => bySpecificity(entry.ranks, best) === 0).map((entry) => entry.layer)
    : [];
}

/**
 * Answers what the router's `allowedMethods` would, per path as the OpenAPI document declares it:
 * OPTIONS 204 and any other method a path does not take (TRACE, or GET on a POST-only path)
 * 405, each with `Allow`. Unknown paths go on to the router's 404.
 */
export function allowedMethodsMiddleware(router: Router<AppState>): Middleware<AppState> {
  return async (ctx, next) => {
    const routes = routesNamedBy(router.match(ctx.path, ctx.method).path);
    if (routes.length === 0) return next();
    const allowed = [...new Set([...routes.flatMap((layer) => layer.methods), 'OPTIONS'])];
    if (ctx.method !== 'OPTIONS' && allowed.includes(ctx.method)) return next();
    const allow = allowed.join(', ');
    if (ctx.method !== 'OPTIONS') {
      throw new AppError('method-not-allowed', {
        detail: `This path does not take ${ctx.method}; see the Allow header.`,
        headers: { Allow: allow },
      });
    }
    ctx.set('Allow', allow);
    ctx.status = 204;
  };
}
