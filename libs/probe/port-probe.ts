import type { Socket } from 'node:net';
import type { ProbeError, TlsObservation } from '../checks/index.js';
import { type ConnectorOptions, connectPinned, newHopConnection, untilAborted } from './pinned-connector.js';
import { classifyProbeError } from './probe-error.js';

export interface PortProbeRequest {
  /** A host name or an IP literal (IPv6 with or without brackets). */
  host: string;
  port: number;
  /** Handshake after connecting (SNI is the host when it is a name); the certificate is observed as for HTTPS. */
  tls: boolean;
  /**
   * When set, the first line the server sends (after the handshake with `tls`) must start with
   * this text, e.g. "220" for SMTP.
   */
  expectBanner: string | null;
  /** Bounds the whole probe: lookup, connection, handshake and banner. */
  timeoutMs: number;
}

export interface PortObservation {
  startedAt: Date;
  /** The address connected to, after the SSRF guard judged it; null when it got no further than the lookup. */
  address: string | null;
  timings: {
    dnsMs: number;
    connectMs: number;
    /** Null without `tls`. */
    tlsMs: number | null;
    /** From the connection (or handshake) being ready to the banner's line; null without `expectBanner`. */
    bannerMs: number | null;
    totalMs: number;
  };
  tls: TlsObservation | null;
  /** The first line, control characters stripped, cut to 200 characters; null when none was read. */
  banner: string | null;
  /** Null without `expectBanner`. */
  bannerMatched: boolean | null;
  /** DNS, BLOCKED_TARGET, CONNECT, TLS, TIMEOUT or BANNER, in words. */
  error: ProbeError | null;
}

/** What the port probe needs of the HTTP probe's options (a `ProbeOptions` will do): guard, resolver, roots. */
export type PortProbeOptions = Omit<ConnectorOptions, 'clientCertificate'>;

/** A banner line longer than this is judged by its start: a server that never sends a newline cannot fill memory. */
const BANNER_MAX_BYTES = 1024;
const BANNER_SHOWN_CHARS = 200;

const roundMs = (ms: number) => Math.round(ms * 100) / 100;

/**
 * The first line the socket receives (without its line end), at most `BANNER_MAX_BYTES`; what
 * arrived when the server closes or `signal` aborts (the deadline), possibly nothing. Rejects on a
 * socket error.
 */
function readFirstLine(socket: Socket, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const stop = () => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      socket.off('error', onError);
      signal.removeEventListener('abort', onEnd);
    };
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const newline = received.indexOf(0x0a);
      if (newline >= 0 && newline <= BANNER_MAX_BYTES) {
        stop();
        resolve(received.subarray(0, newline));
      } else if (received.length >= BANNER_MAX_BYTES) {
        stop();
        resolve(received.subarray(0, BANNER_MAX_BYTES));
      }
    };
    const onEnd = () => {
      stop();
      resolve(received);
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    if (signal.aborted) return onEnd();
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.once('error', onError);
    signal.addEventListener('abort', onEnd, { once: true });
  });
}

/**
 * Whether a TCP port of a host answers, as a mail or database client meets it: the host resolved
 * and judged by the SSRF guard and the judged address connected to (as HTTP probes do), an optional
 * TLS handshake whose certificate is observed but not rejected (the SSL check judges it), and an
 * optional banner whose first line must start with the expected text. One deadline for everything.
 * Failures of the target come back in `error`; this function does not throw for them, and every
 * socket it opened is destroyed before it returns.
 */
export async function probePort(
  request: PortProbeRequest,
  options: PortProbeOptions,
): Promise<PortObservation> {
  const startedAt = new Date();
  const started = performance.now();
  const hop = newHopConnection();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), request.timeoutMs);
  let bannerStarted: number | null = null;
  let bannerMs: number | null = null;
  let banner: string | null = null;
  let bannerMatched: boolean | null = null;

  const finish = (error: ProbeError | null): PortObservation => ({
    startedAt,
    address: hop.address,
    timings: {
      dnsMs: roundMs(hop.dnsMs),
      connectMs: roundMs(hop.connectMs),
      tlsMs: request.tls ? roundMs(hop.tlsMs) : null,
      bannerMs: bannerMs === null ? null : roundMs(bannerMs),
      totalMs: roundMs(performance.now() - started),
    },
    tls: hop.tls,
    banner,
    bannerMatched,
    error,
  });
  const where = () => `${hop.address}:${request.port}`;
  const timeout = (): ProbeError => {
    const within = `within ${request.timeoutMs} ms`;
    if (bannerStarted !== null)
      return { code: 'TIMEOUT', message: `connected to ${where()}, but no banner ${within}` };
    if (hop.phase === 'dns')
      return { code: 'TIMEOUT', message: `DNS did not answer for ${request.host} ${within}` };
    if (hop.phase === 'tls')
      return { code: 'TIMEOUT', message: `the TLS handshake with ${where()} did not finish ${within}` };
    return { code: 'TIMEOUT', message: `no connection to ${where()} ${within}` };
  };

  try {
    const socket = await untilAborted(
      connectPinned(
        { ...options, clientCertificate: null },
        hop,
        { hostname: request.host, port: request.port, tls: request.tls ? {} : null },
        abort.signal,
      ),
      abort.signal,
    );
    if (request.expectBanner === null) return finish(null);

    bannerStarted = performance.now();
    const raw = await readFirstLine(socket, abort.signal);
    bannerMs = performance.now() - bannerStarted;
    if (raw.length === 0) {
      return finish(
        abort.signal.aborted
          ? timeout()
          : { code: 'BANNER', message: `${where()} closed the connection without sending a banner` },
      );
    }
    const line = raw.toString('utf8').replace(/\p{Cc}/gu, '');
    banner = [...line].slice(0, BANNER_SHOWN_CHARS).join('');
    bannerMatched = line.startsWith(request.expectBanner);
    return finish(
      bannerMatched
        ? null
        : {
            code: 'BANNER',
            message: `banner did not start with ${JSON.stringify(request.expectBanner)}: got ${JSON.stringify(banner)}`,
          },
    );
  } catch (error) {
    if (abort.signal.aborted) return finish(timeout());
    // An alert after the handshake (a client certificate demanded under TLS 1.3) says why the
    // connection then failed.
    const phase = bannerStarted === null ? hop.phase : 'request';
    return finish(classifyProbeError(hop.tlsAlert ?? error, phase, false));
  } finally {
    clearTimeout(timer);
    // The TLS socket before the TCP socket it wraps: the other order, right after a handshake,
    // crashes Node 20 (a segmentation fault, reproduced without this code).
    for (const socket of hop.sockets.toReversed()) socket.destroy();
  }
}
