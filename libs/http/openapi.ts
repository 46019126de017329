import { z } from 'zod';
import { decimalIntegers, SESSION_COOKIE } from '../contract/index.js';
import { MAX_LISTED_FIELD_ERRORS } from './problem.middleware.js';
import { type DocumentedHeader, openApiPath, type Route } from './route.js';

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
      maxItems: MAX_LISTED_FIELD_ERRORS,
      description: `The first ${MAX_LISTED_FIELD_ERRORS} bad fields`,
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
    errorsOmitted: {
      type: 'integer',
      minimum: 1,
      description: 'How many more bad fields `errors` leaves out',
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

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
const stringHeader = (description: string) => ({ description, schema: { type: 'string' } });

/** Every response header the API documents, under `components.headers`. */
const HEADERS = {
  'x-request-id': stringHeader(
    "The request's id: the caller's `x-request-id` when it sent a sane one, else a new UUID; also in logs and in problems as `requestId`",
  ),
  'RateLimit-Limit': integerHeader(
    'Requests the token may make per window (draft-ietf-httpapi-ratelimit-headers)',
  ),
  'RateLimit-Remaining': integerHeader('Requests left in the current window'),
  'RateLimit-Reset': integerHeader('Seconds until the window resets'),
  'RateLimit-Policy': stringHeader('The limit and its window, e.g. `1200;w=60`'),
  'Retry-After': integerHeader('Seconds to wait before trying again'),
  'WWW-Authenticate': stringHeader('`Bearer realm="webmon"` with the RFC 6750 error'),
  Location: stringHeader('Path of the created or started resource'),
  Link: stringHeader('`<…>; rel="next"` to the next page, absent on the last'),
  'Cache-Control': stringHeader('How long the answer may be reused (`no-store` for one showing a secret)'),
  ETag: stringHeader(
    'The representation’s version; send it back in `If-None-Match` to get a 304 while it holds',
  ),
  'Content-Disposition': stringHeader(
    '`attachment; filename="…"`: a download, and the file name it is saved under',
  ),
  'Set-Cookie': stringHeader(
    'The session cookie `webmon_session` (HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS): set by signing in, cleared by signing out',
  ),
} as const;
type HeaderName = keyof typeof HEADERS;

const headerRefs = (names: readonly HeaderName[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const RATE_LIMIT_HEADERS: HeaderName[] = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
];

type JsonSchema = Record<string, unknown>;
type Io = 'input' | 'output';

/** Marks a reference to a named input schema until `settleNames` knows what it is called. */
const INPUT_MARK = '\u0000input';

/**
 * The named schemas (zod `.meta({ id })`) met while converting a document's schemas, by
 * direction: an id is one component, `Website`; its input form, when it differs from the output
 * one (fields with defaults become optional), is `WebsiteInput`. Class-generating clients get
 * those names instead of `InlineResponse200`.
 */
class NamedSchemas {
  private readonly found: Record<Io, Map<string, JsonSchema>> = { input: new Map(), output: new Map() };

  convert(schema: z.ZodType, io: Io): JsonSchema {
    const {
      $schema: _dialect,
      $defs,
      ...rest
    } = z.toJSONSchema(schema, { io, unrepresentable: 'any', override: documentDecimalInteger }) as {
      $defs?: Record<string, JsonSchema>;
    } & JsonSchema;
    for (const [id, definition] of Object.entries($defs ?? {}))
      this.found[io].set(id, pointRefs(definition, io));
    return pointRefs(rest, io);
  }

  /** The components, and the document with every input reference pointing at its final name. */
  settleNames<T>(document: T): { document: T; schemas: Record<string, JsonSchema> } {
    const schemas: Record<string, JsonSchema> = Object.fromEntries(this.found.output);
    const inputNames = new Map<string, string>();
    for (const [id, definition] of this.found.input) {
      const output = schemas[id];
      const name = output && JSON.stringify(output) !== JSON.stringify(definition) ? `${id}Input` : id;
      inputNames.set(id, name);
      schemas[name] = definition;
    }
    const settle = (value: unknown): unknown => {
      if (typeof value === 'string' && value.endsWith(INPUT_MARK)) {
        const id = value.slice('#/components/schemas/'.length, -INPUT_MARK.length);
        return `#/components/schemas/${inputNames.get(id) ?? id}`;
      }
      if (Array.isArray(value)) return value.map(settle);
      if (value && typeof value === 'object')
        return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, settle(inner)]));
      return value;
    };
    return { document: settle(document) as T, schemas: settle(schemas) as Record<string, JsonSchema> };
  }
}

