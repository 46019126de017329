// A website's monitors of any kind: list, create, read, change, delete (and all monitor routes, in order).
import { z } from 'zod';
import { invalidFields, validate } from '../../../libs/contract/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import type { MonitorRepository, MonitorService } from '../../../libs/monitors/index.js';
import { createMonitorBody, PROBE_KINDS, updateProbeCheckBody } from '../../../libs/monitors/index.js';
import { websiteRefParams } from '../../../libs/websites/index.js';
import { BUILT_IN_UPDATES, builtInCheckCreationRoutes, builtInCheckRoutes } from './built-in-checks.js';
import { heartbeatPingRoutes, monitorResultRoutes } from './monitor-results.js';
import { idParams, monitorView, monitorViews } from './monitor-views.js';

export function monitorRoutes(deps: { service: MonitorService; repository: MonitorRepository }): Route[] {
  const { service } = deps;
  const { viewsOf, viewOf } = monitorViews(service);

  const listing = defineRoute({
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
  });
  const anyKind: Route[] = [
    defineRoute({
      method: 'post',
      path: '/api/websites/:websiteRef/monitors',
      operationId: 'createMonitor',
      summary:
        'Add a monitor of any kind: heartbeat, dns, port, icmp, udp, grpc, websocket, smtp, imap, pop3, api-flow, browser',
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
  ];

  // In the order they were always declared: the OpenAPI document, and the app's types generated
  // from it, list the paths in this order.
  return [
    listing,
    ...builtInCheckCreationRoutes(service, viewOf),
    ...heartbeatPingRoutes(deps),
    ...anyKind,
    ...monitorResultRoutes(deps),
    ...builtInCheckRoutes(service, viewOf),
  ];
}
