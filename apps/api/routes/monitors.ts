import { z } from 'zod';
import {
  type AuthContext,
  decimalId,
  hasScope,
  invalidFields,
  validate,
} from '../../../libs/contract/index.js';
import { OTHER_MONITOR_KINDS } from '../../../libs/events/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type {
  MonitorDocument,
  MonitorKind,
  MonitorLogEntry,
  MonitorRepository,
  MonitorService,
} from '../../../libs/monitors/index.js';
import {
  createDnsCheckBody,
  createHeartbeatBody,
  createMonitorBody,
  createPortCheckBody,
  dnsCheckView,
  expectedAfter,
  heartbeatAt,
  heartbeatPreviewBody,
  heartbeatPreviewView,
  heartbeatView,
  PROBE_KINDS,
  pingView,
  portCheckView,
  probeCheckViews,
  shownSettings,
  updateDnsCheckBody,
  updateHeartbeatBody,
  updatePortCheckBody,
  updateProbeCheckBody,
} from '../../../libs/monitors/index.js';
import { type WebsiteDocument, websiteRefParams } from '../../../libs/websites/index.js';
import { uptimeQuery, uptimeView } from './monitoring.js';

const iso = (at: Date | null) => at?.toISOString() ?? null;
const BUILT_IN_UPDATES = {
  heartbeat: updateHeartbeatBody,
  dns: updateDnsCheckBody,
  port: updatePortCheckBody,
} as const;
const idParams = z.object({ id: decimalId() });

const monitorView = z
  .discriminatedUnion('kind', [heartbeatView, dnsCheckView, portCheckView, ...Object.values(probeCheckViews)])
  .meta({ id: 'Monitor' });

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
    evidence: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'What a probe kind’s check saw (its reply, greeting, status, certificate), bounded, no secret',
      ),
  })
  .meta({ id: 'MonitorResult' });

type BuiltInKind = 'heartbeat' | 'dns' | 'port';
const BASE: Record<BuiltInKind, string> = {
  heartbeat: '/api/heartbeats',
  dns: '/api/dns-checks',
  port: '/api/port-checks',
};
const TAG: Record<BuiltInKind, string> = { heartbeat: 'Heartbeats', dns: 'DNS checks', port: 'Port checks' };
const NOUN: Record<BuiltInKind, string> = { heartbeat: 'heartbeat', dns: 'DNS check', port: 'port check' };
const OPERATION: Record<BuiltInKind, string> = { heartbeat: 'Heartbeat', dns: 'DnsCheck', port: 'PortCheck' };

/** Editors (write scope, not a client) see a heartbeat's ping URL; others see null. */
const seesPingUrl = (auth: AuthContext) => hasScope(auth.scopes, 'write') && auth.customerId === undefined;

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

