import { z } from 'zod';
import { decimalId, nameText, patchBody, resourceId, uniqueArray } from '../contract/index.js';
import { minuteOfDay } from './rotation.js';
import { isKnownTimezone } from './zoned-clock.js';

/** Schedules one organization may have. */
export const MAX_SCHEDULES_PER_ORGANIZATION = 200;
export const MAX_LAYERS = 10;
export const MAX_PARTICIPANTS = 50;
/** The longest `{hours}` rotation: 30 days. */
export const MAX_ROTATION_HOURS = 720;
/** An override covers at most this long (a holiday's cover; a longer absence is a change of the rotation). */
export const MAX_OVERRIDE_DAYS = 31;
/** Overrides a schedule keeps that have not ended (ended ones go after `KEPT_ENDED_OVERRIDE_DAYS`). */
export const MAX_OPEN_OVERRIDES = 200;
/** The longest span `GET …/shifts` answers: a month's calendar with the weeks around it. */
export const MAX_SHIFT_SPAN_DAYS = 92;

const DAY_MS = 86_400_000;
const instant = z.iso.datetime({ offset: true }).transform((text) => new Date(text));
const instantView = z.iso.datetime();
/** Rules across fields run on fields that parsed (a bad instant is named by itself, not as a comparison). */
const onceParsed = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };

const lengthInput = z
  .union([
    z.enum(['daily', 'weekly']),
    z.strictObject({ hours: z.number().int().min(1).max(MAX_ROTATION_HOURS) }),
  ])
  .describe(
    'daily and weekly: calendar days and weeks in the schedule’s time zone (the handoff keeps its wall-clock time across daylight-saving changes); {hours}: exactly that many elapsed hours',
  );

const rotationInput = z
  .strictObject({
    length: lengthInput,
    handoff: z
      .string()
      .refine((text) => minuteOfDay(text) !== null, 'must be HH:MM, 00:00 to 23:59')
      .describe('Wall-clock time in the schedule’s time zone when one turn hands over to the next'),
    startsAt: instant.describe('The layer’s first turn starts at the first handoff at or after this'),
    endsAt: instant
      .nullable()
      .default(null)
      .describe('The layer ends here (null: it goes on); an earlier layer shows after it'),
  })
  .meta({ id: 'OnCallRotation' });

const layerInput = z
  .strictObject({
    participants: uniqueArray(resourceId())
      .max(MAX_PARTICIPANTS)
      .describe('Users of the organization in the order their turns come (none: the layer is empty)'),
    rotation: rotationInput,
  })
  .meta({ id: 'OnCallLayer' });

const layersInput = z
  .array(layerInput)
  .min(1)
  .max(MAX_LAYERS)
  .describe('In order of precedence: a later layer wins over an earlier one while it has someone on call')
  .superRefine((layers, ctx) => {
    layers.forEach((layer, index) => {
      const { startsAt, endsAt } = layer.rotation;
      if (endsAt && endsAt.getTime() <= startsAt.getTime())
        ctx.addIssue({
          code: 'custom',
          path: [index, 'rotation', 'endsAt'],
          message: 'must be after startsAt',
        });
    });
  }, onceParsed);

const fields = {
  name: nameText(200),
  timezone: z.string().refine(isKnownTimezone, 'must be an IANA time zone such as Europe/Berlin'),
  layers: layersInput,
};

export const createScheduleBody = z.strictObject(fields).meta({ id: 'OnCallScheduleCreate' });
export const patchScheduleBody = patchBody(z.strictObject(fields).partial()).meta({
  id: 'OnCallScheduleUpdate',
});
export type ScheduleInput = z.output<typeof createScheduleBody>;
export type LayerInput = ScheduleInput['layers'][number];

export const createOverrideBody = z
  .strictObject({
    userId: resourceId().describe('Who covers the span: a user of the organization'),
    from: instant,
    to: instant,
  })
  .superRefine(({ from, to }, ctx) => {
    const length = to.getTime() - from.getTime();
    if (length <= 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
    else if (length > MAX_OVERRIDE_DAYS * DAY_MS)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `an override lasts at most ${MAX_OVERRIDE_DAYS} days`,
      });
  }, onceParsed)
  .meta({ id: 'OnCallOverrideCreate' });
export type OverrideInput = z.output<typeof createOverrideBody>;

export const onCallQuery = z.strictObject({
  at: instant.optional().describe('The instant asked about (default now)'),
});

export const shiftsQuery = z.strictObject({ from: instant, to: instant }).superRefine(({ from, to }, ctx) => {
  const length = to.getTime() - from.getTime();
  if (length <= 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
  else if (length > MAX_SHIFT_SPAN_DAYS * DAY_MS)
    ctx.addIssue({ code: 'custom', path: ['to'], message: `at most ${MAX_SHIFT_SPAN_DAYS} days after from` });
}, onceParsed);

export const overrideParams = z.object({ id: decimalId(), overrideId: decimalId() });
export const personParams = z.object({ id: decimalId(), userId: decimalId() });

export const personView = z
  .object({ id: z.number().int(), name: z.string(), email: z.string() })
  .meta({ id: 'OnCallPerson' });

const lengthView = z.union([z.enum(['daily', 'weekly']), z.object({ hours: z.number().int() })]);

export const scheduleView = z
  .object({
    id: z.number().int(),
    name: z.string(),
    timezone: z.string(),
    layers: z.array(
      z.object({
        participants: z.array(z.number().int()),
        rotation: z.object({
          length: lengthView,
          handoff: z.string(),
          startsAt: instantView,
          endsAt: instantView.nullable(),
        }),
      }),
    ),
    people: z
      .array(personView)
      .describe('The participants who are users of the organization; one missing here has left it'),
    createdAt: instantView,
    updatedAt: instantView,
  })
  .meta({ id: 'OnCallSchedule' });

export const overrideView = z
  .object({
    id: z.number().int(),
    scheduleId: z.number().int(),
    userId: z.number().int(),
    user: personView
      .nullable()
      .describe('null: no longer a user of the organization (the override is ignored)'),
    from: instantView,
    to: instantView,
    createdAt: instantView,
  })
  .meta({ id: 'OnCallOverride' });

export const onCallView = z
  .object({
    at: instantView,
    now: personView.nullable().describe('Who is on call at `at`; null: no one'),
    until: instantView
      .nullable()
      .describe('When `now` stops being on call (null: not within a year, or no one is on call)'),
    next: z
      .object({ user: personView, at: instantView })
      .nullable()
      .describe('The next person other than `now` and when they take over; null: no one within a year'),
  })
  .meta({ id: 'OnCallNow' });

export const shiftsView = z
  .object({
    timezone: z.string(),
    from: instantView,
    to: instantView,
    shifts: z.array(
      z.object({
        user: personView,
        from: instantView,
        to: instantView,
        source: z.enum(['layer', 'override']),
        layer: z.number().int().nullable().describe('The layer’s index (0 first) for a layer’s turn'),
        overrideId: z.number().int().nullable(),
      }),
    ),
  })
  .meta({ id: 'OnCallShifts' });

export const feedsView = z
  .object({
    feeds: z.array(
      z.object({
        scheduleId: z.number().int(),
        scheduleName: z.string(),
        url: z.url().describe('An iCalendar feed of your shifts; its token is a password: keep it private'),
      }),
    ),
  })
  .meta({ id: 'OnCallFeeds' });
