import { isIP } from 'node:net';
import { z } from 'zod';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import {
  ACTIVE_WITHIN_MS,
  ALLOW_LIST_WITHIN_MS,
  type MonitoringNodeRepository,
} from '../../../libs/nodes/index.js';

const nodeView = z
  .object({
    ip: z.string().describe('Address of the node'),
    region: z.string(),
    active: z.boolean(),
  })
  .meta({ id: 'MonitoringNode' });

/** IPv4 before IPv6, each in numeric order. */
export function sortIps(ips: Iterable<string>): string[] {
  const key = (ip: string) =>
    isIP(ip) === 4
      ? `4:${ip
          .split('.')
          .map((part) => part.padStart(3, '0'))
          .join('.')}`
      : `6:${ip.toLowerCase()}`;
  return [...new Set(ips)].sort((a, b) => key(a).localeCompare(key(b)));
}

export function monitoringNodeRoutes(nodes: MonitoringNodeRepository): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/monitoring-nodes',
      operationId: 'listMonitoringNodes',
      summary: 'The active monitoring nodes',
      description: `A node is active while it has sent a heartbeat in the last ${ACTIVE_WITHIN_MS / 1000} s and is not disabled.`,
      tags: ['Monitoring nodes'],
      access: 'read',
      success: { status: 200, description: 'Active nodes', schema: z.object({ nodes: z.array(nodeView) }) },
      handle: async () => {
        const live = await nodes.listActive(new Date());
        return { nodes: live.map((node) => ({ ip: node.ip, region: node.region, active: true })) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/monitoring-nodes/firewall.json',
      operationId: 'getFirewallAllowList',
      summary: 'Addresses to allow in a firewall (public)',
      description:
        'Every enabled node seen in the last 24 hours, sorted and unique. `?format=text` answers one address a line.',
      tags: ['Monitoring nodes'],
      access: 'public',
      query: z.strictObject({ format: z.enum(['json', 'text']).default('json') }),
      success: {
        status: 200,
        description: 'The allow-list',
        schema: z.object({ generated: z.iso.date(), ips: z.array(z.string()) }),
        headers: ['Cache-Control'],
        alternatives: [
          {
            contentType: 'text/plain; charset=utf-8',
            schema: z.string().describe('`?format=text`: one address a line'),
          },
        ],
      },
      problems: [503],
      handle: async ({ query, ctx }) => {
        const now = new Date();
        const ips = sortIps((await nodes.listRecent(now, ALLOW_LIST_WITHIN_MS)).map((node) => node.ip));
        ctx.set('Cache-Control', 'public, max-age=300');
        if (query.format === 'text') {
          ctx.type = 'text/plain; charset=utf-8';
          return ips.map((ip) => `${ip}\n`).join('');
        }
        ctx.type = 'application/json; charset=utf-8';
        return { generated: now.toISOString().slice(0, 10), ips };
      },
    }),
  ];
}
