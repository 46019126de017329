/**
 * What a process without an API serves (the worker's and the notifier's /metrics and probes): the
 * door to libs/http that loads no Koa and no route, so those processes import from here only.
 */
export { createMetricsRegistry } from './metrics.js';
export { type OpsServer, startOpsServer } from './ops-server.js';
export type { ReadinessCheck } from './readiness.js';
