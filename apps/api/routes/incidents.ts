import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { evidenceSchema } from '../../../libs/checks/index.js';
import { type AuthContext, decimalInteger, proseText } from '../../../libs/contract/index.js';
import { conflict, DomainError, notFound } from '../../../libs/errors/index.js';
import { AppError, defineRoute, type Route } from '../../../libs/http/index.js';
import type {
  IncidentAcknowledgement,
  IncidentDocument,
  MonitorStateRepository,
  MonitorTransitions,
  ResultRepository,
} from '../../../libs/monitoring/index.js';
import {
  type IncidentTimelines,
  monitorRefSchema,
  TIMELINE_KINDS,
  type TimelineActor,
  type TimelineEntry,
  timelineActorSchema,
  timelineAlertSchema,
} from '../../../libs/monitoring/index.js';
import { type WebsiteDocument, websiteRefParams } from '../../../libs/websites/index.js';

const actorView = timelineActorSchema.meta({ id: 'IncidentActor' });

const incidentView = z
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
const incidentList = z.object({ items: z.array(incidentView) }).meta({ id: 'IncidentList' });

const incidentDetail = incidentView
  .extend({
    website: z
      .object({ id: z.number().int(), name: z.string(), url: z.string() })
      .nullable()
      .describe('Null when the website was deleted since'),
    firstFailures: z
      .array(
        z.object({
          region: z.string(),
          at: z.iso.datetime(),
          resultId: z.string().nullable(),
          evidence: evidenceSchema.nullable().describe('What the region’s first failing check saw'),
        }),
      )
      .describe('Each region down when it opened: its first failing result and what it saw'),
  })
  .meta({ id: 'IncidentDetail' });

const timelineItem = z
  .object({
    at: z.iso.datetime(),
    kind: z.enum(TIMELINE_KINDS),
    by: actorView,
    region: z.string().nullable(),
    text: z.string().nullable(),
    public: z.boolean().optional(),
    resultId: z.string().nullable().optional(),
    alert: timelineAlertSchema.optional(),
  })
  .meta({ id: 'IncidentTimelineItem' });

const incidentParams = z.object({
  incidentRef: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    .describe('The incident’s id (a UUID)'),
});

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
function shownTo(
  auth: AuthContext,
  entries: readonly TimelineEntry[],
  incident: IncidentDocument,
): TimelineEntry[] {
  if (!isClient(auth)) return [...entries];
  const published = incident.publicNote?.text;
  return entries
    .filter(
      (entry) =>
        entry.kind !== 'alert' &&
        (entry.kind !== 'note' || (entry.public === true && entry.text === published)),
    )
    .map((entry) =>
      entry.by.type === 'system'
        ? entry
        : { ...entry, by: AGENCY, text: entry.kind === 'note' ? entry.text : null },
    );
}

/** The caller as an acknowledgement names it: a person or a token. */
type Caller = TimelineActor & { type: 'user' | 'token'; id: number };

