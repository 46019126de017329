import { z } from 'zod';
import { OTHER_MONITOR_KINDS, WEBSITE_STATUSES } from '../events/index.js';
import { type ExpiryMarks, NO_EXPIRY_MARKS } from './expiry-alerts.js';
import { INITIAL_STATE } from './status-machine.js';

/** A date as MongoDB gives it, or as JSON (the hot copy in Redis) turned it into a string. */
const storedDate = z.union([z.date(), z.iso.datetime({ offset: true }).transform((text) => new Date(text))]);
const healthStatus = z.enum(['up', 'degraded', 'down']);
const health = z.enum(['unknown', 'up', 'degraded', 'down']);

const regionTrackSchema = z.object({
  lastStatus: healthStatus,
  consecutiveDown: z.number().int().min(0),
  consecutiveUp: z.number().int().min(0),
  /** Epoch ms; tracks from before this was kept have none (they count as fresh). */
  lastResultAt: z.number().optional(),
  downSince: z.number().optional(),
  firstDownResultId: z.string().optional(),
});

const maintenanceSpanSchema = z.object({
  windowId: z.number().int(),
  startsAt: storedDate,
  endsAt: storedDate,
});

const expiryMarksSchema = z.object({
  ssl: z.enum(['ok', 'expiring', 'invalid']).nullable(),
  domain: z.enum(['ok', 'expiring']).nullable(),
}) satisfies z.ZodType<ExpiryMarks>;

export { OTHER_MONITOR_KINDS, type OtherMonitorKind } from '../events/index.js';

/** Which of a website's other monitors a state is (none: the website's HTTP check). */
export const monitorRefSchema = z.object({ kind: z.enum(OTHER_MONITOR_KINDS), id: z.number().int() });
export type MonitorRef = z.infer<typeof monitorRefSchema>;

/**
 * Where a monitor's state, hot copy and lock live: the website's id for its HTTP check (as before
 * other kinds existed), `<kind>:<id>` for another monitor.
 */
export const monitorKey = (websiteId: number, monitor: MonitorRef | null): string =>
  monitor ? `${monitor.kind}:${monitor.id}` : String(websiteId);

/**
 * A website's monitor state, as MongoDB stores it and as its hot copy in Redis holds it: one schema
 * reads both. Fields added over time default for documents written before them.
 */
export const monitorStateSchema = z
  .object({
    organizationId: z.number().int(),
    websiteId: z.number().int(),
    /** The website's other monitor this is the state of (null: its HTTP check). */
    monitor: monitorRefSchema.nullable().default(null),
    health,
    /** The health subscribers were last told of (changes inside maintenance are told at its end). */
    notifiedHealth: health.optional(),
    regions: z.record(z.string(), regionTrackSchema).default({}),
    /** When the confirmed health last changed. */
    since: storedDate.nullable().default(null),
    /** What the API reports and since when (health, maintenance, paused, cancelled, unmonitored). */
    reported: z
      .object({ status: z.enum(WEBSITE_STATUSES), since: storedDate })
      .nullable()
      .default(null),
    lastResultAt: storedDate.nullable().default(null),
    openIncidentId: z.string().nullable().default(null),
    /** The open incident someone acknowledged: no reminders for it. */
    acknowledgedIncidentId: z.string().nullable().default(null),
    /** What the latest down result said (error or failed checks): the cause of an incident it opens. */
    lastCause: z.string().nullable().default(null),
    /** The maintenance span running now or coming next, kept by the maintenance boundary jobs. */
    maintenance: maintenanceSpanSchema.nullable().default(null),
    /** Whether `maintenance.started` went out and `maintenance.ended` did not yet. */
    maintenanceActive: z.boolean().default(false),
    /** When the planned boundary job fires (the start or end of `maintenance`). */
    maintenanceBoundaryAt: storedDate.nullable().default(null),
    /** What was told about the certificate and domain expiry (events fire on crossings only). */
    expiry: expiryMarksSchema.default(NO_EXPIRY_MARKS),
    /** When the last reminder that the website is still down went out (null: none since it went down). */
    remindedAt: storedDate.nullable().default(null),
    /** What of this state is in MongoDB (the durable fingerprint) and since when; null: nothing yet. */
    persisted: z.object({ fingerprint: z.string(), at: storedDate }).nullable().default(null),
    /**
     * The fence of the monitor lock's holding that wrote it (0: none yet): MongoDB refuses a write
     * with a lower one, which only a holder whose lock expired can bring.
     */
    fence: z.number().int().min(0).default(0),
  })
  // The object zod just built is ours to complete in place (copying it with rest and spread cost
  // ~3 µs a state: a list of 100 websites parses 100).
  .transform((state) => Object.assign(state, { notifiedHealth: state.notifiedHealth ?? state.health }));

export type MonitorStateDocument = z.output<typeof monitorStateSchema>;
export type MaintenanceSpanState = z.output<typeof maintenanceSpanSchema>;

/**
 * Whether a check at `at` is inside maintenance: inside the span (even if its start job is late),
 * or after `maintenance.started` until `maintenance.ended` went out (so the end is told once, by
 * the job, before any result outside the window).
 */
export function inMaintenanceAt(state: MonitorStateDocument, at: Date): boolean {
  const span = state.maintenance;
  const time = at.getTime();
  return (
    state.maintenanceActive ||
    (span !== null && span.startsAt.getTime() <= time && time < span.endsAt.getTime())
  );
}

/** The state of a website (or one of its other monitors) nothing is known of yet. */
export function initialMonitorState(
  organizationId: number,
  websiteId: number,
  monitor: MonitorRef | null = null,
): MonitorStateDocument {
  return monitorStateSchema.parse({ ...INITIAL_STATE, organizationId, websiteId, monitor });
}
