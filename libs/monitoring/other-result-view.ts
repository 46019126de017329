import { z } from 'zod';
import { OTHER_MONITOR_KINDS, type OtherMonitorKind } from './monitor-state.js';

/** The other monitors' kinds that are checked (a heartbeat is pinged, not checked). */
export const CHECKED_KINDS = OTHER_MONITOR_KINDS.filter((kind) => kind !== 'heartbeat') as [
  Exclude<OtherMonitorKind, 'heartbeat'>,
  ...Exclude<OtherMonitorKind, 'heartbeat'>[],
];

/** A result of a website's other monitor (DNS, port, a probe kind), as the website's results list it. */
export const otherResultView = z
  .object({
    kind: z.enum(CHECKED_KINDS),
    monitorId: z.number().int().describe('The monitor (GET /api/monitors/{id})'),
    region: z.string(),
    startedAt: z.iso.datetime(),
    status: z.enum(['up', 'degraded', 'down']),
    cause: z.string().nullable().describe('What failed, in words'),
    durationMs: z.number(),
    address: z.string().nullable(),
    timings: z.record(z.string(), z.number().nullable()),
    evidence: z
      .record(z.string(), z.unknown())
      .describe('What it saw (a reply, a greeting, a certificate), bounded'),
  })
  .meta({ id: 'MonitorCheckResult' });
export type OtherResultItem = z.input<typeof otherResultView>;
