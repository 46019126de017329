import { z } from 'zod';
import { openApiPath, type Route } from './route.js';

const PROBLEM_SCHEMA = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string', description: 'URI of the problem type, e.g. /problems/validation-error' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    requestId: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
} as const;

const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: 'Validation failed; `errors` names each field',
  401: 'Missing, malformed, unknown or revoked token',
  403: 'The token lacks the scope, or the package lacks the feature',
  404: 'Unknown id, or an id of another organization',
  409: 'Conflict with the current state',
  413: 'Body larger than 1 MiB',
  415: 'Body is not application/json',
  429: 'Rate limit reached; see Retry-After',
  503: 'MongoDB or Redis unavailable',
};

type JsonSchema = Record<string, unknown>;

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function parametersOf(schema: z.ZodObject<z.ZodRawShape> | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    const fieldSchema = field as z.ZodType;
    return {
      name,
      in: location,
      required: location === 'path' || !fieldSchema.safeParse(undefined).success,
      ...(fieldSchema.description ? { description: fieldSchema.description } : {}),
      schema: jsonSchemaOf(fieldSchema, 'input'),
    };
  });
}

function problemStatusesOf(route: Route): number[] {
  const statuses = new Set(route.problems);
  if (route.params || route.query || route.body) statuses.add(400);
  if (route.body) {
    statuses.add(413);
    statuses.add(415);
  }
  if (route.access !== 'public') {
    for (const status of [401, 403, 429, 503]) statuses.add(status);
  }
  if (route.params) statuses.add(404);
  return [...statuses].sort((a, b) => a - b);
}

function operationOf(route: Route) {
  const { success } = route;
  const responses: Record<string, unknown> = {
    [success.status]: {
      description: success.description,
      ...(success.schema
        ? { content: { [success.contentType]: { schema: jsonSchemaOf(success.schema, 'output') } } }
        : {}),
    },
  };
  for (const status of problemStatusesOf(route)) {
    responses[status] = {
      description: PROBLEM_DESCRIPTIONS[status] ?? 'Error',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: route.tags,
    security: route.access === 'public' ? [] : [{ bearerAuth: [] }],
    ...(route.access !== 'public' ? { 'x-required-scope': route.access } : {}),
    parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchemaOf(route.body, 'input') } },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of the given routes, generated from their zod schemas. */
export function buildOpenApiDocument(
  routes: readonly Route[],
  info: { title: string; version: string; description: string },
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      schemas: { Problem: PROBLEM_SCHEMA },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API token (`wm_…`) of your organization',
        },
      },
    },
  };
}
