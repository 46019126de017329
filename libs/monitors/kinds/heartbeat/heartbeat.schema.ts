import { z } from 'zod';
import { patchBody } from '../../../contract/index.js';
import { isKnownTimezone } from '../../../maintenance/index.js';
import { monitorName, monitorStatusFields } from '../../monitor-common.js';
import { cronProblem } from './heartbeat-schedule.js';

/** Shortest period a heartbeat may have, and the longest (a year). */
const PERIOD_SECONDS = { min: 10, max: 31_536_000 };

export const heartbeatScheduleSchema = z
  .union([
    z.strictObject({
      periodSeconds: z
        .number()
        .int()
        .min(PERIOD_SECONDS.min)
        .max(PERIOD_SECONDS.max)
        .describe('The job pings every this many seconds'),
    }),
    z.strictObject({
      cron: z.string().trim().min(9).max(200).describe('Five fields, e.g. "30 2 * * *"'),
      timezone: z
        .string()
        .refine(isKnownTimezone, 'must be an IANA time zone such as Europe/Berlin')
        .default('UTC')
        .describe('The cron expression is read in it'),
    }),
  ])
  .superRefine((schedule, ctx) => {
    if (!('cron' in schedule)) return;
    const problem = cronProblem(schedule.cron, schedule.timezone);
    if (problem) ctx.addIssue({ code: 'custom', path: ['cron'], message: problem });
  })
  .meta({ id: 'HeartbeatSchedule' });

const fields = {
  name: monitorName,
  schedule: heartbeatScheduleSchema,
  graceSeconds: z.number().int().min(0).max(86_400).describe('How late a ping may be before it is missed'),
  maxRunSeconds: z
    .number()
    .int()
    .min(1)
    .max(86_400)
    .nullable()
    .describe('A run started with /start and not finished within this is late (null: no bound)'),
};

/** A heartbeat's own fields as its deadline is computed from them (its name aside). */
export const heartbeatSettings = z.strictObject({
  schedule: fields.schedule,
  graceSeconds: fields.graceSeconds.default(300),
  maxRunSeconds: fields.maxRunSeconds.default(null),
});
export const createHeartbeatBody = z
  .strictObject({ name: fields.name, ...heartbeatSettings.shape })
  .meta({ id: 'HeartbeatCreate' });
/** As `POST /api/websites/{ref}/monitors` takes it. */
export const createHeartbeatMonitorBody = createHeartbeatBody
  .extend({ kind: z.literal('heartbeat') })
  .meta({ id: 'HeartbeatMonitorCreate' });
export type HeartbeatCreate = z.output<typeof createHeartbeatBody>;
export const updateHeartbeatBody = patchBody(z.strictObject(fields).partial()).meta({
  id: 'HeartbeatUpdate',
});
export type HeartbeatUpdate = z.output<typeof updateHeartbeatBody>;

/** A schedule not saved yet (the app's form): its next expected times. */
export const heartbeatPreviewBody = z
  .strictObject({ schedule: heartbeatScheduleSchema, graceSeconds: fields.graceSeconds.default(0) })
  .meta({ id: 'HeartbeatPreviewRequest' });
export const heartbeatPreviewView = z
  .object({ nextExpectedAt: z.array(z.iso.datetime()) })
  .meta({ id: 'HeartbeatPreview' });

export const heartbeatView = z
  .object({
    id: z.number().int(),
    websiteId: z.number().int(),
    kind: z.literal('heartbeat'),
    name: z.string(),
    schedule: z.union([
      z.object({ periodSeconds: z.number().int() }).meta({ id: 'HeartbeatPeriod' }),
      z.object({ cron: z.string(), timezone: z.string() }).meta({ id: 'HeartbeatCron' }),
    ]),
    graceSeconds: z.number().int(),
    maxRunSeconds: z.number().int().nullable(),
    pingUrl: z
      .string()
      .nullable()
      .describe(
        'The URL the job calls (`/ping/{token}`): the token is its credential, shown to editors only',
      ),
    ...monitorStatusFields,
    lastSuccessAt: z.iso.datetime().nullable(),
    lastStartAt: z.iso.datetime().nullable(),
    lastFailureAt: z.iso.datetime().nullable(),
    nextExpectedAt: z.array(z.iso.datetime()).describe('The next five times a ping is expected'),
    deadlineAt: z.iso.datetime().describe('Down unless a success comes before this'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Heartbeat' });

export const PING_KINDS = ['success', 'start', 'failure'] as const;
export type PingKind = (typeof PING_KINDS)[number];

export const pingView = z
  .object({
    kind: z.enum(PING_KINDS),
    at: z.iso.datetime(),
    exitCode: z.number().int().nullable(),
    body: z.string().describe('What the job sent (its first 10 KB), as text'),
    bodyTruncated: z.boolean(),
    address: z.string().nullable().describe('Where the ping came from'),
  })
  .meta({ id: 'HeartbeatPing' });
