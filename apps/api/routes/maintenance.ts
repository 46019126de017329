import { z } from 'zod';
import { decimalId, idParams } from '../../../libs/contract/index.js';
import { notFound } from '../../../libs/errors/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import {
  assertValidWindow,
  batchBody,
  batchView,
  checkView,
  createMaintenanceWindow,
  createWindowBody,
  currentWindow,
  isKnownTimezone,
  MAX_WINDOWS_PER_WEBSITE,
  type MaintenanceDependencies,
  type MaintenanceWindowDocument,
  occurrences,
  occurrencesQuery,
  occurrencesView,
  patchWindowBody,
  recurrenceSchema,
  toWindowView,
  windowView,
} from '../../../libs/maintenance/index.js';

const previewInstant = z.iso.datetime({ offset: true }).transform((text) => new Date(text));

/** A window not yet saved (or being edited): its schedule only, nothing stored. */
const previewBody = z
  .strictObject({
    startsAt: previewInstant,
    endsAt: previewInstant,
    timezone: z
      .string()
      .refine(isKnownTimezone, 'must be an IANA time zone such as Europe/Berlin')
      .default('UTC'),
    recurrence: recurrenceSchema.nullable().default(null),
    from: previewInstant
      .optional()
      .describe('Occurrences still running at or starting after this (default now)'),
    limit: z.number().int().min(1).max(50).default(5),
  })
  .meta({ id: 'MaintenancePreviewRequest' });

const previewView = z
  .object({
    timezone: z.string(),
    items: z.array(z.object({ startsAt: z.iso.datetime(), endsAt: z.iso.datetime() })),
  })
  .meta({ id: 'MaintenancePreview' });

const websiteIdParams = z.object({ websiteId: decimalId() });

