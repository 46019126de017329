// How incidents and timelines are shown (a client user sees the agency), and what their routes share.
import { z } from 'zod';
import type { AuthContext } from '../../../libs/contract/index.js';
import { notFound } from '../../../libs/errors/index.js';
import type { IncidentDocument, MonitorStateRepository } from '../../../libs/monitoring/index.js';
import {
  monitorRefSchema,
  TIMELINE_KINDS,
  type TimelineActor,
  type TimelineEntry,
  timelineActorSchema,
  timelineAlertSchema,
  timelineEscalationSchema,
} from '../../../libs/monitoring/index.js';

const actorView = timelineActorSchema.meta({ id: 'IncidentActor' });

export const incidentView = z
  .object({
    id: z.string(),
    websiteId: z.number().int(),
    startedAt: z.iso.datetime(),
    resolvedAt: z.iso.datetime().nullable(),
    cause: z.string(),
    regions: z.array(z.string()),
    monitor: monitorRefSchema
      .meta({ id: 'IncidentMonitor' })
      .nullable()
      .describe(
        'The website’s other monitor (heartbeat, DNS, port, ping …) the incident is of; null: its HTTP check',
      ),
    acknowledgement: z
      .object({ at: z.iso.datetime(), by: actorView, note: z.string().nullable() })
      .nullable()
      .describe('Someone is on it: reminders stop'),
    publicNote: z
      .object({ text: z.string(), at: z.iso.datetime() })
      .nullable()
      .describe('The root cause the status pages show'),
  })
  .meta({ id: 'Incident' });

/** One list shape for a website's incidents and the organization's (named once for generated clients). */
export const incidentList = z.object({ items: z.array(incidentView) }).meta({ id: 'IncidentList' });

export const timelineItem = z
  .object({
    at: z.iso.datetime(),
    kind: z.enum(TIMELINE_KINDS),
    by: actorView,
    region: z.string().nullable(),
    text: z.string().nullable(),
    public: z.boolean().optional(),
    resultId: z.string().nullable().optional(),
    alert: timelineAlertSchema.optional(),
    escalation: timelineEscalationSchema.optional(),
  })
  .meta({ id: 'IncidentTimelineItem' });

export const incidentParams = z.object({
  incidentRef: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    .describe('The incident’s id (a UUID)'),
});

const INTERNAL_KINDS = new Set<TimelineEntry['kind']>(['alert', 'escalation', 'held']);

/** Who a client user (of one customer) is told acted for the agency: no staff names, no internal words. */
const AGENCY: TimelineActor = { type: 'user', id: null, name: 'Your agency' };
const isClient = (auth: AuthContext) => auth.customerId !== undefined;

export function toIncidentView(incident: IncidentDocument, auth: AuthContext): z.input<typeof incidentView> {
  const { publicNote } = incident;
  const acknowledgement =
    incident.acknowledgement && isClient(auth)
      ? { ...incident.acknowledgement, by: AGENCY, note: null }
      : incident.acknowledgement;
  return {
    id: incident.id,
    websiteId: incident.websiteId,
    startedAt: incident.startedAt.toISOString(),
    resolvedAt: incident.resolvedAt?.toISOString() ?? null,
    cause: incident.cause,
    regions: incident.regions,
    monitor: incident.monitor ?? null,
    acknowledgement: acknowledgement ? { ...acknowledgement, at: acknowledgement.at.toISOString() } : null,
    publicNote: publicNote ? { text: publicNote.text, at: publicNote.at.toISOString() } : null,
  };
}

/**
 * What a client user (of one customer) sees of a timeline: no alerts (the agency's channels), of
 * the notes only the root cause published now, and the agency's people as the agency.
 */
export function shownTo(
  auth: AuthContext,
  entries: readonly TimelineEntry[],
  incident: IncidentDocument,
): TimelineEntry[] {
  if (!isClient(auth)) return [...entries];
  const published = incident.publicNote?.text;
  return entries
    .filter(
      (entry) =>
        // The agency's own paging (alerts, escalation, held alerts) is not the client's to read.
        !INTERNAL_KINDS.has(entry.kind) &&
        (entry.kind !== 'note' || (entry.public === true && entry.text === published)),
    )
    .map((entry) =>
      entry.by.type === 'system'
        ? entry
        : { ...entry, by: AGENCY, text: entry.kind === 'note' ? entry.text : null },
    );
}

/** The incident of that id in the organization, or a 404. */
export async function findIncident(states: MonitorStateRepository, organizationId: number, ref: string) {
  const incident = await states.incident(organizationId, ref);
  if (!incident) throw notFound('No such incident in this organization');
  return incident;
}
