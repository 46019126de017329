import type { Registry } from 'prom-client';
import { z } from 'zod';
import { AppError } from './app-error.js';
import { PROBLEM_TYPES, type ProblemSlug } from './problem-types.js';
import { defineRoute, type Route } from './route.js';

/** A dependency the readiness probe checks. */
export interface ReadinessCheck {
  name: string;
  isReady(): Promise<boolean>;
  /**
   * Set when the process goes on working without it (the worker checks through a MongoDB outage):
   * while it is down the answer is 200 `degraded`, with this said in `degraded`, not 503.
   */
  whileDown?: string;
}

const readiness = z
  .object({
    status: z.enum(['ready', 'degraded']),
    checks: z.record(z.string(), z.enum(['up', 'down'])),
    /** What works differently meanwhile, per dependency down (only with `degraded`). */
    degraded: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'Readiness' });

/** Liveness, readiness and metrics: what every process serves (the worker and notifier on METRICS_PORT). */
export function probeRoutes(options: {
  readinessChecks: readonly ReadinessCheck[];
  metrics: Registry;
}): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/healthz',
      operationId: 'getHealth',
      summary: 'Liveness: the process is up',
      tags: ['System'],
      access: 'public',
      success: { status: 200, description: 'Alive', schema: z.object({ status: z.literal('ok') }) },
      handle: async () => ({ status: 'ok' as const }),
    }),
    defineRoute({
      method: 'get',
      path: '/readyz',
      operationId: 'getReadiness',
      summary: 'Readiness: MongoDB and Redis are reachable (degraded: a process working on without one)',
      tags: ['System'],
      access: 'public',
      success: { status: 200, description: 'Ready', schema: readiness },
      problems: [503],
      handle: async () => {
        const results = await Promise.all(
          options.readinessChecks.map(
            async (check) => [check.name, (await check.isReady()) ? 'up' : 'down'] as const,
          ),
        );
        const checks = Object.fromEntries(results);
        const downChecks = options.readinessChecks.filter((check) => checks[check.name] === 'down');
        const down = downChecks.filter((check) => check.whileDown === undefined).map((check) => check.name);
        if (down.length > 0) {
          throw new AppError('service-unavailable', {
            detail: `Not ready: ${down.join(', ')} unreachable.`,
            headers: { 'Retry-After': '5' },
            extensions: { checks },
          });
        }
        if (downChecks.length > 0)
          return {
            status: 'degraded' as const,
            checks,
            degraded: Object.fromEntries(downChecks.map((check) => [check.name, check.whileDown ?? ''])),
          };
        return { status: 'ready' as const, checks };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/metrics',
      operationId: 'getMetrics',
      summary: 'Prometheus metrics (text exposition format)',
      tags: ['System'],
      access: 'public',
      success: {
        status: 200,
        description: 'Metrics',
        schema: z.string(),
        contentType: options.metrics.contentType,
      },
      handle: () => options.metrics.metrics(),
    }),
  ];
}

/** The API's system routes: the probe routes, the OpenAPI document and the problem type descriptions. */
export function systemRoutes(options: {
  readinessChecks: readonly ReadinessCheck[];
  metrics: Registry;
  openApiDocument: () => Record<string, unknown>;
}): Route[] {
  return [
    ...probeRoutes(options),
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      operationId: 'getOpenApi',
      summary: 'This OpenAPI 3.1 document',
      tags: ['System'],
      access: 'public',
      success: { status: 200, description: 'OpenAPI document', schema: z.record(z.string(), z.unknown()) },
      handle: async () => options.openApiDocument(),
    }),
    defineRoute({
      method: 'get',
      path: '/problems/:slug',
      operationId: 'getProblemType',
      summary: 'What a problem type (the `type` of an error response) means',
      tags: ['System'],
      access: 'public',
      params: z.object({ slug: z.enum(Object.keys(PROBLEM_TYPES) as [ProblemSlug, ...ProblemSlug[]]) }),
      success: {
        status: 200,
        description: 'The problem type',
        schema: z.object({
          type: z.string(),
          status: z.number(),
          title: z.string(),
          description: z.string(),
        }),
      },
      handle: async ({ params }) => ({ type: `/problems/${params.slug}`, ...PROBLEM_TYPES[params.slug] }),
    }),
  ];
}
