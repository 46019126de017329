// What people do about an incident: acknowledge it (the channels hear it), add notes, withdraw a public one.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type AuthContext, proseText } from '../../../libs/contract/index.js';
import { conflict } from '../../../libs/errors/index.js';
import { AppError, defineRoute, type Route } from '../../../libs/http/index.js';
import type {
  IncidentAcknowledgement,
  IncidentDocument,
  IncidentTimelines,
  MonitorStateRepository,
  MonitorTransitions,
  TimelineActor,
  TimelineEntry,
} from '../../../libs/monitoring/index.js';
import type { WebsiteDocument } from '../../../libs/websites/index.js';
import {
  findIncident,
  incidentParams,
  incidentView,
  timelineItem,
  toIncidentView,
} from './incident-views.js';

/** The caller as an acknowledgement names it: a person or a token. */
/** An incident as its repository finds it (with the key acknowledging writes by). */
export type StoredIncident = NonNullable<Awaited<ReturnType<MonitorStateRepository['incident']>>>;

export type Caller = TimelineActor & { type: 'user' | 'token'; id: number };

export interface IncidentActionDeps {
  states: MonitorStateRepository;
  timelines: IncidentTimelines;
  transitions: MonitorTransitions;
  website: (organizationId: number, ref: string) => Promise<WebsiteDocument>;
  /** The caller as the timeline names it (a person's name, a token's name). */
  actorOf: (auth: AuthContext) => Promise<Caller>;
}

/**
 * Acknowledges the incident as `caller`: recorded once (the same caller again finishes what an
 * interrupted acknowledgement left), then carried out — the timeline's step, the monitor told
 * (reminders stop; `incident.acknowledged` goes to the channels and stops its escalation).
 */
export function incidentAcknowledger(deps: IncidentActionDeps) {
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

  return async (
    organizationId: number,
    incident: StoredIncident,
    caller: Caller,
    note: string | null,
  ): Promise<IncidentAcknowledgement> => {
    let acknowledgement: IncidentAcknowledgement = { at: new Date(), by: caller, note };
    if (!incident.acknowledgement && incident.resolvedAt)
      throw conflict('The incident is resolved: there is nothing to acknowledge');
    if (!(await deps.states.acknowledge(incident._id, acknowledgement))) {
      const made = (await findIncident(deps.states, organizationId, incident.id)).acknowledgement;
      if (!made) throw conflict('The incident was resolved meanwhile: there is nothing to acknowledge');
      if (made.by.type !== caller.type || made.by.id !== caller.id)
        throw conflict(`Already acknowledged by ${made.by.name}`);
      acknowledgement = made;
    }
    await carryOut(incident, acknowledgement, caller);
    return acknowledgement;
  };
}

/** Acknowledging an incident, adding a note to its timeline, withdrawing its public note. */
export function incidentActionRoutes(deps: IncidentActionDeps): Route[] {
  const incidentOf = (organizationId: number, ref: string) => findIncident(deps.states, organizationId, ref);
  const acknowledge = incidentAcknowledger(deps);

  return [
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
        const acknowledgement = await acknowledge(
          auth.organizationId,
          incident,
          await deps.actorOf(auth),
          body.note ?? null,
        );
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
