import type { Middleware } from 'koa';
import { Counter, type Registry } from 'prom-client';
import { z } from 'zod';
import {
  type Actor,
  type AuditEventRepository,
  type AuditNote,
  auditNoteOf,
  fieldChanges,
  type NewAuditEvent,
} from '../../libs/audit/index.js';
import type { AuthContext } from '../../libs/contract/index.js';
import { DomainError, type DomainErrorKind, errorMessage } from '../../libs/errors/index.js';
import type { AppContext, AppState, Route } from '../../libs/http/index.js';
import type { Logger } from '../../libs/logging/index.js';

/** Operations sent with POST that only read (a batch question): not writes, not recorded. */
export const READ_ONLY_OPERATIONS = new Set(['checkMaintenanceBatch']);

const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  'not-allowed': 403,
  'not-found': 404,
  conflict: 409,
  'too-many': 429,
  internal: 500,
  unavailable: 503,
};

/** Where a write's resource can be read (a GET of the same API): before it and after it. */
type View =
  /** The GET at the write's own path (PATCH/PUT/DELETE /x/:id and GET /x/:id). */
  | { kind: 'same'; route: Route }
  /** An ancestor's GET with the write's params (POST /x/:id/rotate-secret and GET /x/:id): still there after a DELETE. */
  | { kind: 'ancestor'; route: Route }
  /** The GET of the created item (POST /x and GET /x/:p): after the write only, `p` the created id. */
  | { kind: 'created'; route: Route; param: string }
  /** A list at the parent path (GET /x for PATCH /x/:id): the item whose id is the write's param. */
  | { kind: 'listed'; route: Route; param: string };

const paramsOf = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] as string);
const isWrite = (route: Route) => route.method !== 'get' && !READ_ONLY_OPERATIONS.has(route.operationId);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The resource kind of a path: its first segment after `/api` (and a version): `websites`, `auth`. */
export function resourceOf(path: string): string {
  const segments = path.split('/').filter((segment) => segment && !segment.startsWith(':'));
  const rest = segments[0] === 'api' ? segments.slice(1) : segments;
  return (/^v\d+$/.test(rest[0] ?? '') ? rest[1] : rest[0]) ?? 'unknown';
}

/** Whether the write's answer is its resource's representation: the view's own schema, for the same item. */
export function answersAsView(write: Route, view: View): boolean {
  const schema = write.success.schema;
  return (
    (view.kind === 'same' || view.kind === 'created') &&
    schema !== undefined &&
    schema === view.route.success.schema &&
    write.success.contentType === view.route.success.contentType
  );
}

/** Which GET route represents a write's resource, if any (see `View`). */
export function viewOf(write: Route, routes: readonly Route[]): View | undefined {
  const reads = routes.filter(
    (route) => route.method === 'get' && route.represent && route.access !== 'public',
  );
  const params = paramsOf(write.path);
  if (write.method === 'post') {
    const child = reads.find(
      (route) =>
        route.path.startsWith(`${write.path}/:`) && !route.path.slice(write.path.length + 2).includes('/'),
    );
    if (child) return { kind: 'created', route: child, param: paramsOf(child.path).at(-1) as string };
  } else {
    const same = reads.find((route) => route.path === write.path);
    if (same) return { kind: 'same', route: same };
    const last = params.at(-1);
    const parent = write.path.replace(/\/:[A-Za-z0-9_]+$/, '');
    const list = reads.find((route) => route.path === parent);
    if (last && parent !== write.path && list) return { kind: 'listed', route: list, param: last };
  }
  // An action on an item (POST /x/:id/rotate-secret, POST /api/me/two-factor): the nearest ancestor
  // read of one thing (not a list) with the write's params.
  for (let path = write.path; path.lastIndexOf('/') > 0; ) {
    path = path.slice(0, path.lastIndexOf('/'));
    const ancestor = reads.find((route) => route.path === path);
    if (
      ancestor &&
      !(ancestor.success.schema instanceof z.ZodArray) &&
      paramsOf(path).every((name) => params.includes(name))
    )
      return { kind: 'ancestor', route: ancestor };
  }
  return undefined;
}

function statusOf(error: unknown): number {
  if (error instanceof DomainError) return STATUS_OF_KIND[error.kind];
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : 500;
}

function actorOf(auth: AuthContext | undefined, answer: unknown): Actor {
  if (auth?.userId !== undefined) return { type: 'user', id: auth.userId, role: auth.role };
  if (auth?.tokenId !== undefined) return { type: 'token', id: auth.tokenId, scopes: auth.scopes };
  // A sign-in (or an accepted invitation) answers the person it signed in: the actor from now on.
  const user = isRecord(answer) && isRecord(answer.user) ? answer.user : undefined;
  if (user && typeof user.id === 'number') return { type: 'user', id: user.id, role: String(user.role) };
  return { type: 'anonymous', id: null };
}

/** What a route that `tellsAuditBefore` said its resource was, as the view's schema parses it (null: nothing said). */
function toldBefore(view: View, note: AuditNote | undefined): unknown {
  if (note?.before === undefined || note.before === null) return null;
  const schema = view.route.success.schema;
  return schema ? schema.parse(note.before) : note.before;
}

export interface AuditRecorderOptions {
  events: AuditEventRepository;
  /** Every route of the app: the reads that represent a write's resource are found among them. */
  routes: readonly Route[];
  logger: Logger;
  metrics: Registry;
  /** The organization of the person an anonymous attempt names (a failed sign-in), if known. */
  organizationOfEmail?(email: string): Promise<number | null>;
}

