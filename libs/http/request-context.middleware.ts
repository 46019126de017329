import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logging/index.js';
import type { AppState } from './context.js';
import type { createHttpMetrics } from './metrics.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (the caller's `x-request-id` when it is safe to echo), a child logger
 * carrying it, an access log line and a duration observation labelled by route pattern.
 */
export function requestContextMiddleware(options: {
  logger: Logger;
  metrics: ReturnType<typeof createHttpMetrics>;
}): Middleware<AppState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const inbound = ctx.get('x-request-id');
    const requestId = SAFE_REQUEST_ID.test(inbound) ? inbound : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = options.logger.child({ reqId: requestId });
    ctx.set('x-request-id', requestId);
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      const status = String(ctx.status);
      options.metrics.durationSeconds.observe({ method: ctx.method, route, status }, seconds);
      options.metrics.requestsTotal.inc({ route: `${ctx.method} ${route}`, status });
      ctx.state.log.info(
        {
          method: ctx.method,
          path: ctx.state.loggedPath ?? ctx.path,
          route,
          status: ctx.status,
          durationMs: Math.round(seconds * 1000 * 10) / 10,
          organizationId: ctx.state.auth?.organizationId,
        },
        'request',
      );
    }
  };
}
