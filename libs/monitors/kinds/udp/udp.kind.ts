import { z } from 'zod';
import { probeUdp, type UdpObservation } from '../../../probe/index.js';
import { hostField } from '../../monitor-common.js';
import { downVerdict, type MonitorVerdict, upVerdict } from '../../verdict.js';
import { defineProbeKind, expectField, expectProblem, keptText } from '../probe-kind.js';

const HEX = /^(?:[0-9a-f]{2})+$/i;

const fields = {
  host: hostField.describe("Where to send (default: the website's host)"),
  port: z.number().int().min(1).max(65_535),
  payload: z.string().max(2048).describe('The datagram sent, as text or as hex digits'),
  payloadEncoding: z.enum(['text', 'hex']),
  expect: expectField,
};

const settings = z
  .strictObject({
    host: fields.host.optional(),
    port: fields.port,
    payload: fields.payload.default(''),
    payloadEncoding: fields.payloadEncoding.default('text'),
    expect: fields.expect.default(null),
  })
  .superRefine((s, context) => {
    if (s.payloadEncoding === 'hex' && s.payload !== '' && !HEX.test(s.payload.replace(/\s+/g, '')))
      context.addIssue({
        code: 'custom',
        path: ['payload'],
        message: 'must be pairs of hex digits (payloadEncoding hex)',
      });
  });
type UdpSettings = z.output<typeof settings>;

export const payloadBytes = (s: Pick<UdpSettings, 'payload' | 'payloadEncoding'>) =>
  s.payloadEncoding === 'hex'
    ? Buffer.from(s.payload.replace(/\s+/g, ''), 'hex')
    : Buffer.from(s.payload, 'utf8');

/** A reply as it is judged and shown: text when the payload is text, hex digits when it is hex. */
const replyText = (s: UdpSettings, reply: Buffer) =>
  s.payloadEncoding === 'hex' ? reply.toString('hex') : reply.toString('utf8');

/** Any reply is up unless `expect` says what it must hold; no reply (or port unreachable) is down. */
export function udpVerdict(s: UdpSettings, seen: UdpObservation): MonitorVerdict {
  if (seen.error) return downVerdict(seen.error.code, seen.error.message);
  const problem = expectProblem(s.expect, replyText(s, seen.reply ?? Buffer.alloc(0)));
  return problem ? downVerdict('UNEXPECTED_REPLY', problem) : upVerdict();
}

export const udpKind = defineProbeKind({
  kind: 'udp',
  noun: 'UDP check',
  feature: 'udpChecks',
  limit: 'maxUdpChecksPerWebsite',
  lane: 'fast',
  description:
    'One datagram (text or hex) to the address the SSRF guard allows, and the first reply back: down without a reply within the timeout (or on port unreachable), or when it does not hold `expect` ({contains} or an RE2 {matches}; hex payloads are matched as hex digits). Package feature `udpChecks`, limit `maxUdpChecksPerWebsite`.',
  fields,
  settings,
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
