import type { Readable } from 'node:stream';
import { z } from 'zod';
import { type AuthContext, invalidFields, parseInput, type Scope } from '../contract/index.js';
import { invalidInput } from '../errors/index.js';
import type { AppContext } from './context.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** Response headers a route may set that its OpenAPI operation documents. */
export type DocumentedHeader =
  | 'Location'
  | 'Link'
  | 'Cache-Control'
  | 'ETag'
  | 'Set-Cookie'
  | 'Content-Disposition';
export type Access = Scope | 'public';
type ObjectSchema = z.ZodObject<z.ZodRawShape>;
type EmptyObjectSchema = z.ZodObject<Record<never, z.ZodType>>;

/** An answer other than the success and the problem documents (documentation): a 304, an HTML 404 page. */
export interface OtherResponse {
  description: string;
  /** Absent for an answer without a body (304). */
  body?: { schema: z.ZodType; contentType: string };
  headers?: DocumentedHeader[];
}

export interface RouteRequest<P extends ObjectSchema, Q extends ObjectSchema, B extends z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  /** Set for every route whose access is not `public`. */
  auth: AuthContext;
  ctx: AppContext;
}

/**
 * A success written as it is read (an export of thousands of websites), so it is never whole in
 * memory. Its writer parses each piece by the piece's schema, as `run` would parse a whole result.
 */
export class StreamedBody {
  constructor(readonly stream: Readable) {}
}

/**
 * An answer with another status than the route's success, documented in its `otherResponses`
 * (a run that is started, not made: 202): its body is parsed with that response's schema.
 */
export class OtherAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** A slot a route holds while it answers (a share of a costly operation); released once. */
export interface Admission {
  release(): void;
}

/** Another representation of a route's success, chosen by the handler setting `ctx.type`. */
export interface Alternative {
  contentType: string;
  schema: z.ZodType;
}

export interface RouteDefinition<
  P extends ObjectSchema,
  Q extends ObjectSchema,
  B extends z.ZodType,
  R extends z.ZodType,
  A extends readonly Alternative[] = [],
> {
  method: HttpMethod;
  /** Koa-style path: `/api/tokens/:id`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  /** A larger body than the API's 1 MiB (an import's file). */
  maxBodyBytes?: number;
  /**
   * The body is read as bytes of any type, not JSON: at most `maxBytes` kept (`ctx.state.rawBody`),
   * at most `limitBytes` accepted.
   */
  rawBody?: { maxBytes: number; limitBytes: number };
  /**
   * Asked after the access guard, before the body is read: a slot of a share (429 when used up),
   * released once the route has answered. A large body is not read for a request turned away.
   */
  admit?: (auth: AuthContext) => Promise<Admission>;
  /** A write that is no change of anyone's configuration (a heartbeat ping): the audit log leaves it out. */
  unaudited?: true;
  /**
   * The write reads its resource itself (under its lock) and tells the audit log what it was, as
   * the resource's GET shows it (`noteForAudit(ctx, { before })`): the audit log does not read it
   * first, a round trip fewer on the write's path, and it records what the write replaced.
   */
  tellsAuditBefore?: true;
  /** The path holds a credential (a ping token): request logs name the route's pattern, not the path. */
  credentialInPath?: true;
  success: {
    status: 200 | 201 | 202 | 204;
    description: string;
    /** Absent for 204. The handler's result is parsed with it, so unlisted fields never leave. */
    schema?: R;
    /** @defaultValue application/json */
    contentType?: string;
    /** Headers the handler sets beyond the common ones (documentation; 201 implies Location). */
    headers?: DocumentedHeader[];
    /**
     * Other representations of the success (e.g. `?format=text`): the handler sets `ctx.type` to
     * one's content type and returns what its schema parses.
     */
    alternatives?: A;
  };
  /** Error statuses this route can answer beyond those its shape implies (documentation). */
  problems?: number[];
  /** Answers that are not problem documents, by status; one replaces the problem of its status. */
  otherResponses?: Record<number, OtherResponse>;
  handle(
    request: RouteRequest<P, Q, B>,
  ): R extends z.ZodUndefined
    ? Promise<void>
    : Promise<z.input<R> | z.input<A[number]['schema']> | StreamedBody | OtherAnswer>;
}

/** A route with its types erased, ready to mount and to document. */
export interface Route {
  method: HttpMethod;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  params?: ObjectSchema;
  query?: ObjectSchema;
  body?: z.ZodType;
  maxBodyBytes?: number;
  rawBody?: { maxBytes: number; limitBytes: number };
  admit?: (auth: AuthContext) => Promise<Admission>;
  unaudited?: true;
  tellsAuditBefore?: true;
  credentialInPath?: true;
  success: {
    status: number;
    description: string;
    schema?: z.ZodType;
    contentType: string;
    headers?: DocumentedHeader[];
    alternatives?: readonly Alternative[];
  };
  problems: number[];
  otherResponses?: Record<number, OtherResponse>;
  run(ctx: AppContext): Promise<void>;
  /**
   * What this (read) route would answer the request's caller for `params` and no query, as its
   * success schema parses it, without answering: the response's status, body and headers are left
   * as they were (the audit log reads a resource before and after a write with it). Routes made
   * without `defineRoute` have none.
   */
  represent?(ctx: AppContext, params: Record<string, string>): Promise<unknown>;
}