/**
 * The audit log's middleware for each write route (`createHttpApp`'s `audit`): after the route
 * succeeded, it records who (user or token), what (action, resource and id), when, from which
 * address, and the fields changed with their values before and after, read through the GET route
 * that represents the resource (representations never hold a secret; body fields they do not show
 * are listed by name only). Anonymous writes (sign-in, accepting an invitation, a password reset)
 * are recorded when they fail too. Recording never fails the request: a failure is logged and
 * counted in `webmon_audit_events_dropped_total`.
 */
export function auditRecorder(
  options: AuditRecorderOptions,
): (route: Route) => Middleware<AppState> | undefined {
  const dropped = new Counter({
    name: 'webmon_audit_events_dropped_total',
    help: 'Audit events that could not be recorded (the write itself went through)',
    registers: [options.metrics],
  });

  const read = async (ctx: AppContext, view: View, params: Record<string, string>): Promise<unknown> => {
    try {
      if (view.kind === 'listed') {
        const { [view.param]: id, ...rest } = params;
        const list = await view.route.represent?.(ctx, rest);
        return (Array.isArray(list) && list.find((item) => isRecord(item) && String(item.id) === id)) || null;
      }
      return (await view.route.represent?.(ctx, params)) ?? null;
    } catch {
      // Not there (a create's 404 before, a delete's after) or not readable by this caller.
      return null;
    }
  };

  async function organizationOf(auth: AuthContext | undefined, answer: unknown, body: unknown) {
    if (auth) return auth.organizationId;
    // The person signed in (the answer's user), else the one the body names (a failed sign-in).
    const user = isRecord(answer) && isRecord(answer.user) ? answer.user : undefined;
    const email =
      typeof user?.email === 'string'
        ? user.email
        : isRecord(body) && typeof body.email === 'string'
          ? body.email
          : undefined;
    // Organization 0 holds attempts that name no known account: kept, listed by nobody's API.
    return (email && (await options.organizationOfEmail?.(email.trim().toLowerCase()))) || 0;
  }

  return (route) => {
    if (!isWrite(route) || route.unaudited) return undefined;
    const view = route.access === 'public' ? undefined : viewOf(route, options.routes);
    return async (ctx, next) => {
      const params = { ...(ctx.params as Record<string, string>) };
      let before =
        view && view.kind !== 'created' && !route.tellsAuditBefore ? await read(ctx, view, params) : null;
      let failure: unknown;
      let failed = false;
      try {
        await next();
      } catch (error) {
        failure = error;
        failed = true;
      }
      if (!failed || route.access === 'public') {
        try {
          const auth = ctx.state.auth;
          if (route.tellsAuditBefore && view) before = toldBefore(view, auditNoteOf(ctx));
          const answer: unknown = failed ? undefined : ctx.body;
          const body: unknown = ctx.request.body;
          let after: unknown = null;
          if (!failed && view && (route.method !== 'delete' || view.kind === 'ancestor')) {
            const createdId = isRecord(answer) ? answer.id : undefined;
            // A write that answers its resource as its GET does (the same schema, PATCH /x/:id or
            // POST /x): the answer is the representation after, without reading it again.
            if (answersAsView(route, view) && isRecord(answer)) after = answer;
            else if (view.kind !== 'created') after = await read(ctx, view, params);
            else if (createdId !== undefined)
              after = await read(ctx, view, { [view.param]: String(createdId) });
          }
          const shown = isRecord(after) ? after : isRecord(before) ? before : undefined;
          const firstParam = paramsOf(route.path)[0];
          const resourceId = shown?.id ?? (firstParam ? params[firstParam] : undefined);
          const actor = actorOf(auth, answer);
          const event: NewAuditEvent = {
            organizationId: await organizationOf(auth, answer, body),
            at: new Date(),
            actor,
            action: route.operationId,
            method: route.method.toUpperCase(),
            route: route.path,
            resource: resourceOf(route.path),
            resourceId: resourceId === undefined || resourceId === null ? null : String(resourceId),
            outcome: failed ? 'failed' : 'succeeded',
            status: failed ? statusOf(failure) : ctx.status,
            address: ctx.ip,
            requestId: ctx.state.requestId,
            changes: failed ? [] : fieldChanges(before, after, body),
          };
          if (route.access === 'public' && isRecord(body) && typeof body.email === 'string')
            event.subject = { email: body.email.slice(0, 320) };
          const note = auditNoteOf(ctx);
          if (note?.signIn) event.signIn = note.signIn;
          await options.events.append(event);
          // A recovery code used up (at a sign-in) is a two-factor change of the person's, as
          // enrolling and turning two-factor off are.
          if (note?.recoveryCodeUsed) {
            const { userId, recoveryCodesLeft } = note.recoveryCodeUsed;
            await options.events.append({
              ...event,
              action: 'useRecoveryCode',
              resource: 'me',
              resourceId: String(userId),
              changes: [
                {
                  path: 'user.twoFactor.recoveryCodesLeft',
                  old: recoveryCodesLeft + 1,
                  new: recoveryCodesLeft,
                },
              ],
            });
          }
        } catch (error) {
          dropped.inc();
          ctx.state.log.warn(
            { err: errorMessage(error), operation: route.operationId },
            'audit event not recorded',
          );
        }
      }
      if (failed) throw failure;
    };
  };
}
