import type { z } from 'zod';
import type {
  createDnsCheckBody,
  createHeartbeatBody,
  createPortCheckBody,
  MonitorCreate,
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

/** What makes monitors: the monitor service, as the routes call it. */
export type MonitorCreator = Pick<MonitorService, 'create'>;

/**
 * Makes a monitor of any kind on the website as its route does (the package's features and
 * limits, the SSRF guard: a `DomainError` says why not).
 */
export async function createMonitor(
  monitors: MonitorCreator,
  organizationId: number,
  websiteRef: string,
  check: CheckBody,
): Promise<{ id: number }> {
  return monitors.create(organizationId, websiteRef, { kind: check.kind, ...check.body } as MonitorCreate);
}
