// Uptime over a period: the query and figures both uptime routes share, and a website's uptime route.
import { z } from 'zod';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type { MonitorStateRepository, ResultRepository } from '../../../libs/monitoring/index.js';
import { UPTIME_PERIODS, type UptimePeriod, uptimeFigures } from '../../../libs/monitoring/index.js';
import { type WebsiteDocument, websiteRefParams } from '../../../libs/websites/index.js';

/** A period's uptime figures, as a website's and a monitor's uptime routes answer them. */
export const uptimeQuery = z.strictObject({
  period: z.enum(Object.keys(UPTIME_PERIODS) as [UptimePeriod, ...UptimePeriod[]]).default('24h'),
});
export const uptimeView = z
  .object({
    period: z.string(),
    uptimePercent: z.number().nullable(),
    checks: z.number().int(),
    downtimeSeconds: z.number().int(),
    responseTimeMs: z.object({
      p50: z.number().nullable(),
      p95: z.number().nullable(),
      p99: z.number().nullable(),
    }),
  })
  .meta({ id: 'Uptime' });

/** A website's uptime from its HTTP results and incidents (a monitor's is among the monitor routes). */
export function websiteUptimeRoutes(deps: {
  website: (organizationId: number, ref: string) => Promise<WebsiteDocument>;
  results: ResultRepository;
  states: MonitorStateRepository;
}): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/websites/:websiteRef/uptime',
      operationId: 'getWebsiteUptime',
      summary: 'Uptime, downtime and response time percentiles over a period',
      tags: ['Results'],
      access: 'read',
      params: websiteRefParams,
      query: uptimeQuery,
      success: {
        status: 200,
        description: 'Figures; uptimePercent is null before the first result',
        schema: uptimeView,
      },
      handle: async ({ auth, params, query }) => {
        const website = await deps.website(auth.organizationId, params.websiteRef);
        const now = new Date();
        const from = new Date(now.getTime() - UPTIME_PERIODS[query.period] * 1000);
        const results = await deps.results.since(auth.organizationId, website.id, from);
        // Those open now or resolved within the period: read newest first, as far back as the period.
        const incidents = await deps.states.incidentsOfWebsites(auth.organizationId, [website.id], from);
        return {
          period: query.period,
          ...uptimeFigures({
            now,
            periodSeconds: UPTIME_PERIODS[query.period],
            firstResultAt: results[0]?.startedAt ?? null,
            incidents: incidents.filter((i) => (i.resolvedAt ?? now) > from),
            responseTimesMs: results.filter((r) => r.status !== 'down').map((r) => r.timings.total),
            checks: results.length,
          }),
        };
      },
    }),
  ];
}