const NO_INPUT = z.object({});

/** No body, or an empty JSON object (what some clients send with every POST). */
function isEmptyBody(raw: unknown): boolean {
  return (
    raw === undefined ||
    (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && Object.keys(raw).length === 0)
  );
}

/** Declares a route once: its zod schemas validate the request, type the handler and make the OpenAPI. */
export function defineRoute<
  P extends ObjectSchema = EmptyObjectSchema,
  Q extends ObjectSchema = EmptyObjectSchema,
  B extends z.ZodType = z.ZodUndefined,
  R extends z.ZodType = z.ZodUndefined,
  const A extends readonly Alternative[] = [],
>(definition: RouteDefinition<P, Q, B, R, A>): Route {
  const contentType = definition.success.contentType ?? 'application/json';
  return {
    ...definition,
    success: { ...definition.success, contentType },
    problems: definition.problems ?? [],
    async run(ctx) {
      const params = parseInput(definition.params ?? NO_INPUT, ctx.params ?? {}, 'path') as z.output<P>;
      const repeated = Object.keys(ctx.query).filter((name) => Array.isArray(ctx.query[name]));
      if (repeated.length > 0)
        throw invalidFields(
          'query',
          repeated.map((path) => ({ path, message: 'must be given once' })),
        );
      const query = parseInput(definition.query ?? NO_INPUT, ctx.query, 'query') as z.output<Q>;
      let body = undefined as z.output<B>;
      if (definition.body) {
        const raw: unknown = ctx.request.body;
        if (raw === undefined) {
          throw invalidInput('A JSON body is required', [{ path: '', message: 'A JSON body is required' }]);
        }
        body = parseInput(definition.body, raw, 'body');
      } else if (!isEmptyBody(ctx.request.body)) {
        // Ignoring it would let a mistyped or forged request do what a bare one does.
        throw invalidInput('This route takes no request body', [
          { path: 'body', message: 'must be absent: this route takes no request body' },
        ]);
      }
      const result = await definition.handle({
        params,
        query,
        body,
        auth: ctx.state.auth as AuthContext,
        ctx,
      });
      if (result instanceof OtherAnswer) {
        const other = definition.otherResponses?.[result.status]?.body;
        if (!other) throw new Error(`${definition.operationId} answers ${result.status} undocumented`);
        ctx.status = result.status;
        ctx.type = other.contentType;
        ctx.body = other.schema.parse(result.body);
        return;
      }
      ctx.status = definition.success.status;
      if (result instanceof StreamedBody) {
        if (!ctx.type) ctx.type = contentType;
        ctx.body = result.stream;
      } else if (definition.success.schema) {
        // A handler picks its alternative representation (e.g. `?format=text`) by setting the type.
        const chosen = definition.success.alternatives?.find(
          (alternative) => ctx.type && alternative.contentType.split(';')[0] === ctx.type,
        );
        if (!ctx.type) ctx.type = contentType;
        ctx.body = (chosen ? chosen.schema : definition.success.schema).parse(result);
      }
    },
    async represent(ctx, rawParams) {
      const params = parseInput(definition.params ?? NO_INPUT, rawParams, 'path') as z.output<P>;
      const query = parseInput(definition.query ?? NO_INPUT, {}, 'query') as z.output<Q>;
      const headers = { ...ctx.response.headers };
      const { status, body } = ctx;
      try {
        const result = await definition.handle({
          params,
          query,
          body: undefined as z.output<B>,
          auth: ctx.state.auth as AuthContext,
          ctx,
        });
        if (result instanceof OtherAnswer)
          throw new Error(
            `${definition.operationId} answers ${result.status}: it cannot represent a resource`,
          );
        if (result instanceof StreamedBody) {
          result.stream.destroy();
          throw new Error(`${definition.operationId} streams its answer: it cannot represent a resource`);
        }
        return definition.success.schema ? definition.success.schema.parse(result) : undefined;
      } finally {
        for (const name of Object.keys(ctx.response.headers)) if (!(name in headers)) ctx.remove(name);
        for (const [name, value] of Object.entries(headers))
          if (value !== undefined) ctx.set(name, value as string | string[]);
        ctx.status = status;
        ctx.body = body;
      }
    },
  };
}

/** Koa path `/a/:id/b` as OpenAPI `/a/{id}/b`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
