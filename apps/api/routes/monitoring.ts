// A website's current status (and every monitoring route of a website, in order: status, results, uptime).
import { z } from 'zod';
import { type CustomerWithPackage, isMonitored } from '../../../libs/customers/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type { MonitorStateRepository } from '../../../libs/monitoring/index.js';
import {
  freshWithinMsOf,
  type Health,
  inMaintenanceAt,
  isFresh,
  type MonitorStateDocument,
  OTHER_MONITOR_KINDS,
  type OtherMonitorKind,
  reportedStatus,
  WEBSITE_STATUSES,
  type WebsiteStatus,
} from '../../../libs/monitoring/index.js';
import { type Unmonitored, type WebsiteDocument, websiteRefParams } from '../../../libs/websites/index.js';
import { websiteUptimeRoutes } from './uptime.js';
import { type WebsiteResultDeps, websiteResultRoutes } from './website-results.js';

/** When the reported status began: kept with it since it was kept; before that, the best the state knows. */
function sinceOf(
  status: WebsiteStatus,
  state: MonitorStateDocument,
  unmonitored: Unmonitored | null,
  cancelledAt: Date | null,
): Date | null {
  if (state.reported?.status === status) return state.reported.since;
  if (status === 'unmonitored') return unmonitored?.since ?? null;
  // The customer's status is written before the monitor state follows it: its date says when.
  if (status === 'cancelled') return cancelledAt;
  return status === state.health ? state.since : null;
}

export function monitoringRoutes(
  deps: WebsiteResultDeps & {
    states: MonitorStateRepository;
    /** The website's customer and package (null: gone meanwhile). */
    owner: (website: WebsiteDocument) => Promise<CustomerWithPackage | null>;
    recheckDelayMs: number;
    /** The website's heartbeats, DNS and port checks with their confirmed health. */
    monitors(
      websiteId: number,
    ): Promise<Array<{ kind: OtherMonitorKind; id: number; name: string; health: Health }>>;
  },
): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/websites/:websiteRef/status',
      operationId: 'getWebsiteStatus',
      summary: 'Current status of a website',
      description:
        'status: cancelled (its customer is), paused, unmonitored (no region it may be checked from has an active monitoring node; `unmonitored` says why), maintenance, or the confirmed health (unknown until the first result, up, degraded, down). `since`: when that status began. Per region: its latest result, and whether it is fresh (its latest result within two intervals plus the re-check delay, and the region still serving); only fresh regions decide the status.',
      tags: ['Results'],
      access: 'read',
      params: websiteRefParams,
      success: {
        status: 200,
        description: 'The status',
        schema: z
          .object({
            websiteId: z.number().int(),
            status: z.enum(WEBSITE_STATUSES),
            since: z.iso.datetime().nullable(),
            lastCheckedAt: z.iso.datetime().nullable(),
            unmonitored: z.object({ since: z.iso.datetime(), reason: z.string() }).nullable(),
            regions: z.record(
              z.string(),
              z.object({
                status: z.enum(['up', 'degraded', 'down']),
                lastCheckedAt: z.iso.datetime().nullable(),
                fresh: z.boolean(),
                consecutiveDown: z.number().int(),
                consecutiveUp: z.number().int(),
              }),
            ),
            openIncidentId: z.string().nullable(),
            monitors: z
              .array(
                z.object({
                  kind: z.enum(OTHER_MONITOR_KINDS),
                  id: z.number().int(),
                  name: z.string(),
                  status: z.enum(WEBSITE_STATUSES),
                }),
              )
              .describe(
                "Its heartbeats, DNS and port checks: each one's health while the website is checked, else the website's status",
              ),
          })
          .meta({ id: 'WebsiteStatus' }),
      },
      handle: async ({ auth, params }) => {
        const website = await deps.website(auth.organizationId, params.websiteRef);
        const [state, owner, monitors] = await Promise.all([
          deps.states.load(auth.organizationId, website.id),
          deps.owner(website),
          deps.monitors(website.id),
        ]);
        const now = new Date();
        const unmonitored = website.unmonitored ?? null;
        const status = reportedStatus(state.health, {
          paused: website.paused,
          cancelled: owner !== null && !isMonitored(owner.customer.status),
          unmonitored: unmonitored !== null,
          inMaintenance: inMaintenanceAt(state, now),
        });
        const freshWithinMs = owner ? freshWithinMsOf(website, owner.pkg, deps.recheckDelayMs) : 0;
        return {
          websiteId: website.id,
          status,
          since:
            sinceOf(status, state, unmonitored, owner?.customer.cancellationDate ?? null)?.toISOString() ??
            null,
          lastCheckedAt: state.lastResultAt?.toISOString() ?? null,
          unmonitored: unmonitored && { since: unmonitored.since.toISOString(), reason: unmonitored.reason },
          regions: Object.fromEntries(
            Object.entries(state.regions).map(([region, track]) => [
              region,
              {
                status: track.lastStatus,
                lastCheckedAt:
                  track.lastResultAt === undefined ? null : new Date(track.lastResultAt).toISOString(),
                fresh:
                  website.scheduledRegions.includes(region) && isFresh(track, now.getTime(), freshWithinMs),
                consecutiveDown: track.consecutiveDown,
                consecutiveUp: track.consecutiveUp,
              },
            ]),
          ),
          openIncidentId: state.openIncidentId,
          monitors: monitors.map((monitor) => ({
            ...monitor,
            status: ['up', 'degraded', 'down', 'unknown'].includes(status) ? monitor.health : status,
          })),
        };
      },
    }),
    ...websiteResultRoutes(deps),
    ...websiteUptimeRoutes(deps),
  ];
}
