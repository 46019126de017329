// Incidents as read (a website's list, the organization's, one, its timeline); all incident routes, in order.
import { z } from 'zod';
import { evidenceSchema } from '../../../libs/checks/index.js';
import { decimalInteger } from '../../../libs/contract/index.js';
import { DomainError } from '../../../libs/errors/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import { type ResultRepository, runScreenshotPath } from '../../../libs/monitoring/index.js';
import { websiteRefParams } from '../../../libs/websites/index.js';
import { type IncidentActionDeps, incidentActionRoutes } from './incident-actions.js';
import {
  findIncident,
  incidentList,
  incidentParams,
  incidentView,
  shownTo,
  timelineItem,
  toIncidentView,
} from './incident-views.js';

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
    screenshotUrl: z
      .string()
      .nullable()
      .describe(
        'A browser journey’s: the page when the run that opened it failed, a path of this API (GET …/results/{runId}/screenshot); null: none',
      ),
  })
  .meta({ id: 'IncidentDetail' });

export function incidentRoutes(
  deps: IncidentActionDeps & {
    results: ResultRepository;
  },
): Route[] {
  const incidentOf = (organizationId: number, ref: string) => findIncident(deps.states, organizationId, ref);

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
          screenshotUrl:
            website && incident.screenshot ? runScreenshotPath(website.publicId, incident.screenshot) : null,
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
    ...incidentActionRoutes(deps),
  ];
}
