import { probeUdp } from '../../../probe/index.js';
import { defineProbeKind, keptText } from '../probe-kind.js';
import { type UdpSettings, udpFields, udpSettings } from './udp.schema.js';
import { udpVerdict } from './udp.verdict.js';

/** The datagram as sent: the payload as UTF-8, or the bytes its hex digits spell. */
export const payloadBytes = (s: Pick<UdpSettings, 'payload' | 'payloadEncoding'>) =>
  s.payloadEncoding === 'hex'
    ? Buffer.from(s.payload.replace(/\s+/g, ''), 'hex')
    : Buffer.from(s.payload, 'utf8');

export const udpKind = defineProbeKind({
  kind: 'udp',
  noun: 'UDP check',
  feature: 'udpChecks',
  limit: 'maxUdpChecksPerWebsite',
  lane: 'fast',
  description:
    'One datagram (text or hex) to the address the SSRF guard allows, and the first reply back: down without a reply within the timeout (or on port unreachable), or when it does not hold `expect` ({contains} or an RE2 {matches}; hex payloads are matched as hex digits). Package feature `udpChecks`, limit `maxUdpChecksPerWebsite`.',
  fields: udpFields,
  settings: udpSettings,
  hostOf: (s) => s.host ?? null,
  defaultName: (s) => `UDP ${s.host ?? ''}:${s.port}`.replace(/^UDP :/, 'UDP port '),
  probe: (s, context) =>
    probeUdp(
      { host: s.host ?? '', port: s.port, payload: payloadBytes(s), timeoutMs: context.timeoutMs },
      context.probe,
    ),
  verdict: (s, seen) => udpVerdict(s, seen),
  evidence: (seen) => ({
    replyBytes: seen.replyBytes,
    reply: seen.reply ? keptText(seen.reply.toString('latin1'), 500) : null,
    replyHex: seen.reply ? seen.reply.subarray(0, 256).toString('hex') : null,
    ...(seen.error ? { error: seen.error } : {}),
  }),
  timings: (seen) => seen.timings,
});
