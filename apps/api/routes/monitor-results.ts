// What monitors found: heartbeat pings, a monitor's results, uptime and test run, DNS and port results.
import { z } from 'zod';
import { OTHER_MONITOR_KINDS } from '../../../libs/events/index.js';
import { defineRoute, OtherAnswer, type Route } from '../../../libs/http/index.js';
import { journeyRunEvidence } from '../../../libs/journeys/index.js';
import type {
  MonitorKind,
  MonitorLogEntry,
  MonitorRepository,
  MonitorService,
} from '../../../libs/monitors/index.js';
import { isSiteRunKind, pingView } from '../../../libs/monitors/index.js';
import { siteRunViewSchema } from '../../../libs/site-health/index.js';
import { BASE, NOUN, OPERATION, TAG } from './built-in-checks.js';
import { idParams } from './monitor-views.js';
import { uptimeQuery, uptimeView } from './uptime.js';

/** What a check saw: a browser journey's run in its own shape (the app draws it), another kind's as a record. */
const probeEvidence = z.union([journeyRunEvidence, z.record(z.string(), z.unknown())]);

const monitorResultView = z
  .object({
    kind: z.enum(
      OTHER_MONITOR_KINDS.filter((kind) => kind !== 'heartbeat') as [Exclude<MonitorKind, 'heartbeat'>],
    ),
    monitorId: z.number().int(),
    region: z.string(),
    at: z.iso.datetime(),
    status: z.enum(['up', 'degraded', 'down']),
    cause: z.string().nullable(),
    durationMs: z.number(),
    values: z.array(z.string()).optional().describe('DNS: the answer'),
    address: z.string().nullable().optional().describe('Port: the address connected to'),
    connectMs: z.number().nullable().optional(),
    tlsMs: z.number().nullable().optional(),
    banner: z.string().nullable().optional(),
    certificate: z
      .object({
        validTo: z.iso.datetime(),
        daysLeft: z.number().int(),
        issuer: z.string(),
        subject: z.string(),
        valid: z.boolean(),
      })
      .nullable()
      .optional(),
    timings: z
      .record(z.string(), z.number().nullable())
      .optional()
      .describe(
        'A probe kind’s step timings in ms (dnsMs, connectMs, tlsMs, greetingMs, replyMs, …, totalMs)',
      ),
    evidence: probeEvidence
      .optional()
      .describe(
        'What a probe kind’s check saw (its reply, greeting, status, certificate; a browser journey’s run as JourneyRunEvidence), bounded, no secret',
      ),
  })
  .meta({ id: 'MonitorResult' });

function logResultView(entry: MonitorLogEntry): z.input<typeof monitorResultView> | null {
  const { result } = entry;
  if (!result || entry.kind === 'heartbeat') return null;
  return {
    kind: entry.kind,
    monitorId: entry.monitorId,
    region: result.region,
    at: entry.at.toISOString(),
    status: result.status,
    cause: result.cause,
    durationMs: result.durationMs,
    ...(result.values ? { values: result.values } : {}),
    ...(result.timings ? { timings: result.timings, address: result.address ?? null } : {}),
    ...(result.evidence ? { evidence: result.evidence } : {}),
    ...(entry.kind === 'port'
      ? {
          address: result.address ?? null,
          connectMs: result.connectMs ?? null,
          tlsMs: result.tlsMs ?? null,
          banner: result.banner ?? null,
          certificate: result.certificate
            ? { ...result.certificate, validTo: result.certificate.validTo.toISOString() }
            : null,
        }
      : {}),
  };
}

interface MonitorResultDeps {
  service: MonitorService;
  repository: MonitorRepository;
}

/** A heartbeat's latest pings, with what the job sent. */
export function heartbeatPingRoutes({ service, repository }: MonitorResultDeps): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/heartbeats/:id/pings',
      operationId: 'listHeartbeatPings',
      summary: "A heartbeat's latest pings, newest first, with what the job sent",
      tags: ['Heartbeats'],
      access: 'read',
      params: idParams,
      query: z.strictObject({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
      success: { status: 200, description: 'Newest first', schema: z.object({ items: z.array(pingView) }) },
      handle: async ({ auth, params, query }) => {
        const heartbeat = await service.get(auth.organizationId, 'heartbeat', params.id);
        const entries = await repository.readLog(heartbeat, query.limit);
        return {
          items: entries.flatMap((entry) =>
            entry.ping ? [{ ...entry.ping, at: entry.at.toISOString() }] : [],
          ),
        };
      },
    }),
  ];
}

