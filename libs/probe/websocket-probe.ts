import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import type { ProbeError, TlsObservation } from '../checks/index.js';
import { errorMessage } from '../errors/index.js';
import { type ConnectorOptions, connectPinned, newHopConnection, untilAborted } from './pinned-connector.js';
import { classifyProbeError, ProbeFailure } from './probe-error.js';

export interface WebSocketProbeRequest {
  /** ws: or wss: */
  url: string;
  headers: Record<string, string>;
  subprotocol: string | null;
  /** A text message sent once open; the first message back is the reply. */
  send: string | null;
  /** Wait for a message even without sending one (a server that speaks first). */
  awaitReply: boolean;
  timeoutMs: number;
}

export interface WebSocketObservation {
  startedAt: Date;
  address: string | null;
  timings: {
    dnsMs: number;
    connectMs: number;
    tlsMs: number | null;
    /** The upgrade request to the 101 answer. */
    upgradeMs: number | null;
    /** Sent (or opened) to the first message back. */
    replyMs: number | null;
    totalMs: number;
  };
  /** The HTTP status of a refused upgrade (101 when it switched). */
  httpStatus: number | null;
  /** The subprotocol the server chose. */
  protocol: string | null;
  /** The first message back, as text, at most `REPLY_KEPT_CHARS`; null when none was awaited or came. */
  reply: string | null;
  tls: TlsObservation | null;
  /** DNS, BLOCKED_TARGET, CONNECT, TLS, TIMEOUT, UPGRADE, PROTOCOL, CLOSED, in words. */
  error: ProbeError | null;
}

export type WebSocketProbeOptions = Omit<ConnectorOptions, 'clientCertificate'>;

export const WEBSOCKET_REPLY_KEPT_CHARS = 2000;
/** A bigger message is refused by the client (the connection closes with 1009). */
const MAX_MESSAGE_BYTES = 1024 * 1024;

const roundMs = (ms: number) => Math.round(ms * 100) / 100;

/**
 * A WebSocket as a browser opens it: the host resolved and judged by the SSRF guard and that very
 * address connected to (TLS for wss, the certificate observed), the upgrade with the asked
 * headers and subprotocol (checked by `ws`: the accept key, the chosen protocol), then optionally
 * a message sent and the first one back read. One deadline; failures come back in `error`; the
 * sockets are destroyed before it returns.
 */
export async function probeWebSocket(
  request: WebSocketProbeRequest,
  options: WebSocketProbeOptions,
): Promise<WebSocketObservation> {
  const startedAt = new Date();
  const started = performance.now();
  const hop = newHopConnection();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new ProbeFailure('TIMEOUT', '')), request.timeoutMs);
  const url = new URL(request.url);
  const secure = url.protocol === 'wss:';
  let step: 'connect' | 'upgrade' | 'reply' = 'connect';
  let upgradeStarted = 0;
  let upgradeMs: number | null = null;
  let replyMs: number | null = null;
  let httpStatus: number | null = null;
  let protocol: string | null = null;
  let reply: string | null = null;
  let client: WebSocket | null = null;

  const finish = (error: ProbeError | null): WebSocketObservation => ({
    startedAt,
    address: hop.address,
    timings: {
      dnsMs: roundMs(hop.dnsMs),
      connectMs: roundMs(hop.connectMs),
      tlsMs: secure && hop.tls ? roundMs(hop.tlsMs) : null,
      upgradeMs: upgradeMs === null ? null : roundMs(upgradeMs),
      replyMs: replyMs === null ? null : roundMs(replyMs),
      totalMs: roundMs(performance.now() - started),
    },
    httpStatus,
    protocol,
    reply,
    tls: hop.tls,
    error,
  });

  try {
    const socket = await untilAborted(
      connectPinned(
        { ...options, clientCertificate: null },
        hop,
        {
          hostname: url.hostname,
          port: Number(url.port) || (secure ? 443 : 80),
          tls: secure ? { alpn: ['http/1.1'] } : null,
        },
        abort.signal,
      ),
      abort.signal,
    );
    step = 'upgrade';
    upgradeStarted = performance.now();
    const opened = new WebSocket(url, request.subprotocol ? [request.subprotocol] : [], {
      headers: request.headers,
      // The connection is ours, made through the guard: ws only speaks over it.
      createConnection: () => socket,
      followRedirects: false,
      perMessageDeflate: false,
      maxPayload: MAX_MESSAGE_BYTES,
    });
    client = opened;
    const firstMessage = new Promise<string>((resolve, reject) => {
      // binaryType 'nodebuffer' (the default): one Buffer a message, fragments joined.
      opened.once('message', (data: WebSocket.RawData) => resolve(String(data)));
      opened.once('close', (code: number, why: Buffer) =>
        reject(
          new ProbeFailure(
            'CLOSED',
            `the server closed the WebSocket (${code}${why.length ? `: ${why.toString('utf8').slice(0, 200)}` : ''}) before answering`,
          ),
        ),
      );
    });
    firstMessage.catch(() => {});
    await untilAborted(
      new Promise<void>((resolve, reject) => {
        opened.once('open', resolve);
        opened.once('unexpected-response', (_req: unknown, response: IncomingMessage) => {
          httpStatus = response.statusCode ?? null;
          reject(
            new ProbeFailure(
              'UPGRADE',
              `the server answered ${response.statusCode} ${response.statusMessage ?? ''} instead of 101 Switching Protocols`.replace(
                '  ',
                ' ',
              ),
            ),
          );
        });
        opened.once('error', reject);
      }),
      abort.signal,
    );
    upgradeMs = performance.now() - upgradeStarted;
    httpStatus = 101;
    protocol = opened.protocol || null;
    if (request.send === null && !request.awaitReply) {
      opened.close(1000);
      return finish(null);
    }
    step = 'reply';
    const asked = performance.now();
    if (request.send !== null) opened.send(request.send);
    const message = await untilAborted(firstMessage, abort.signal);
    replyMs = performance.now() - asked;
    reply = message.slice(0, WEBSOCKET_REPLY_KEPT_CHARS);
    opened.close(1000);
    return finish(null);
  } catch (error) {
    if (abort.signal.aborted) {
      const within = `within ${request.timeoutMs} ms`;
      const where = `${hop.address}:${url.port || (secure ? 443 : 80)}`;
      const message = {
        connect:
          hop.phase === 'dns'
            ? `DNS did not answer for ${url.hostname} ${within}`
            : hop.phase === 'tls'
              ? `the TLS handshake with ${where} did not finish ${within}`
              : `no connection to ${where} ${within}`,
        upgrade: `${where} did not answer the upgrade ${within}`,
        reply: `no message back ${within}`,
      }[step];
      return finish({ code: 'TIMEOUT', message });
    }
    if (error instanceof ProbeFailure) return finish({ code: error.code, message: error.message });
    if (step !== 'connect')
      return finish({
        code: 'PROTOCOL',
        message: `the WebSocket upgrade failed: ${errorMessage(error)}`,
      });
    return finish(classifyProbeError(hop.tlsAlert ?? error, hop.phase, false));
  } finally {
    clearTimeout(timer);
    client?.terminate();
    for (const socket of hop.sockets.toReversed()) socket.destroy();
  }
}
