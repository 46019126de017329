import { Agent, type Dispatcher } from 'undici';
import { errorMessage } from '../errors/index.js';
import { guardedConnector, ProbeFailure, type ProbeOptions } from '../probe/index.js';
import type { LinkError, LinkErrorCode } from './crawl.schema.js';

/** A request that failed for a reason a link is judged broken by. */
export class LinkFailure extends Error {
  constructor(
    readonly code: LinkErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'LinkFailure';
  }
}

export interface Exchange {
  status: number;
  /** Whether the request's timeout has passed (it covers the reading of the body too). */
  timedOut: () => boolean;
  headers: Dispatcher.ResponseData['headers'];
  /** Open until read, drained or destroyed. */
  body: Dispatcher.ResponseData['body'];
}

const TLS_CODES = /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)|^EPROTO$/;
const CONNECTION_CODES = new Set(['ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'UND_ERR_SOCKET']);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The link error an exception of a request stands for. */
export function linkErrorOf(error: unknown, timedOut: boolean): LinkError {
  const words = (code: LinkErrorCode, message: string): LinkError => ({
    code,
    message: message.slice(0, 500),
  });
  if (timedOut) return words('timeout', 'no complete answer within the timeout');
  if (error instanceof LinkFailure) return words(error.code, error.message);
  const code = String((error as NodeJS.ErrnoException | undefined)?.code ?? '');
  const message = errorMessage(error);
  if (code === 'ECONNREFUSED') return words('connection-refused', `connection refused (${message})`);
  if (TIMEOUT_CODES.has(code)) return words('timeout', `timed out (${code})`);
  if (TLS_CODES.test(code)) return words('tls', `TLS failed: ${message}`);
  if (CONNECTION_CODES.has(code)) return words('connection', `connection failed: ${message}`);
  if (code.startsWith('HPE_') || code.startsWith('UND_ERR'))
    return words('protocol', `invalid answer: ${message}`);
  return words('connection', message);
}

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/**
 * A crawl's HTTP client: connections kept alive and reused per origin (a crawl makes thousands of
 * requests to few hosts), each made through the guard. One exchange per call: redirects are the
 * caller's, hop by hop.
 */
export class GuardedFetch {
  private readonly agent: Agent;

  constructor(
    private readonly probe: ProbeOptions,
    private readonly timeoutMs: number,
    connectionsPerOrigin: number,
  ) {
    this.agent = new Agent({
      // A refused address is never connected to: the link is reported blocked (or unresolved).
      connect: guardedConnector(probe, {
        timeoutMs,
        refused: (error) =>
          new LinkFailure(
            error instanceof ProbeFailure && error.code === 'BLOCKED_TARGET' ? 'blocked' : 'dns',
            errorMessage(error),
          ),
      }),
      connections: connectionsPerOrigin,
      keepAliveTimeout: 4_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }

  /**
   * One request, no redirect followed. Its timeout covers the answer and the reading of its body
   * (`timedOut` tells a body read that failed for it). Throws `LinkFailure` for a failure a link is
   * judged by, and `signal`'s reason once it aborts.
   */
  async exchange(url: string, method: 'GET' | 'HEAD', signal: AbortSignal): Promise<Exchange> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const both = AbortSignal.any([signal, timeout]);
    const target = new URL(url);
    try {
      const response = await this.agent.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method,
        headers: {
          'user-agent': this.probe.userAgent,
          accept: ACCEPT,
          'accept-encoding': 'gzip, deflate, br',
        },
        signal: both,
      });
      return {
        status: response.statusCode,
        headers: response.headers,
        body: response.body,
        timedOut: () => timeout.aborted && !signal.aborted,
      };
    } catch (error) {
      signal.throwIfAborted();
      const { code, message } = linkErrorOf(error, timeout.aborted);
      throw new LinkFailure(code, message);
    }
  }

  async close(): Promise<void> {
    await this.agent.destroy().catch(() => undefined);
  }
}
