import { probeIcmp } from '../../../probe/index.js';
import { defineProbeKind } from '../probe-kind.js';
import { type IcmpSettings, icmpFields, icmpSettings } from './icmp.schema.js';
import { average, icmpVerdict } from './icmp.verdict.js';

/** Between two echo requests: iputils' floor for everyone is 200 ms; half a second spreads a burst. */
const ECHO_INTERVAL_MS = 500;

export const icmpKind = defineProbeKind({
  kind: 'icmp',
  noun: 'ping check',
  feature: 'icmpChecks',
  limit: 'maxIcmpChecksPerWebsite',
  lane: 'slow',
  description:
    'ICMP echo requests (IPv4 or IPv6) to the address the SSRF guard allows, through the system ping. Down when more than maxLossPercent of them are lost (all lost: unreachable); degraded when the average round trip is above maxRttMs. Package feature `icmpChecks`, limit `maxIcmpChecksPerWebsite`.',
  fields: icmpFields,
  settings: icmpSettings,
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
