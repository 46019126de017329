import { z } from 'zod';
import { patchBody } from '../contract/index.js';
import { PROBE_KINDS, type ProbeKindName } from './kinds/index.js';
import { kindSchemaName } from './kinds/probe-kind.js';
import { intervalField, monitorName, monitorStatusFields, timeoutField } from './monitor-common.js';

/** What every probe check has besides its kind's own fields. */
const commonFields = {
  name: monitorName.describe("What people call it (default: from its target, e.g. 'SMTP mx.example:587')"),
  intervalSeconds: intervalField,
  timeoutSeconds: timeoutField,
};

/** A field a kind's `schedule` sets (a crawl's interval): refused when sent. */
const setBySchedule = (field: z.ZodNumber) =>
  field.optional().refine((value) => value === undefined, {
    message: 'is set by `schedule` for this kind: send schedule instead',
  });

/** The interval and timeout a create takes: its own, or none where its schedule sets them. */
const timingFields = (kind: ProbeKindName) =>
  PROBE_KINDS[kind].cadence
    ? {
        intervalSeconds: setBySchedule(commonFields.intervalSeconds),
        timeoutSeconds: setBySchedule(commonFields.timeoutSeconds),
      }
    : {
        intervalSeconds: commonFields.intervalSeconds.default(
          PROBE_KINDS[kind].defaults?.intervalSeconds ?? 300,
        ),
        timeoutSeconds: commonFields.timeoutSeconds.default(PROBE_KINDS[kind].defaults?.timeoutSeconds ?? 10),
      };

/** One kind's create body: its kind, the common fields and its own (defaults filled in). */
const createBodyOf = (kind: ProbeKindName) =>
  z
    .strictObject({
      kind: z.literal(kind),
      name: commonFields.name.optional(),
      ...timingFields(kind),
    })
    .extend(PROBE_KINDS[kind].settings.shape)
    .meta({
      id: `${kindSchemaName(kind)}CheckCreate`,
      description: PROBE_KINDS[kind].description,
    });

export const createProbeCheckBodies = Object.fromEntries(
  (Object.keys(PROBE_KINDS) as ProbeKindName[]).map((kind) => [kind, createBodyOf(kind)]),
) as Record<ProbeKindName, ReturnType<typeof createBodyOf>>;

/** A create as the service takes it: the common fields, then the kind's own (validated by its schema). */
export type ProbeCheckCreate = {
  name?: string;
  /** Absent only for a kind whose schedule sets it. */
  intervalSeconds?: number | undefined;
  timeoutSeconds?: number | undefined;
} & Record<string, unknown>;

/** A change: any common field, and the kind's own fields (validated by the kind's schema over what is stored). */
export const updateProbeCheckBody = patchBody(
  z
    .object({
      name: commonFields.name.optional(),
      intervalSeconds: commonFields.intervalSeconds.optional(),
      timeoutSeconds: commonFields.timeoutSeconds.optional(),
    })
    .catchall(z.unknown()),
).meta({
  id: 'ProbeCheckUpdate',
  description:
    'name, intervalSeconds, timeoutSeconds and the fields of the check’s kind; unknown fields are refused',
});
export type ProbeCheckUpdate = z.output<typeof updateProbeCheckBody>;

/** A probe check as the API shows it: the common fields, where it stands, and its kind's settings. */
const viewOf = (kind: ProbeKindName) =>
  z
    .object({
      id: z.number().int(),
      websiteId: z.number().int(),
      kind: z.literal(kind),
      name: z.string(),
      intervalSeconds: z.number().int(),
      timeoutSeconds: z.number().int(),
      ...monitorStatusFields,
      createdAt: z.iso.datetime(),
      updatedAt: z.iso.datetime(),
    })
    .extend(z.object(PROBE_KINDS[kind].fields).partial().shape)
    .meta({ id: `${kindSchemaName(kind)}Check` });

export const probeCheckViews = Object.fromEntries(
  (Object.keys(PROBE_KINDS) as ProbeKindName[]).map((kind) => [kind, viewOf(kind)]),
) as Record<ProbeKindName, ReturnType<typeof viewOf>>;