export function incidentRoutes(deps: {
  states: MonitorStateRepository;
  results: ResultRepository;
  timelines: IncidentTimelines;
  transitions: MonitorTransitions;
  website: (organizationId: number, ref: string) => Promise<WebsiteDocument>;
  /** The caller as the timeline names it (a person's name, a token's name). */
  actorOf: (auth: AuthContext) => Promise<Caller>;
}): Route[] {
  const incidentOf = async (organizationId: number, ref: string) => {
    const incident = await deps.states.incident(organizationId, ref);
    if (!incident) throw notFound('No such incident in this organization');
    return incident;
  };

  /**
   * The acknowledgement's step on the timeline, then the monitor told: reminders stop for the
   * incident and `incident.acknowledged` goes to the channels. Each once: a retry finds them done.
   */
  const carryOut = async (
    incident: IncidentDocument,
    acknowledgement: IncidentAcknowledgement,
    by: Caller,
  ) => {
    await deps.timelines.append(incident.id, {
      key: 'acknowledged',
      at: acknowledgement.at,
      kind: 'acknowledged',
      by: acknowledgement.by,
      region: null,
      text: acknowledgement.note,
    });
    const website = await deps.website(incident.organizationId, String(incident.websiteId));
    // The state of the monitor the incident is of (the website's HTTP check, or another of its monitors).
    const subject = { ...website, monitor: incident.monitor ?? null };
    const done = await deps.transitions.run(subject, (state) => ({
      result: undefined,
      plan:
        state.openIncidentId !== incident.id || state.acknowledgedIncidentId === incident.id
          ? null
          : {
              trigger: `acknowledge:${incident.id}`,
              at: acknowledgement.at,
              outcome: {
                state: { ...state, acknowledgedIncidentId: incident.id },
                incident: null,
                events: [
                  { type: 'incident.acknowledged', previousStatus: state.health, status: state.health },
                ],
              },
              details: {
                result: null,
                acknowledgement: { at: acknowledgement.at, by, note: acknowledgement.note },
              },
            },
    }));
    if (done.refused)
      throw new AppError('service-unavailable', {
        detail:
          'The acknowledgement is recorded, but the monitor did not take it yet (it was busy): send it again.',
      });
  };

  return [
    defineRoute({
      method: 'get',
      path: '/api/websites/:websiteRef/incidents',
      operationId: 'listWebsiteIncidents',
      summary: 'Incidents (down periods), newest first',
      tags: ['Results'],
      access: 'read',
      params: websiteRefParams,
      query: z.strictObject({ limit: decimalInteger({ min: 1, max: 500 }).default(50) }),
      success: { status: 200, description: 'Incidents', schema: incidentList },
      handle: async ({ auth, params, query }) => {
        const website = await deps.website(auth.organizationId, params.websiteRef);
        const incidents = await deps.states.incidentsOf(auth.organizationId, website.id, query.limit);
        return { items: incidents.map((incident) => toIncidentView(incident, auth)) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/incidents',
      operationId: 'listIncidents',
      summary: 'Incidents of every website of the organization, newest first',
      description: 'An agency-wide view: `open=true` lists what is down now across all customers.',
      tags: ['Results'],
      access: 'read',
      query: z.strictObject({
        open: z.enum(['true', 'false']).optional().describe('true: unresolved only; false: resolved only'),
        limit: decimalInteger({ min: 1, max: 500 }).default(100),
      }),
      success: { status: 200, description: 'Incidents', schema: incidentList },
      handle: async ({ auth, query }) => {
        const incidents = await deps.states.incidentsOfOrganization(auth.organizationId, {
          limit: query.limit,
          ...(query.open === undefined ? {} : { open: query.open === 'true' }),
        });
        return { items: incidents.map((incident) => toIncidentView(incident, auth)) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/incidents/:incidentRef',
      operationId: 'getIncident',
      summary: 'An incident, with what each region’s first failing check saw',
      tags: ['Results'],
      access: 'read',
      params: incidentParams,
      success: { status: 200, description: 'The incident', schema: incidentDetail },
      problems: [404],
      handle: async ({ auth, params }) => {
        const incident = await incidentOf(auth.organizationId, params.incidentRef);
        // A website deleted since leaves its incidents listed: they are shown without it.
        const website = await deps.website(auth.organizationId, String(incident.websiteId)).catch((error) => {
          if (error instanceof DomainError && error.kind === 'not-found') return null;
          throw error;
        });
        const firstFailures = await Promise.all(
          (incident.firstFailures ?? []).map(async (failure) => ({
            region: failure.region,
            at: failure.at.toISOString(),
            resultId: failure.resultId,
            evidence: failure.resultId
              ? await deps.results.evidence(auth.organizationId, incident.websiteId, failure.resultId)
              : null,
          })),
        );
        return {
          ...toIncidentView(incident, auth),
          website: website && { id: website.id, name: website.name, url: website.url },
          firstFailures,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/incidents/:incidentRef/timeline',
      operationId: 'getIncidentTimeline',
      summary: 'What happened, in order',
      description:
        'First failure per region, confirmation, alerts sent (channel and delivery status), acknowledgement, notes, maintenance start and end, recovery per region, resolution; each with its time and who (a person, a token, or `system`). A client user sees neither alerts nor notes that are not public.',
      tags: ['Results'],
      access: 'read',
      params: incidentParams,
      success: {
        status: 200,
        description: 'The steps, oldest first',
        schema: z.object({ items: z.array(timelineItem) }).meta({ id: 'IncidentTimeline' }),
      },
      problems: [404],
      handle: async ({ auth, params }) => {
        const incident = await incidentOf(auth.organizationId, params.incidentRef);
        const entries = await deps.timelines.of(incident.id);
        return {
          items: shownTo(auth, entries, incident).map(({ key: _key, ...entry }) => ({
            ...entry,
            at: entry.at.toISOString(),
          })),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/incidents/:incidentRef/acknowledge',
      operationId: 'acknowledgeIncident',
      summary: 'Say someone is on it: reminders stop, the channels hear it',
      description:
        'Raises `incident.acknowledged` (Slack with a bot token replies in the incident’s thread, Jira comments on its issue, PagerDuty and Opsgenie acknowledge their alert). Sent again by the same caller, it answers the acknowledgement made and finishes what an interrupted one left; 409 when it is resolved or someone else acknowledged it.',
      tags: ['Results'],
      access: 'write',
      params: incidentParams,
      body: z.strictObject({ note: proseText(2000).min(1).optional() }),
      success: { status: 200, description: 'Acknowledged', schema: incidentView },
      problems: [404, 409],
      handle: async ({ auth, params, body }) => {
        const incident = await incidentOf(auth.organizationId, params.incidentRef);
        const caller = await deps.actorOf(auth);
        let acknowledgement: IncidentAcknowledgement = {
          at: new Date(),
          by: caller,
          note: body.note ?? null,
        };
        if (!incident.acknowledgement && incident.resolvedAt)
          throw conflict('The incident is resolved: there is nothing to acknowledge');
        if (!(await deps.states.acknowledge(incident._id, acknowledgement))) {
          const made = (await incidentOf(auth.organizationId, incident.id)).acknowledgement;
          if (!made) throw conflict('The incident was resolved meanwhile: there is nothing to acknowledge');
          if (made.by.type !== caller.type || made.by.id !== caller.id)
            throw conflict(`Already acknowledged by ${made.by.name}`);
          // The same caller again (a retry): what an interrupted acknowledgement left is done now.
          acknowledgement = made;
        }
        await carryOut(incident, acknowledgement, caller);
        return toIncidentView({ ...incident, acknowledgement }, auth);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/incidents/:incidentRef/notes',
      operationId: 'addIncidentNote',
      summary: 'Add a note to the timeline; a public one is the root cause the status pages show',
      tags: ['Results'],
      access: 'write',
      params: incidentParams,
      body: z.strictObject({
        text: proseText(5000).min(1),
        public: z
          .boolean()
          .default(false)
          .describe('Shown on the status pages listing the website (the latest public note)'),
      }),
      success: { status: 201, description: 'The note', schema: timelineItem },
      problems: [404],
      handle: async ({ auth, params, body }) => {
        const incident = await incidentOf(auth.organizationId, params.incidentRef);
        const at = new Date();
        const entry: TimelineEntry = {
          key: `note:${randomUUID()}`,
          at,
          kind: 'note',
          by: await deps.actorOf(auth),
          region: null,
          text: body.text,
          public: body.public,
        };
        await deps.timelines.append(incident.id, entry);
        if (body.public) await deps.states.setPublicNote(incident._id, { text: body.text, at });
        const { key: _key, ...shown } = entry;
        return { ...shown, at: at.toISOString() };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/incidents/:incidentRef/public-note',
      operationId: 'withdrawIncidentPublicNote',
      summary: 'Take the root cause off the status pages (the note stays on the timeline)',
      tags: ['Results'],
      access: 'write',
      params: incidentParams,
      success: { status: 204, description: 'Withdrawn' },
      problems: [404],
      handle: async ({ auth, params }) => {
        const incident = await incidentOf(auth.organizationId, params.incidentRef);
        if (!incident.publicNote) return;
        const at = new Date();
        await deps.states.setPublicNote(incident._id, null);
        await deps.timelines.append(incident.id, {
          key: `note:${randomUUID()}`,
          at,
          kind: 'note',
          by: await deps.actorOf(auth),
          region: null,
          text: 'The public root cause was withdrawn from the status pages',
          public: false,
        });
      },
    }),
  ];
}
