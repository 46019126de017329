import type { UdpObservation } from '../../../probe/index.js';
import { downVerdict, type MonitorVerdict, upVerdict } from '../../verdict.js';
import { expectProblem } from '../probe-kind.js';
import type { UdpSettings } from './udp.schema.js';

/** A reply as it is judged and shown: text when the payload is text, hex digits when it is hex. */
const replyText = (s: UdpSettings, reply: Buffer) =>
  s.payloadEncoding === 'hex' ? reply.toString('hex') : reply.toString('utf8');

/** Any reply is up unless `expect` says what it must hold; no reply (or port unreachable) is down. */
export function udpVerdict(s: UdpSettings, seen: UdpObservation): MonitorVerdict {
  if (seen.error) return downVerdict(seen.error.code, seen.error.message);
  const problem = expectProblem(s.expect, replyText(s, seen.reply ?? Buffer.alloc(0)));
  return problem ? downVerdict('UNEXPECTED_REPLY', problem) : upVerdict();
}
