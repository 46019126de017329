// Heartbeats', DNS and port checks' own routes: create, preview, accept a change; read, change, delete.
import type { z } from 'zod';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type { MonitorService } from '../../../libs/monitors/index.js';
import {
  createDnsCheckBody,
  createHeartbeatBody,
  createPortCheckBody,
  dnsCheckView,
  expectedAfter,
  heartbeatPreviewBody,
  heartbeatPreviewView,
  heartbeatView,
  portCheckView,
  updateDnsCheckBody,
  updateHeartbeatBody,
  updatePortCheckBody,
} from '../../../libs/monitors/index.js';
import { websiteRefParams } from '../../../libs/websites/index.js';
import { idParams, type MonitorViewOf } from './monitor-views.js';

/** The changes each built-in kind takes (through its own route and through `PATCH /api/monitors/{id}`). */
export const BUILT_IN_UPDATES = {
  heartbeat: updateHeartbeatBody,
  dns: updateDnsCheckBody,
  port: updatePortCheckBody,
} as const;

type BuiltInKind = 'heartbeat' | 'dns' | 'port';
export const BASE: Record<BuiltInKind, string> = {
  heartbeat: '/api/heartbeats',
  dns: '/api/dns-checks',
  port: '/api/port-checks',
};
export const TAG: Record<BuiltInKind, string> = {
  heartbeat: 'Heartbeats',
  dns: 'DNS checks',
  port: 'Port checks',
};
export const NOUN: Record<BuiltInKind, string> = {
  heartbeat: 'heartbeat',
  dns: 'DNS check',
  port: 'port check',
};
export const OPERATION: Record<BuiltInKind, string> = {
  heartbeat: 'Heartbeat',
  dns: 'DnsCheck',
  port: 'PortCheck',
};

/** Creating a heartbeat, a DNS or a port check (and a heartbeat's preview, a DNS check's accepted change). */
export function builtInCheckCreationRoutes(service: MonitorService, viewOf: MonitorViewOf): Route[] {
  return [
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
  ];
}

/** Reading, changing and deleting a heartbeat, a DNS or a port check by its id, under its own path. */
export function builtInCheckRoutes(service: MonitorService, viewOf: MonitorViewOf): Route[] {
  const routes: Route[] = [];
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
