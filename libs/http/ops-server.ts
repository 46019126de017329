import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from '../logging/index.js';
import { PROBLEM_TYPES, type ProblemSlug, problemTypeUri } from './problem-types.js';
import { NOT_READY_RETRY_AFTER, notReadyDetail, type ReadinessCheck, readinessOf } from './readiness.js';

export interface OpsServer {
  url: string;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  type: string;
  body: string;
  headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

const json = (body: unknown): Answer => ({ status: 200, type: JSON_TYPE, body: JSON.stringify(body) });

function problem(
  slug: ProblemSlug,
  detail: string,
  path: string,
  requestId: string,
  more: { headers?: Record<string, string>; extensions?: Record<string, unknown> } = {},
): Answer {
  const { status, title } = PROBLEM_TYPES[slug];
  return {
    status,
    type: 'application/problem+json',
    body: JSON.stringify({
      type: problemTypeUri(slug),
      title,
      status,
      detail,
      instance: path,
      requestId,
      ...more.extensions,
    }),
    headers: more.headers,
  };
}

/**
 * `/metrics`, `/healthz` and `/readyz` of a process without an API of its own (worker, notifier),
 * on `port`; none when the port is 0. Plain node:http, answered as the API answers the same paths:
 * a process that serves no API loads neither Koa nor any route.
 */
export async function startOpsServer(options: {
  port: number;
  host: string;
  metrics: Registry;
  readinessChecks: readonly ReadinessCheck[];
  logger: Logger;
}): Promise<OpsServer | null> {
  if (options.port === 0) return null;
  const { metrics, readinessChecks, logger } = options;
  const routes: Record<string, (path: string, requestId: string) => Promise<Answer>> = {
    '/healthz': async () => json({ status: 'ok' }),
    '/readyz': async (path, requestId) => {
      const answer = await readinessOf(readinessChecks);
      if (answer.status !== 'not-ready') return json(answer);
      return problem('service-unavailable', notReadyDetail(answer.down), path, requestId, {
        headers: { 'Retry-After': NOT_READY_RETRY_AFTER },
        extensions: { checks: answer.checks },
      });
    },
    '/metrics': async () => ({ status: 200, type: metrics.contentType, body: await metrics.metrics() }),
  };
  const answer = async (request: IncomingMessage, requestId: string): Promise<Answer> => {
    const path = new URL(request.url ?? '/', 'http://ops').pathname;
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    if (!route) return problem('not-found', `No route for ${request.method} ${path}`, path, requestId);
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return problem(
        'method-not-allowed',
        `This path does not take ${request.method}; see the Allow header.`,
        path,
        requestId,
        {
          headers: { Allow: 'HEAD, GET' },
        },
      );
    try {
      return await route(path, requestId);
    } catch (error) {
      logger.error({ err: error, requestId }, 'unhandled error');
      return problem(
        'internal-error',
        `An unexpected error occurred; quote request id ${requestId} when reporting it.`,
        path,
        requestId,
      );
    }
  };
  const respond = async (request: IncomingMessage, response: ServerResponse) => {
    const requestId = randomUUID();
    const { status, type, body, headers } = await answer(request, requestId);
    response.writeHead(status, {
      'Content-Type': type,
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'X-Request-Id': requestId,
      ...headers,
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
  const server: Server = createServer((request, response) => void respond(request, response));
  server.listen(options.port, options.host);
  await Promise.race([
    once(server, 'listening'),
    once(server, 'error').then(([error]) => {
      throw new Error(
        `METRICS_PORT ${options.port}: ${(error as Error).message} (another process may use it; give each its own port, or 0 for none)`,
      );
    }),
  ]);
  const { port } = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.info({ url }, 'metrics and health listening');
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
