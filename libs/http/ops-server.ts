import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from '../logging/index.js';
import { createHttpApp } from './http-app.js';
import { probeRoutes, type ReadinessCheck } from './system.routes.js';

export interface OpsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `/metrics`, `/healthz` and `/readyz` of a process without an API of its own (worker, notifier),
 * on `port`; none when the port is 0.
 */
export async function startOpsServer(options: {
  port: number;
  host: string;
  metrics: Registry;
  readinessChecks: readonly ReadinessCheck[];
  logger: Logger;
}): Promise<OpsServer | null> {
  if (options.port === 0) return null;
  const app = createHttpApp({
    logger: options.logger,
    metrics: options.metrics,
    routes: probeRoutes(options),
    // Every route here is public, like the API's own /metrics and probes.
    guard: () => (_ctx, next) => next(),
    trustProxy: false,
  });
  const server: Server = app.listen(options.port, options.host);
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
  options.logger.info({ url }, 'metrics and health listening');
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
