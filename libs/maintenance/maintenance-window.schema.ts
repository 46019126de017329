import { z } from 'zod';
import { decimalInteger, nameText, patchBody, resourceId, uniqueArray } from '../contract/index.js';
import { isKnownTimezone, MAX_WINDOW_DAYS, WEEKDAYS } from './recurrence.js';

const instant = z.iso.datetime({ offset: true }).transform((text) => new Date(text));

export const recurrenceSchema = z
  .strictObject({
    frequency: z.enum(['daily', 'weekly', 'monthly']),
    interval: z.number().int().min(1).max(365).default(1),
    byWeekday: uniqueArray(z.enum(WEEKDAYS)).min(1).max(7).optional(),
    until: instant.optional(),
  })
  .meta({ id: 'Recurrence' });

const fields = {
  websiteId: resourceId(),
  title: nameText(200),
  startsAt: instant,
  endsAt: instant,
  timezone: z.string().refine(isKnownTimezone, 'must be an IANA time zone such as Europe/Berlin'),
  recurrence: recurrenceSchema.nullable(),
};

export const createWindowBody = z
  .strictObject({
    ...fields,
    timezone: fields.timezone.default('UTC'),
    recurrence: fields.recurrence.default(null),
  })
  .meta({ id: 'MaintenanceWindowCreate' });

export const patchWindowBody = patchBody(z.strictObject(fields).omit({ websiteId: true }).partial()).meta({
  id: 'MaintenanceWindowUpdate',
});

export type WindowInput = z.output<typeof createWindowBody>;

/** Rules across fields, checked on the merged window: [path, message] pairs. */
export function windowProblems(
  window: Omit<WindowInput, 'websiteId'>,
): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  const length = window.endsAt.getTime() - window.startsAt.getTime();
  if (length <= 0) problems.push({ path: 'endsAt', message: 'must be after startsAt' });
  else if (length > MAX_WINDOW_DAYS * 86_400_000)
    problems.push({ path: 'endsAt', message: `a window lasts at most ${MAX_WINDOW_DAYS} days` });
  const recurrence = window.recurrence;
  if (recurrence?.byWeekday && recurrence.frequency !== 'weekly') {
    problems.push({ path: 'recurrence.byWeekday', message: 'only with frequency weekly' });
  }
  if (recurrence?.until && recurrence.until.getTime() < window.startsAt.getTime()) {
    problems.push({ path: 'recurrence.until', message: 'must not be before startsAt' });
  }
  return problems;
}

const occurrenceView = z.object({ startsAt: z.iso.datetime(), endsAt: z.iso.datetime() });

export const windowView = z
  .object({
    id: z.number().int(),
    websiteId: z.number().int(),
    title: z.string(),
    startsAt: z.iso.datetime(),
    endsAt: z.iso.datetime(),
    timezone: z.string(),
    recurrence: z
      .object({
        frequency: z.enum(['daily', 'weekly', 'monthly']),
        interval: z.number().int(),
        byWeekday: z.array(z.enum(WEEKDAYS)).optional(),
        until: z.iso.datetime().optional(),
      })
      .meta({ id: 'Recurrence' })
      .nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'MaintenanceWindow' });

export const checkView = z
  .object({
    websiteId: z.number().int(),
    inMaintenance: z.boolean(),
    window: windowView
      .pick({ id: true, title: true, timezone: true })
      .extend(occurrenceView.shape)
      .nullable(),
  })
  .meta({ id: 'MaintenanceCheck' });

export const occurrencesQuery = z.strictObject({
  from: z.iso
    .datetime({ offset: true })
    .transform((text) => new Date(text))
    .optional(),
  limit: decimalInteger({ min: 1, max: 100 }).default(10),
});

export const occurrencesView = z
  .object({
    windowId: z.number().int(),
    timezone: z.string(),
    items: z.array(occurrenceView),
  })
  .meta({ id: 'MaintenanceOccurrences' });

export const batchBody = z
  .strictObject({
    websiteIds: z.array(resourceId()).min(1).max(1000),
  })
  .meta({ id: 'MaintenanceCheckBatchRequest' });

export const batchView = z
  .object({
    results: z.array(
      z.object({
        websiteId: z.number().int(),
        inMaintenance: z.boolean(),
        windowId: z.number().int().nullable(),
        endsAt: z.iso.datetime().nullable(),
        error: z.literal('not_found').optional(),
      }),
    ),
  })
  .meta({ id: 'MaintenanceCheckBatch' });
