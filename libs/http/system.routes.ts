import type { Registry } from 'prom-client';
import { z } from 'zod';
import { AppError } from './app-error.js';
import { PROBLEM_TYPES, type ProblemSlug } from './problem-types.js';
import { NOT_READY_RETRY_AFTER, notReadyDetail, type ReadinessCheck, readinessOf } from './readiness.js';
import { defineRoute, type Route } from './route.js';

const readiness = z
  .object({
    status: z.enum(['ready', 'degraded']),
    checks: z.record(z.string(), z.enum(['up', 'down'])),
    /** What works differently meanwhile, per dependency down (only with `degraded`). */
    degraded: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'Readiness' });

/** Liveness, readiness and metrics: what every process serves (the worker and notifier on METRICS_PORT). */
function probeRoutes(options: { readinessChecks: readonly ReadinessCheck[]; metrics: Registry }): Route[] {
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
        const answer = await readinessOf(options.readinessChecks);
        if (answer.status === 'not-ready')
          throw new AppError('service-unavailable', {
            detail: notReadyDetail(answer.down),
            headers: { 'Retry-After': NOT_READY_RETRY_AFTER },
            extensions: { checks: answer.checks },
          });
        return answer;
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