export function maintenanceRoutes(deps: MaintenanceDependencies): Route[] {
  const { windows, websites, mutex, queue } = deps;
  const requireWebsite = async (organizationId: number, websiteId: number) => {
    if (!(await websites.findByRef(organizationId, { id: websiteId })))
      throw notFound(`No website ${websiteId}`);
  };
  const load = async (organizationId: number, id: number) => {
    const window = await windows.findById(organizationId, id);
    if (!window) throw notFound(`No maintenance window ${id}`);
    return window;
  };

  return [
    defineRoute({
      method: 'get',
      path: '/api/maintenance-windows',
      operationId: 'listMaintenanceWindows',
      summary: 'List the maintenance windows of a website',
      tags: ['Maintenance windows'],
      access: 'read',
      query: z.strictObject({ websiteId: decimalId() }),
      success: { status: 200, description: 'Windows, by id', schema: z.array(windowView) },
      problems: [404],
      handle: async ({ auth, query }) => {
        await requireWebsite(auth.organizationId, query.websiteId);
        return (await windows.listByWebsite(auth.organizationId, query.websiteId)).map(toWindowView);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/maintenance-windows/:id',
      operationId: 'getMaintenanceWindow',
      summary: 'Get a maintenance window',
      tags: ['Maintenance windows'],
      access: 'read',
      params: idParams,
      success: { status: 200, description: 'The window', schema: windowView },
      handle: async ({ auth, params }) => toWindowView(await load(auth.organizationId, params.id)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/maintenance-windows/:id/occurrences',
      operationId: 'listMaintenanceOccurrences',
      summary: 'The occurrences of a window from a time on (a preview of its recurrence)',
      description:
        'Occurrences still running at `from` (default now) or starting after it, in order, at most `limit` (1–100, default 10). Wall-clock times repeat in the window’s timezone across daylight-saving changes.',
      tags: ['Maintenance windows'],
      access: 'read',
      params: idParams,
      query: occurrencesQuery,
      success: { status: 200, description: 'The occurrences', schema: occurrencesView },
      handle: async ({ auth, params, query }) => {
        const window = await load(auth.organizationId, params.id);
        const from = query.from ?? new Date();
        const items: Array<{ startsAt: string; endsAt: string }> = [];
        for (const occurrence of occurrences(window, from)) {
          if (items.length === query.limit) break;
          if (occurrence.endsAt.getTime() <= from.getTime()) continue;
          items.push({
            startsAt: occurrence.startsAt.toISOString(),
            endsAt: occurrence.endsAt.toISOString(),
          });
        }
        return { windowId: window.id, timezone: window.timezone, items };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/maintenance-windows/preview',
      operationId: 'previewMaintenanceWindow',
      summary: 'The next occurrences of a window before it is saved (nothing is stored)',
      description:
        'The same rules as a create (endsAt after startsAt, at most 31 days, byWeekday only weekly, until not before startsAt) and the same recurrence: wall-clock times repeat in the timezone across daylight-saving changes. Answers up to `limit` (1–50, default 5) occurrences still running at `from` (default now) or starting after it.',
      tags: ['Maintenance windows'],
      access: 'read',
      body: previewBody,
      success: { status: 200, description: 'The occurrences, in order', schema: previewView },
      handle: async ({ body }) => {
        assertValidWindow({ ...body, title: 'preview' });
        const from = body.from ?? new Date();
        const items: Array<{ startsAt: string; endsAt: string }> = [];
        for (const occurrence of occurrences(body, from)) {
          if (items.length === body.limit) break;
          if (occurrence.endsAt.getTime() <= from.getTime()) continue;
          items.push({
            startsAt: occurrence.startsAt.toISOString(),
            endsAt: occurrence.endsAt.toISOString(),
          });
        }
        return { timezone: body.timezone, items };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/maintenance-windows',
      operationId: 'createMaintenanceWindow',
      summary: 'Create a one-off or recurring maintenance window',
      description: `endsAt after startsAt, at most 31 days long; timezone is IANA (default UTC); at most ${MAX_WINDOWS_PER_WEBSITE} windows per website. A recurring window repeats its wall-clock times in its timezone.`,
      tags: ['Maintenance windows'],
      access: 'write',
      body: createWindowBody,
      problems: [409],
      success: { status: 201, description: 'Created', schema: windowView },
      handle: async ({ auth, body, ctx }) => {
        const created = await createMaintenanceWindow(deps, auth.organizationId, body);
        ctx.set('Location', `/api/maintenance-windows/${created.id}`);
        return toWindowView(created);
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/api/maintenance-windows/:id',
      operationId: 'updateMaintenanceWindow',
      summary: 'Change a maintenance window; the fields sent are merged and the result re-validated',
      tags: ['Maintenance windows'],
      access: 'write',
      params: idParams,
      body: patchWindowBody,
      success: { status: 200, description: 'The updated window', schema: windowView },
      handle: async ({ auth, params, body }) => {
        const current = await load(auth.organizationId, params.id);
        return mutex.withLock(`maintenance:${current.websiteId}`, async () => {
          const next = { ...(await load(auth.organizationId, params.id)), ...body };
          assertValidWindow(next);
          const updated = await windows.replace(next);
          await queue.syncSoon(auth.organizationId, updated.websiteId);
          return toWindowView(updated);
        });
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/maintenance-windows/:id',
      operationId: 'deleteMaintenanceWindow',
      summary: 'Delete a maintenance window',
      tags: ['Maintenance windows'],
      access: 'write',
      params: idParams,
      success: { status: 204, description: 'Deleted' },
      handle: async ({ auth, params }) => {
        const { websiteId } = await load(auth.organizationId, params.id);
        await mutex.withLock(`maintenance:${websiteId}`, async () => {
          if (!(await windows.delete(auth.organizationId, params.id)))
            throw notFound(`No maintenance window ${params.id}`);
          await queue.syncSoon(auth.organizationId, websiteId);
        });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/maintenance-windows/check/:websiteId',
      operationId: 'checkMaintenance',
      summary: 'Is a website in maintenance now?',
      tags: ['Maintenance windows'],
      access: 'read',
      params: websiteIdParams,
      success: { status: 200, description: 'The active occurrence, if any', schema: checkView },
      handle: async ({ auth, params }) => {
        await requireWebsite(auth.organizationId, params.websiteId);
        const active = currentWindow(
          await windows.listByWebsite(auth.organizationId, params.websiteId),
          new Date(),
        );
        return {
          websiteId: params.websiteId,
          inMaintenance: active !== null,
          window: active && {
            id: active.window.id,
            title: active.window.title,
            timezone: active.window.timezone,
            startsAt: active.startsAt.toISOString(),
            endsAt: active.endsAt.toISOString(),
          },
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/maintenance-windows/check/batch',
      operationId: 'checkMaintenanceBatch',
      summary: 'Are these websites in maintenance now? (1–1000, answered in request order)',
      description:
        'An id that is unknown or of another organization answers inMaintenance false with error "not_found". Two queries in all, whatever the number of ids.',
      tags: ['Maintenance windows'],
      access: 'read',
      body: batchBody,
      success: { status: 200, description: 'One result per id, in request order', schema: batchView },
      handle: async ({ auth, body }) => {
        const ids = [...new Set(body.websiteIds)];
        const [known, all] = await Promise.all([
          websites.existingIds(auth.organizationId, ids),
          windows.listByWebsites(auth.organizationId, ids),
        ]);
        const byWebsite = new Map<number, MaintenanceWindowDocument[]>();
        for (const window of all)
          byWebsite.set(window.websiteId, [...(byWebsite.get(window.websiteId) ?? []), window]);
        const now = new Date();
        return {
          results: body.websiteIds.map((websiteId) => {
            if (!known.has(websiteId))
              return {
                websiteId,
                inMaintenance: false,
                windowId: null,
                endsAt: null,
                error: 'not_found' as const,
              };
            const active = currentWindow(byWebsite.get(websiteId) ?? [], now);
            return {
              websiteId,
              inMaintenance: active !== null,
              windowId: active?.window.id ?? null,
              endsAt: active?.endsAt.toISOString() ?? null,
            };
          }),
        };
      },
    }),
  ];
}