export function monitorRoutes(deps: { service: MonitorService; repository: MonitorRepository }): Route[] {
  const { service, repository } = deps;

  /** Views of monitors of one website (read already, or read here), with where each stands. */
  const viewsOf = async (auth: AuthContext, monitors: MonitorDocument[], known?: WebsiteDocument) => {
    const [first] = monitors;
    if (!first) return [];
    const website = known ?? (await service.websiteOf(auth.organizationId, first.websiteId));
    const standings = await service.standings(website, monitors);
    const now = new Date();
    return monitors.map((monitor) => {
      const standing = standings.get(monitor.id);
      const common = {
        id: monitor.id,
        websiteId: monitor.websiteId,
        name: monitor.name,
        status: standing?.status ?? 'unknown',
        since: iso(standing?.since ?? null),
        lastCause: standing?.state.lastCause ?? null,
        openIncidentId: standing?.state.openIncidentId ?? null,
        createdAt: monitor.createdAt.toISOString(),
        updatedAt: monitor.updatedAt.toISOString(),
      };
      if (monitor.kind === 'heartbeat')
        return {
          ...common,
          kind: 'heartbeat' as const,
          schedule: monitor.schedule,
          graceSeconds: monitor.graceSeconds,
          maxRunSeconds: monitor.maxRunSeconds,
          pingUrl: seesPingUrl(auth) ? service.pingUrlOf(monitor) : null,
          lastSuccessAt: iso(monitor.lastSuccessAt),
          lastStartAt: iso(monitor.lastStartAt),
          lastFailureAt: iso(monitor.lastFailureAt),
          nextExpectedAt: expectedAfter(
            monitor.schedule,
            monitor.lastSuccessAt && monitor.lastSuccessAt > now ? monitor.lastSuccessAt : now,
            5,
          ).map((at) => at.toISOString()),
          deadlineAt: heartbeatAt(monitor, now).deadline.toISOString(),
        };
      if (monitor.kind === 'dns')
        return {
          ...common,
          kind: 'dns' as const,
          recordType: monitor.recordType,
          host: monitor.host,
          expected: monitor.expected,
          learned: monitor.learned && {
            values: monitor.learned.values,
            at: monitor.learned.at.toISOString(),
          },
          pendingChange: monitor.pendingChange && {
            ...monitor.pendingChange,
            since: monitor.pendingChange.since.toISOString(),
          },
          intervalSeconds: monitor.intervalSeconds,
          timeoutSeconds: monitor.timeoutSeconds,
          relearnAfterSeconds: monitor.relearnAfterSeconds,
        };
      if (monitor.kind !== 'port')
        return {
          ...common,
          ...shownSettings(monitor.settings, monitor.sealed ?? []),
          kind: monitor.kind,
          intervalSeconds: monitor.intervalSeconds,
          timeoutSeconds: monitor.timeoutSeconds,
        };
      return {
        ...common,
        kind: 'port' as const,
        host: monitor.host,
        port: monitor.port,
        tls: monitor.tls,
        expectBanner: monitor.expectBanner,
        intervalSeconds: monitor.intervalSeconds,
        timeoutSeconds: monitor.timeoutSeconds,
      };
    });
  };
  const viewOf = async (auth: AuthContext, monitor: MonitorDocument) => (await viewsOf(auth, [monitor]))[0];

  const routes: Route[] = [
    defineRoute({
      method: 'get',
      path: '/api/websites/:websiteRef/monitors',
      operationId: 'listWebsiteMonitors',
      summary: "A website's heartbeats, DNS and port checks, with their status",
      description: 'A heartbeat’s pingUrl is shown to editors only (null otherwise).',
      tags: ['Monitors'],
      access: 'read',
      params: websiteRefParams,
      success: { status: 200, description: 'By id', schema: z.object({ items: z.array(monitorView) }) },
      handle: async ({ auth, params }) => {
        const { website, monitors } = await service.list(auth.organizationId, params.websiteRef);
        return { items: await viewsOf(auth, monitors, website) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/websites/:websiteRef/heartbeats',
      operationId: 'createHeartbeat',
      summary: 'Watch a job that pings: a cron job, a backup, a scheduler',
      description:
        'Down when no success ping arrives within the period (or by the cron expression’s next slot) plus the grace, counted from the last success (from creation before the first). The answer’s pingUrl is the job’s credential. Package feature `heartbeats`, limit `maxHeartbeatsPerWebsite`.',
      tags: ['Heartbeats'],
      access: 'write',
      params: websiteRefParams,
      body: createHeartbeatBody,
      problems: [403, 409],
      success: { status: 201, description: 'Created', schema: heartbeatView },
      handle: async ({ auth, params, body }) => {
        const { heartbeat } = await service.createHeartbeat(auth.organizationId, params.websiteRef, body);
        return (await viewOf(auth, heartbeat)) as z.input<typeof heartbeatView>;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/heartbeats/preview',
      operationId: 'previewHeartbeat',
      summary: 'The next five times a schedule expects a ping (nothing stored)',
      tags: ['Heartbeats'],
      access: 'read',
      body: heartbeatPreviewBody,
      success: { status: 200, description: 'The next expected pings', schema: heartbeatPreviewView },
      handle: async ({ body }) => ({
        nextExpectedAt: expectedAfter(body.schedule, new Date(), 5).map((at) => at.toISOString()),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/websites/:websiteRef/dns-checks',
      operationId: 'createDnsCheck',
      summary: 'Check a DNS record from each region',
      description:
        "`expected`: the values the answer must be (any order), or 'unchanged': the first answer is learned and a different one raises dns.changed with both sets (learned once accepted, or relearnAfterSeconds after the change). NXDOMAIN, SERVFAIL and timeouts are failures with their names. Package feature `dnsChecks`, limit `maxDnsChecksPerWebsite`.",
      tags: ['DNS checks'],
      access: 'write',
      params: websiteRefParams,
      body: createDnsCheckBody,
      problems: [403, 409],
      success: { status: 201, description: 'Created', schema: dnsCheckView },
      handle: async ({ auth, params, body }) =>
        (await viewOf(
          auth,
          await service.createDnsCheck(auth.organizationId, params.websiteRef, body),
        )) as z.input<typeof dnsCheckView>,
    }),
    defineRoute({
      method: 'post',
      path: '/api/dns-checks/:id/accept-change',
      operationId: 'acceptDnsChange',
      summary: "Accept a DNS check's changed answer: it is the one held to from now",
      tags: ['DNS checks'],
      access: 'write',
      params: idParams,
      problems: [409],
      success: { status: 200, description: 'Learned', schema: dnsCheckView },
      handle: async ({ auth, params }) =>
        (await viewOf(auth, await service.acceptDnsChange(auth.organizationId, params.id))) as z.input<
          typeof dnsCheckView
        >,
    }),
    defineRoute({
      method: 'post',
      path: '/api/websites/:websiteRef/port-checks',
      operationId: 'createPortCheck',
      summary: 'Check that a TCP port answers (SMTP, IMAP, a database, any TLS service)',
      description:
        'A TCP connect through the same address guard as HTTP checks (a private or reserved IP address is refused unless the operator allows it), then a TLS handshake with the certificate checked when `tls`, then the first line read and matched when `expectBanner`. Connect and handshake times recorded. Package feature `portChecks`, limit `maxPortChecksPerWebsite`.',
      tags: ['Port checks'],
      access: 'write',
      params: websiteRefParams,
      body: createPortCheckBody,
      problems: [403, 409],
      success: { status: 201, description: 'Created', schema: portCheckView },
      handle: async ({ auth, params, body }) =>
        (await viewOf(
          auth,
          await service.createPortCheck(auth.organizationId, params.websiteRef, body),
        )) as z.input<typeof portCheckView>,
    }),
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
  routes.push(
    defineRoute({
      method: 'post',
      path: '/api/websites/:websiteRef/monitors',
      operationId: 'createMonitor',
      summary:
        'Add a monitor of any kind: heartbeat, dns, port, icmp, udp, grpc, websocket, smtp, imap, pop3',
      description: `Each kind its own fields (a field it does not know is a 400 naming it), as its own route takes them for heartbeat (…/heartbeats), dns (…/dns-checks) and port (…/port-checks); the host defaults to the website's, an IP literal is judged by the SSRF guard here and every address again at each check. ${Object.values(
        PROBE_KINDS,
      )
        .map((kind) => `**${kind.kind}**: ${kind.description}`)
        .join(' ')}`,
      tags: ['Monitors'],
      access: 'write',
      params: websiteRefParams,
      body: createMonitorBody,
      problems: [403, 409],
      success: { status: 201, description: 'Created', schema: monitorView },
      handle: async ({ auth, params, body }) =>
        (await viewOf(auth, await service.create(auth.organizationId, params.websiteRef, body))) as z.input<
          typeof monitorView
        >,
    }),
    defineRoute({
      method: 'get',
      path: '/api/monitors/:id',
      operationId: 'getMonitor',
      summary: 'A monitor of any kind, with where it stands',
      tags: ['Monitors'],
      access: 'read',
      params: idParams,
      success: { status: 200, description: 'The monitor', schema: monitorView },
      handle: async ({ auth, params }) =>
        (await viewOf(auth, await service.getAny(auth.organizationId, params.id))) as z.input<
          typeof monitorView
        >,
    }),
    defineRoute({
      method: 'patch',
      path: '/api/monitors/:id',
      operationId: 'updateMonitor',
      summary: 'Change a monitor of a probe kind: its name, interval, timeout or its kind’s fields',
      description:
        'A heartbeat, DNS or port check takes the fields of its own route (`PATCH /api/heartbeats/{id}`, …), validated as there; a probe kind the fields of its kind. Unknown fields are refused.',
      tags: ['Monitors'],
      access: 'write',
      params: idParams,
      body: updateProbeCheckBody,
      problems: [403],
      success: { status: 200, description: 'Changed', schema: monitorView },
      handle: async ({ auth, params, body }) => {
        const current = await service.getAny(auth.organizationId, params.id);
        // The built-in kinds' changes are validated by their own update schemas (this route's
        // schema leaves the kind's fields to the kind).
        const builtIn = current.kind === 'heartbeat' || current.kind === 'dns' || current.kind === 'port';
        const change = builtIn
          ? validate(BUILT_IN_UPDATES[current.kind], body)
          : { success: true as const, data: body };
        if (!change.success) throw invalidFields('body', change.errors);
        return (await viewOf(
          auth,
          await service.update(auth.organizationId, current.kind, params.id, change.data as never),
        )) as z.input<typeof monitorView>;
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/monitors/:id',
      operationId: 'deleteMonitor',
      summary: 'Delete a monitor of any kind (an incident it left open is resolved)',
      tags: ['Monitors'],
      access: 'write',
      params: idParams,
      success: { status: 204, description: 'Deleted' },
      handle: async ({ auth, params }) => {
        const current = await service.getAny(auth.organizationId, params.id);
        await service.remove(auth.organizationId, current.kind, params.id);
      },
    }),
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
      summary: 'Run a check now and answer what it found (a test: not stored, no status moved)',
      description:
        'From the API’s host, through the same address guard and under the check’s own timeout: what the check answers with its settings as stored (DNS, port and every probe kind; a heartbeat waits for pings: 409). The result is not one of a region’s: it is not stored and moves no status; the regions check on schedule. A few run at once per API process; past that 503 with Retry-After.',
      tags: ['Monitors'],
      access: 'write',
      params: idParams,
      problems: [409, 503],
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
            evidence: z.record(z.string(), z.unknown()),
          })
          .meta({ id: 'MonitorRun' }),
      },
      handle: async ({ auth, params }) => {
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
  );
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
  const views = { heartbeat: heartbeatView, dns: dnsCheckView, port: portCheckView } as const;
  const updates = BUILT_IN_UPDATES;
  for (const kind of ['heartbeat', 'dns', 'port'] as const)
    routes.push(
      defineRoute({
        method: 'get',
        path: `${BASE[kind]}/:id`,
        operationId: `get${OPERATION[kind]}`,
        summary: `A ${NOUN[kind]}`,
        tags: [TAG[kind]],
        access: 'read',
        params: idParams,
        success: { status: 200, description: `The ${NOUN[kind]}`, schema: views[kind] },
        handle: async ({ auth, params }) =>
          (await viewOf(auth, await service.get(auth.organizationId, kind, params.id))) as never,
      }),
      defineRoute({
        method: 'patch',
        path: `${BASE[kind]}/:id`,
        operationId: `update${OPERATION[kind]}`,
        summary: `Change a ${NOUN[kind]}`,
        tags: [TAG[kind]],
        access: 'write',
        params: idParams,
        body: updates[kind] as z.ZodType<Record<string, unknown>>,
        problems: [403],
        success: { status: 200, description: 'Changed', schema: views[kind] },
        handle: async ({ auth, params, body }) =>
          (await viewOf(
            auth,
            await service.update(auth.organizationId, kind, params.id, body as never),
          )) as never,
      }),
      defineRoute({
        method: 'delete',
        path: `${BASE[kind]}/:id`,
        operationId: `delete${OPERATION[kind]}`,
        summary: `Delete a ${NOUN[kind]} (an incident it left open is resolved)`,
        tags: [TAG[kind]],
        access: 'write',
        params: idParams,
        success: { status: 204, description: 'Deleted' },
        handle: async ({ auth, params }) => {
          await service.remove(auth.organizationId, kind, params.id);
        },
      }),
    );
  return routes;
}