/** A decimal-string path or query integer is documented as the integer it is (type, bounds, description kept). */
function documentDecimalInteger(context: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const bounds = decimalIntegers.get(context.zodSchema as z.ZodType);
  if (!bounds) return;
  const { description } = context.jsonSchema;
  for (const key of Object.keys(context.jsonSchema)) delete context.jsonSchema[key];
  Object.assign(context.jsonSchema, { type: 'integer', ...bounds }, description ? { description } : {});
}

/** zod writes `#/$defs/<id>`; OpenAPI keeps named schemas under `components.schemas`. */
function pointRefs(schema: JsonSchema, io: Io): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')
      ? `#/components/schemas/${value.slice('#/$defs/'.length)}${io === 'input' ? INPUT_MARK : ''}`
      : value,
  ) as JsonSchema;
}

function parametersOf(
  named: NamedSchemas,
  schema: z.ZodObject<z.ZodRawShape> | undefined,
  location: 'path' | 'query',
) {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    const fieldSchema = field as z.ZodType;
    return {
      name,
      in: location,
      required: location === 'path' || !fieldSchema.safeParse(undefined).success,
      ...(fieldSchema.description ? { description: fieldSchema.description } : {}),
      schema: named.convert(fieldSchema, 'input'),
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

/** The headers of a route's answers: the request id always, the rate limit once the token is known. */
function successHeaders(route: Route): HeaderName[] {
  const extra: DocumentedHeader[] = [...(route.success.headers ?? [])];
  if (route.success.status === 201 && !extra.includes('Location')) extra.push('Location');
  return ['x-request-id', ...(route.access === 'public' ? [] : RATE_LIMIT_HEADERS), ...extra];
}

function problemHeaders(route: Route, status: number): HeaderName[] {
  const names: HeaderName[] = ['x-request-id'];
  if (route.access !== 'public' && status !== 401) names.push(...RATE_LIMIT_HEADERS);
  if (status === 429 || status === 503) names.push('Retry-After');
  if (status === 401 || status === 403) names.push('WWW-Authenticate');
  return names;
}

function operationOf(named: NamedSchemas, route: Route) {
  const { success } = route;
  const responses: Record<string, unknown> = {
    [success.status]: {
      description: success.description,
      headers: headerRefs(successHeaders(route)),
      ...(success.schema
        ? {
            content: {
              [success.contentType]: { schema: named.convert(success.schema, 'output') },
              ...Object.fromEntries(
                (success.alternatives ?? []).map((alternative) => [
                  alternative.contentType,
                  { schema: named.convert(alternative.schema, 'output') },
                ]),
              ),
            },
          }
        : {}),
    },
  };
  for (const status of problemStatusesOf(route)) {
    responses[status] = {
      description: PROBLEM_DESCRIPTIONS[status] ?? 'Error',
      headers: headerRefs(problemHeaders(route, status)),
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
  }
  for (const [status, other] of Object.entries(route.otherResponses ?? {})) {
    responses[status] = {
      description: other.description,
      headers: headerRefs(['x-request-id', ...(other.headers ?? [])]),
      ...(other.body
        ? { content: { [other.body.contentType]: { schema: named.convert(other.body.schema, 'output') } } }
        : {}),
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: route.tags,
    // Either one: a token for scripts, the session cookie for people signed in.
    security: route.access === 'public' ? [] : [{ bearerAuth: [] }, { cookieAuth: [] }],
    ...(route.access !== 'public' ? { 'x-required-scope': route.access } : {}),
    parameters: [...parametersOf(named, route.params, 'path'), ...parametersOf(named, route.query, 'query')],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: named.convert(route.body, 'input') } },
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
  const named = new NamedSchemas();
  const raw: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    raw[path] ??= {};
    raw[path][route.method] = operationOf(named, route);
  }
  const { document: paths, schemas } = named.settleNames(raw);
  return {
    openapi: '3.1.0',
    info,
    // Relative: the API that serves this document, wherever it is deployed.
    servers: [{ url: '/', description: 'The API serving this document' }],
    paths,
    components: {
      schemas: { Problem: PROBLEM_SCHEMA, ...schemas },
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API token (`wm_…`) of your organization',
        },
        cookieAuth: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description:
            'The session of a person signed in with `POST /api/auth/login`; writes need an `Origin` (or `Referer`) of this site',
        },
      },
    },
  };
}
