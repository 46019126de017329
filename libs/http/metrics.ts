import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** A registry for one process; default Node.js metrics are opt-in so tests can build many apps. */
export function createMetricsRegistry(options: { service: string; defaultMetrics: boolean }): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry });
  return registry;
}

/** Request durations, and requests counted by route (method and pattern, never a path) and status. */
export function createHttpMetrics(registry: Registry) {
  return {
    durationSeconds: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Duration of HTTP requests by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    requestsTotal: new Counter({
      name: 'webmon_http_requests_total',
      help: 'HTTP requests by route ("GET /api/websites/:websiteRef") and status',
      labelNames: ['route', 'status'] as const,
      registers: [registry],
    }),
  };
}
