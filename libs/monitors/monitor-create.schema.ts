import { z } from 'zod';
import { createDnsMonitorBody } from './kinds/dns/dns.schema.js';
import { createHeartbeatMonitorBody } from './kinds/heartbeat/heartbeat.schema.js';
import type { ProbeKindName } from './kinds/index.js';
import { createPortMonitorBody } from './kinds/port/port.schema.js';
import type { MonitorKind } from './monitor.repository.js';
import { createProbeCheckBodies, type ProbeCheckCreate } from './probe-check.schema.js';

/**
 * Every kind of monitor a website may have besides its HTTP check, by the body its create takes
 * (`{kind, …}`, as `POST /api/websites/{ref}/monitors` takes it): the API, the export, the
 * monitoring file and the imports read kinds and their fields from here.
 */
export const MONITOR_CREATE_BODIES = {
  heartbeat: createHeartbeatMonitorBody,
  dns: createDnsMonitorBody,
  port: createPortMonitorBody,
  ...createProbeCheckBodies,
} satisfies Record<MonitorKind, z.ZodType>;

type CreateBody = (typeof MONITOR_CREATE_BODIES)[MonitorKind];

/** A create of any kind as the service takes it (a probe kind's own fields checked again by its schema there). */
export type MonitorCreate =
  | z.output<typeof createHeartbeatMonitorBody>
  | z.output<typeof createDnsMonitorBody>
  | z.output<typeof createPortMonitorBody>
  | ({ kind: ProbeKindName } & ProbeCheckCreate);

export const createMonitorBody = z
  .discriminatedUnion('kind', Object.values(MONITOR_CREATE_BODIES) as [CreateBody, ...CreateBody[]])
  .meta({ id: 'MonitorCreate' }) as unknown as z.ZodType<MonitorCreate>;
