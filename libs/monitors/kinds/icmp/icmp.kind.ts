import { z } from 'zod';
import { type IcmpObservation, probeIcmp } from '../../../probe/index.js';
import { hostField } from '../../monitor-common.js';
import { downVerdict, type MonitorVerdict, upVerdict } from '../../verdict.js';
import { defineProbeKind } from '../probe-kind.js';

/** Between two echo requests: iputils' floor for everyone is 200 ms; half a second spreads a burst. */
const ECHO_INTERVAL_MS = 500;

const fields = {
  host: hostField.describe("What to ping (default: the website's host)"),
  count: z.number().int().min(1).max(10).describe('Echo requests sent each check'),
  maxLossPercent: z.number().min(0).max(99).describe('Lost replies above this share are down'),
  maxRttMs: z
    .number()
    .int()
    .min(1)
    .max(60_000)
    .nullable()
    .describe('An average round trip above this is degraded (null: not judged)'),
};

const settings = z.strictObject({
  host: fields.host.optional(),
  count: fields.count.default(3),
  maxLossPercent: fields.maxLossPercent.default(0),
  maxRttMs: fields.maxRttMs.default(null),
});
type IcmpSettings = z.output<typeof settings>;

const average = (values: readonly number[]) =>
  Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100;

/** Loss over the bound is down (all lost: unreachable); a slow average round trip degraded. */
export function icmpVerdict(check: IcmpSettings & { host: string }, seen: IcmpObservation): MonitorVerdict {
  if (seen.error) return downVerdict(seen.error.code, seen.error.message);
  if (seen.received === 0)
    return downVerdict(
      'ICMP_NO_REPLY',
      `${check.host} (${seen.address}) answered none of ${seen.sent} echo requests`,
    );
  const lossPercent =
    seen.sent === 0 ? 100 : Math.round(((seen.sent - seen.received) / seen.sent) * 1000) / 10;
  if (lossPercent > check.maxLossPercent)
    return downVerdict(
      'ICMP_LOSS',
      `${seen.sent - seen.received} of ${seen.sent} echo requests lost (${lossPercent} %, at most ${check.maxLossPercent} % allowed)`,
    );
  const rtt = seen.rttsMs.length > 0 ? average(seen.rttsMs) : null;
  if (check.maxRttMs !== null && rtt !== null && rtt > check.maxRttMs)
    return {
      status: 'degraded',
      code: 'ICMP_SLOW',
      cause: `round trip ${rtt} ms on average, above ${check.maxRttMs} ms`,
      checks: [],
    };
  return upVerdict();
}

export const icmpKind = defineProbeKind({
  kind: 'icmp',
  noun: 'ping check',
  feature: 'icmpChecks',
  limit: 'maxIcmpChecksPerWebsite',
  lane: 'slow',
  description:
    'ICMP echo requests (IPv4 or IPv6) to the address the SSRF guard allows, through the system ping. Down when more than maxLossPercent of them are lost (all lost: unreachable); degraded when the average round trip is above maxRttMs. Package feature `icmpChecks`, limit `maxIcmpChecksPerWebsite`.',
  fields,
  settings,
  hostOf: (s) => s.host ?? null,
  defaultName: (s) => `Ping ${s.host ?? ''}`.trim(),
  // Its echo requests, half a second apart, and a second for the last reply.
  minTimeoutMs: (s: IcmpSettings) => s.count * ECHO_INTERVAL_MS + 1000,
  probe: (s, context) =>
    probeIcmp(
      { host: s.host ?? '', count: s.count, intervalMs: ECHO_INTERVAL_MS, timeoutMs: context.timeoutMs },
      context.probe,
    ),
  verdict: (s, seen) => icmpVerdict({ ...s, host: s.host ?? '' }, seen),
  evidence: (seen) => ({
    sent: seen.sent,
    received: seen.received,
    rttsMs: seen.rttsMs,
    ...(seen.error ? { error: seen.error } : {}),
  }),
  timings: (seen) => ({
    dnsMs: seen.timings.dnsMs,
    rttMs: seen.rttsMs.length > 0 ? average(seen.rttsMs) : null,
    totalMs: seen.timings.totalMs,
  }),
});
