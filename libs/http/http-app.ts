import Router from '@koa/router';
import Koa from 'koa';
import type { Registry } from 'prom-client';
import type { AuthContext } from '../contract/index.js';
import type { Logger } from '../logging/index.js';
import { allowedMethodsMiddleware } from './allowed-methods.middleware.js';
import { jsonBodyMiddleware, rawBodyMiddleware } from './body.middleware.js';
import { compressionMiddleware } from './compression.js';
import type { AppState } from './context.js';
import { type Dependency, dependencyGateMiddleware } from './dependency-gate.middleware.js';
import { createHttpMetrics } from './metrics.js';
import { type Outage, problemMiddleware } from './problem.middleware.js';
import { requestContextMiddleware } from './request-context.middleware.js';
import type { Access, Route } from './route.js';
import { securityHeadersMiddleware } from './security-headers.js';

export interface HttpAppOptions {
  logger: Logger;
  metrics: Registry;
  routes: readonly Route[];
  guard: (access: Access) => Koa.Middleware<AppState>;
  trustProxy: boolean;
  /** Servers the `/api/` routes need: 503 at once while one is unavailable. */
  dependencies?: readonly Dependency[];
  /** Servers whose errors are answered 503 with Retry-After, not 500 (MongoDB, Redis). */
  outages?: readonly Outage[];
  /**
   * A middleware run inside each route's access guard, around the route, if it gives one (the
   * audit log records every write here, so no route can be left out of it).
   */
  audit?: (route: Route) => Koa.Middleware<AppState> | undefined;
  /**
   * Where people reach the service (`PUBLIC_URL`): a write with a session cookie must come from its
   * origin. Without it, from the origin the request was sent to (its `Host`).
   */
  publicUrl?: string | undefined;
  /**
   * Run just outside the problem documents (inside compression): may turn them into another error
   * format where a protocol wants its own (SCIM's under /scim/v2).
   */
  errorDocuments?: Koa.Middleware<AppState>;
}

/**
 * A Koa app serving `routes`, with request ids, access logs, metrics, security headers, compression,
 * JSON bodies and RFC 9457 errors.
 */
export function createHttpApp(options: HttpAppOptions): Koa<AppState> {
  // The client writes the left of X-Forwarded-For as it likes; only the entry the trusted proxy
  // appended (the right-most) says who connected, so per-address budgets cannot be dodged.
  const app = new Koa<AppState>({ proxy: options.trustProxy, maxIpsCount: 1 });
  // Errors are answered by problemMiddleware; Koa's own printer would log them a second time.
  app.silent = true;
  const router = new Router<AppState>();
  const ownParsers = new Set<string>();
  for (const route of options.routes) {
    const audit = options.audit?.(route);
    const run: Koa.Middleware<AppState> = (ctx) => route.run(ctx);
    const steps: Koa.Middleware<AppState>[] = [options.guard(route.access)];
    if (route.credentialInPath)
      steps.unshift(async (ctx, next) => {
        ctx.state.loggedPath = route.path;
        await next();
      });
    const { admit } = route;
    if (admit)
      steps.push(async (ctx, next) => {
        const slot = await admit(ctx.state.auth as AuthContext);
        try {
          await next();
        } finally {
          slot.release();
        }
      });
    if (route.maxBodyBytes) {
      ownParsers.add(`${route.method.toUpperCase()} ${route.path}`);
      steps.push(jsonBodyMiddleware({ limit: route.maxBodyBytes }));
    } else if (route.rawBody) {
      ownParsers.add(`${route.method.toUpperCase()} ${route.path}`);
      steps.push(rawBodyMiddleware(route.rawBody));
    }
    if (audit) steps.push(audit);
    router[route.method](route.path, ...steps, run);
  }
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;
  if (publicOrigin)
    app.use(async (ctx, next) => {
      ctx.state.publicOrigin = publicOrigin;
      await next();
    });
  app.use(
    requestContextMiddleware({
      logger: options.logger,
      metrics: createHttpMetrics(options.metrics),
    }),
  );
  // Outside the problem middleware: problem documents get the headers and compression too.
  app.use(securityHeadersMiddleware());
  app.use(compressionMiddleware());
  if (options.errorDocuments) app.use(options.errorDocuments);
  app.use(problemMiddleware(options.outages ?? []));
  app.use(allowedMethodsMiddleware(router));
  app.use(dependencyGateMiddleware(options.dependencies ?? [], (path) => path.startsWith('/api/')));
  // A route with its own parser, matched as the router matches it (its path may hold parameters).
  const hasOwnParser = (method: string, path: string) =>
    ownParsers.size > 0 &&
    router.match(path, method).pathAndMethod.some((layer) => ownParsers.has(`${method} ${layer.path}`));
  app.use(jsonBodyMiddleware({ elsewhere: hasOwnParser }));
  app.use(router.routes());
  return app;
}