/** A monitor's uptime, a test run of it, and the latest results of a monitor, a DNS or a port check. */
export function monitorResultRoutes({ service, repository }: MonitorResultDeps): Route[] {
  const routes: Route[] = [
    defineRoute({
      method: 'get',
      path: '/api/monitors/:id/uptime',
      operationId: 'getMonitorUptime',
      summary: 'A monitor’s uptime, downtime and response times over a period',
      description:
        'As a website’s: the share of the period (from the monitor’s creation, when later) not inside one of its down incidents; null before its first result. `checks` and the response times count its newest 1,000 results of the period at most (a heartbeat: its pings, without response times).',
      tags: ['Monitors'],
      access: 'read',
      params: idParams,
      query: uptimeQuery,
      success: { status: 200, description: 'Figures', schema: uptimeView },
      handle: async ({ auth, params, query }) => ({
        period: query.period,
        ...(await service.uptime(auth.organizationId, params.id, query.period)),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/monitors/:id/run',
      operationId: 'runMonitor',
      summary:
        'Run a check now and answer what it found (a test: not stored, no status moved); a crawl or Lighthouse check: start a run (202)',
      description:
        'From the API’s host, through the same address guard and under the check’s own timeout: what the check answers with its settings as stored (DNS, port and every probe kind; a heartbeat waits for pings: 409). The result is not one of a region’s: it is not stored and moves no status; the regions check on schedule. A few run at once per API process; past that 503 with Retry-After. **A crawl or a Lighthouse check** takes minutes: its run is queued for its region’s workers and counted like a scheduled one (stored, findings compared, events told) — 202 with the run (`Location`: GET /api/monitors/{id}/runs/{runId}, its progress); asking again while it waits or runs answers the same run; past the package’s runs of the day (maxCrawlsPerDay, maxLighthouseRunsPerDay) 429.',
      tags: ['Monitors'],
      access: 'write',
      params: idParams,
      problems: [409, 429, 503],
      otherResponses: {
        202: {
          description: 'A crawl’s or Lighthouse check’s run, queued (or the one already queued or running)',
          body: { schema: siteRunViewSchema, contentType: 'application/json' },
          headers: ['Location'],
        },
      },
      success: {
        status: 200,
        description: 'What the check found',
        schema: z
          .object({
            kind: z.string(),
            monitorId: z.number().int(),
            startedAt: z.iso.datetime(),
            status: z.enum(['up', 'degraded', 'down']),
            cause: z.string().nullable(),
            durationMs: z.number(),
            address: z.string().nullable(),
            timings: z.record(z.string(), z.number().nullable()),
            evidence: probeEvidence.describe('What it saw (a browser journey’s run as JourneyRunEvidence)'),
          })
          .meta({ id: 'MonitorRun' }),
      },
      handle: async ({ auth, params, ctx }) => {
        const monitor = await service.getAny(auth.organizationId, params.id);
        if (isSiteRunKind(monitor.kind)) {
          const run = await service.startSiteRun(auth.organizationId, monitor.id);
          ctx.set('Location', `/api/monitors/${monitor.id}/runs/${run.runId}`);
          return new OtherAnswer(202, run);
        }
        const outcome = await service.runNow(auth.organizationId, params.id);
        return { ...outcome, startedAt: outcome.startedAt.toISOString() };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/monitors/:id/results',
      operationId: 'listMonitorResults',
      summary: "A monitor's latest results from every region, newest first, with timings and evidence",
      tags: ['Monitors'],
      access: 'read',
      params: idParams,
      query: z.strictObject({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
      success: {
        status: 200,
        description: 'Newest first',
        schema: z.object({ items: z.array(monitorResultView) }),
      },
      handle: async ({ auth, params, query }) => {
        const monitor = await service.getAny(auth.organizationId, params.id);
        const entries = await repository.readLog(monitor, query.limit);
        return { items: entries.flatMap((entry) => logResultView(entry) ?? []) };
      },
    }),
  ];
  for (const kind of ['dns', 'port'] as const)
    routes.push(
      defineRoute({
        method: 'get',
        path: `${BASE[kind]}/:id/results`,
        operationId: `list${OPERATION[kind]}Results`,
        summary: `A ${NOUN[kind]}'s latest results from every region, newest first`,
        tags: [TAG[kind]],
        access: 'read',
        params: idParams,
        query: z.strictObject({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
        success: {
          status: 200,
          description: 'Newest first',
          schema: z.object({ items: z.array(monitorResultView) }),
        },
        handle: async ({ auth, params, query }) => {
          const check = await service.get(auth.organizationId, kind, params.id);
          const entries = await repository.readLog(check, query.limit);
          return { items: entries.flatMap((entry) => logResultView(entry) ?? []) };
        },
      }),
    );
  return routes;
}
