import type { z } from 'zod';
import type {
  createDnsCheckBody,
  createHeartbeatBody,
  createPortCheckBody,
  MonitorKind,
  MonitorService,
} from '../monitors/index.js';

type ProbeKind = Exclude<MonitorKind, 'heartbeat' | 'dns' | 'port'>;

/** A monitor as its create route takes it (parsed by that route's schema), one body per kind. */
export type CheckBody =
  | { kind: 'heartbeat'; body: z.output<typeof createHeartbeatBody> }
  | { kind: 'dns'; body: z.output<typeof createDnsCheckBody> }
  | { kind: 'port'; body: z.output<typeof createPortCheckBody> }
  | {
      kind: ProbeKind;
      body: { name?: string; intervalSeconds: number; timeoutSeconds: number } & Record<string, unknown>;
    };

/** What makes monitors: the monitor service's create methods, as the routes call them. */
export type MonitorCreator = Pick<
  MonitorService,
  'createHeartbeat' | 'createDnsCheck' | 'createPortCheck' | 'createProbeCheck'
>;

/**
 * Makes a monitor of any kind on the website through the method its own route calls (the package's
 * features and limits, the SSRF guard: a `DomainError` says why not).
 */
export async function createMonitor(
  monitors: MonitorCreator,
  organizationId: number,
  websiteRef: string,
  check: CheckBody,
): Promise<{ id: number }> {
  switch (check.kind) {
    case 'heartbeat':
      return (await monitors.createHeartbeat(organizationId, websiteRef, check.body)).heartbeat;
    case 'dns':
      return monitors.createDnsCheck(organizationId, websiteRef, check.body);
    case 'port':
      return monitors.createPortCheck(organizationId, websiteRef, check.body);
    default:
      return monitors.createProbeCheck(organizationId, websiteRef, check.kind, check.body);
  }
}
