import { createSocket, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import type { ProbeError } from '../checks/index.js';
import { errorMessage } from '../errors/index.js';
import { type ConnectorOptions, newHopConnection, resolveGuarded, untilAborted } from './pinned-connector.js';
import { ProbeFailure } from './probe-error.js';

export interface UdpProbeRequest {
  host: string;
  port: number;
  payload: Buffer;
  /** Bounds the whole probe: lookup, send and the reply. */
  timeoutMs: number;
}

export interface UdpObservation {
  startedAt: Date;
  address: string | null;
  timings: { dnsMs: number; replyMs: number | null; totalMs: number };
  /** The first datagram back, at most `REPLY_KEPT_BYTES` of it; null when none came. */
  reply: Buffer | null;
  replyBytes: number | null;
  /** DNS, BLOCKED_TARGET, SEND, TIMEOUT (no reply), UNREACHABLE (ICMP port unreachable), in words. */
  error: ProbeError | null;
}

export type UdpProbeOptions = Pick<ConnectorOptions, 'allowPrivateTargets' | 'exemptAddresses' | 'resolve'>;

/** What of a reply is kept to judge and show: a reply is one datagram, up to 64 KiB. */
export const REPLY_KEPT_BYTES = 4096;

const roundMs = (ms: number) => Math.round(ms * 100) / 100;

/**
 * One datagram sent to a guarded address and the first datagram back from it: the host resolved
 * and judged by the SSRF guard (as every probe), a socket connected to that address (so only its
 * replies are taken, and an ICMP port-unreachable surfaces as an error), one deadline. Failures
 * come back in `error`; the socket is closed before it returns.
 */
export async function probeUdp(request: UdpProbeRequest, options: UdpProbeOptions): Promise<UdpObservation> {
  const startedAt = new Date();
  const started = performance.now();
  const hop = newHopConnection();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new ProbeFailure('TIMEOUT', '')), request.timeoutMs);
  let sentAt: number | null = null;
  let replyMs: number | null = null;
  let reply: Buffer | null = null;
  let replyBytes: number | null = null;
  const finish = (error: ProbeError | null): UdpObservation => ({
    startedAt,
    address: hop.address,
    timings: {
      dnsMs: roundMs(hop.dnsMs),
      replyMs: replyMs === null ? null : roundMs(replyMs),
      totalMs: roundMs(performance.now() - started),
    },
    reply,
    replyBytes,
    error,
  });
  let opened: Socket | null = null;
  try {
    const address = await untilAborted(
      resolveGuarded(options, hop, request.host, request.port, abort.signal),
      abort.signal,
    );
    const socket = createSocket({ type: isIPv6(address) ? 'udp6' : 'udp4' });
    opened = socket;
    const where = `${address}:${request.port}`;
    const answer = new Promise<Buffer>((resolve, reject) => {
      socket.once('message', resolve);
      socket.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'ECONNREFUSED'
            ? new ProbeFailure('UNREACHABLE', `${where} answered port unreachable: nothing listens there`)
            : new ProbeFailure('SEND', `${where}: ${error.message}`),
        ),
      );
    });
    await untilAborted(
      new Promise<void>((resolve, reject) => {
        socket.connect(request.port, address, (error?: Error) => (error ? reject(error) : resolve()));
        socket.once('error', reject);
      }),
      abort.signal,
    );
    sentAt = performance.now();
    socket.send(request.payload);
    const datagram = await untilAborted(answer, abort.signal);
    replyMs = performance.now() - sentAt;
    replyBytes = datagram.length;
    reply = datagram.subarray(0, REPLY_KEPT_BYTES);
    return finish(null);
  } catch (error) {
    if (abort.signal.aborted)
      return finish({
        code: 'TIMEOUT',
        message:
          sentAt === null
            ? `DNS did not answer for ${request.host} within ${request.timeoutMs} ms`
            : `no reply from ${hop.address}:${request.port} within ${request.timeoutMs} ms`,
      });
    if (error instanceof ProbeFailure) return finish({ code: error.code, message: error.message });
    return finish({ code: 'SEND', message: errorMessage(error) });
  } finally {
    clearTimeout(timer);
    opened?.close();
  }
}
