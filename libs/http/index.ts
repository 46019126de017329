export {
  type AccessGuardOptions,
  applyRateLimit,
  type CustomerGate,
  createAccessGuard,
  requireSameOrigin,
} from './access-guard.js';
export { AppError } from './app-error.js';
export { MAX_BODY_BYTES } from './body.middleware.js';
export { sendStoredBody } from './compression.js';
export type { AppContext, AppState } from './context.js';
export { createHttpApp, type HttpAppOptions } from './http-app.js';
export { createMetricsRegistry } from './metrics.js';
export { buildOpenApiDocument } from './openapi.js';
export { type OpsServer, startOpsServer } from './ops-server.js';
export type { Outage } from './problem.middleware.js';
export { serviceUnavailable } from './problem.middleware.js';
export { PROBLEM_TYPES, type ProblemSlug } from './problem-types.js';
export { limitedPerAddress, type PublicBudget } from './public-limit.js';
export type { ReadinessCheck } from './readiness.js';
export {
  type Access,
  type Admission,
  defineRoute,
  type HttpMethod,
  OtherAnswer,
  type OtherResponse,
  type Route,
  type RouteRequest,
  StreamedBody,
} from './route.js';
export { type Framing, setContentSecurityPolicy } from './security-headers.js';
export { systemRoutes } from './system.routes.js';
