import { randomBytes, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, type Socket, connect as tcpConnect } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  newHopConnection,
  ProbeFailure,
  type ProbeOptions,
  resolveGuarded,
  untilAborted,
} from '../probe/index.js';

export interface GuardProxyOptions {
  /**
   * The probe's guard and resolver, with the website's exemptions: each destination is resolved
   * once by it, judged as an HTTP check's hop is, and that very address connected to.
   */
  guard: Pick<ProbeOptions, 'allowPrivateTargets' | 'exemptAddresses' | 'resolve'>;
  /**
   * How long a lookup, a connect, an exchange or a tunnel may stay silent before its sockets are
   * destroyed (a journey's steps have deadlines of their own; this only keeps nothing open forever).
   * @defaultValue 30_000
   */
  idleTimeoutMs?: number;
  /**
   * Connections the browser may hold open to the proxy at once, tunnels included, and as many
   * upstream for plain HTTP. Chromium opens at most 32 to one HTTP proxy; past the cap a
   * connection is dropped and recorded.
   * @defaultValue 64
   */
  maxConnections?: number;
  /**
   * Distinct refusals kept: a page refused in a loop counts up `times` and cannot grow the list.
   * @defaultValue 100
   */
  maxRefusalsKept?: number;
}

/** One destination the guard refused, as a run names it ("blocked <target>: <reason>"). */
export interface GuardRefusal {
  /**
   * `http://host[:port]/path` for a plain request (without the query, which may carry a secret),
   * `host:port` for a tunnel (https, wss, ws: the proxy sees no more of it).
   */
  target: string;
  /** In the guard's words, e.g. "169.254.169.254 resolves to 169.254.169.254 (link-local …)". */
  reason: string;
  /** Requests refused for the same target and reason (a page may retry). */
  times: number;
}

/**
 * One run's guarding proxy: what Chromium's context is pointed at (`guardedContextOptions`), and
 * what it refused. One per run rather than one per worker: everything that reaches this port with
 * this credential is the run's, `close()` ends the run's last tunnel with it, and no state (a
 * credential, a refusal, a pooled connection) is shared with another run's context.
 */
export interface GuardProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly server: string;
  readonly port: number;
  /** The run's credential, which the proxy asks for (407) before anything else. */
  readonly username: string;
  readonly password: string;
  /** What was refused so far, first come first. */
  refusals(): GuardRefusal[];
  /** The address the run's first allowed request was judged to go to (its first page), null before one. */
  firstReached(): string | null;
  /** Stops listening and destroys every socket, open tunnels included. */
  close(): Promise<void>;
}

/**
 * Ports a browser refuses to fetch from (the Fetch standard's "bad ports", as undici's and
 * Chromium's lists): the proxy refuses them too, since a CONNECT tunnel is a raw TCP stream and
 * these are the services (SMTP, SSH, IRC …) a page could otherwise speak to through it. Every
 * other port is allowed: sites do serve pages on 8080, 8443 or 3000.
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Headers of one connection, never forwarded (RFC 9110 §7.6.1, and the legacy Proxy-Connection). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const REALM = 'webmon journey';
/** What the page sees of a refusal: the reason (which names resolved addresses) stays in the run. */
const REFUSED_TEXT = 'Refused by the monitoring guard: this destination may not be reached.\n';

/** `host:port` of a CONNECT (IPv6 in brackets), or null when it is not one. */
export function parseConnectTarget(authority: string): { hostname: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]/@]+):(\d{1,5})$/.exec(authority);
  if (!match?.[1]) return null;
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { hostname: match[1], port } : null;
}

/** An absolute-form `http://` request target, split into what is judged and what is forwarded. */
export function parseAbsoluteHttp(
  target: string,
): { hostname: string; port: number; authority: string; path: string } | null {
  // The path is forwarded as the browser wrote it; URL would normalise it (dot segments, escapes).
  const match = /^http:\/\/([^/?#]+)([^#]*)/i.exec(target);
  if (!match?.[1] || !URL.canParse(`http://${match[1]}/`)) return null;
  const url = new URL(`http://${match[1]}/`);
  if (url.username || url.password) return null;
  const rest = match[2] ?? '';
  return {
    hostname: url.hostname,
    port: Number(url.port) || 80,
    authority: url.host,
    path: rest.startsWith('/') ? rest : `/${rest}`,
  };
}

/**
 * `rawHeaders` without the hop-by-hop ones, nor those the Connection header names for this hop;
 * `also` names more to drop.
 */
export function endToEndHeaders(rawHeaders: readonly string[], also: readonly string[] = []): string[] {
  const named = new Set(also);
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() !== 'connection') continue;
    for (const name of (rawHeaders[i + 1] ?? '').split(',')) named.add(name.trim().toLowerCase());
  }
  const kept: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string;
    const lower = name.toLowerCase();
    if (!HOP_BY_HOP.has(lower) && !named.has(lower)) kept.push(name, rawHeaders[i + 1] as string);
  }
  return kept;
}

/** A status line and headers for a socket no longer under the HTTP server (CONNECT's). */
function rawAnswer(status: string, headers: readonly string[] = []): string {
  return `HTTP/1.1 ${status}\r\n${[...headers, 'Content-Length: 0', 'Connection: close'].join('\r\n')}\r\n\r\n`;
}

/** Where a request may go, or why not. */
type Judgement = { address: string } | { refused: string };

/** The first `limit` distinct refusals, each counted. */
class RefusalLog {
  private readonly kept = new Map<string, GuardRefusal>();

  constructor(private readonly limit: number) {}

  add(target: string, reason: string): void {
    const key = `${target}\n${reason}`;
    const known = this.kept.get(key);
    if (known) known.times += 1;
    else if (this.kept.size < this.limit) this.kept.set(key, { target, reason, times: 1 });
  }

  list(): GuardRefusal[] {
    return [...this.kept.values()].map((refusal) => ({ ...refusal }));
  }
}

/** The proxy behind `startGuardProxy`. */
class GuardingProxy implements GuardProxy {
  readonly username = 'journey';
  readonly password = randomBytes(24).toString('base64url');
  readonly server: string;
  private readonly expectedAuthorization: Buffer;
  private readonly sockets = new Set<Duplex>();
  private readonly log: RefusalLog;
  private readonly upstream: Agent;
  private readonly idleMs: number;
  private closed = false;
  private first: string | null = null;

  constructor(
    private readonly http: Server,
    readonly port: number,
    private readonly options: GuardProxyOptions,
  ) {
    this.server = `http://127.0.0.1:${port}`;
    this.idleMs = options.idleTimeoutMs ?? 30_000;
    const maxConnections = options.maxConnections ?? 64;
    this.log = new RefusalLog(options.maxRefusalsKept ?? 100);
    const token = Buffer.from(`${this.username}:${this.password}`).toString('base64');
    this.expectedAuthorization = Buffer.from(`Basic ${token}`);
    // Pooled by the judged address and port: a connection is only reused for where it was judged to go.
    this.upstream = new Agent({ keepAlive: true, maxTotalSockets: maxConnections, timeout: this.idleMs });
    http.maxConnections = maxConnections;
    http.timeout = this.idleMs;
    http.on('connection', (socket: Socket) => this.track(socket));
    http.on('drop', () =>
      this.log.add('a connection to the proxy', `over the ${maxConnections} a run may hold open at once`),
    );
    http.on('request', (request: IncomingMessage, response: ServerResponse) => {
      this.forward(request, response).catch(() => response.destroy());
    });
    http.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
      this.tunnel(request, client, head).catch(() => client.destroy());
    });
    http.on('clientError', (_error, socket: Duplex) => socket.destroy());
  }

  refusals(): GuardRefusal[] {
    return this.log.list();
  }

  firstReached(): string | null {
    return this.first;
  }

  async close(): Promise<void> {
    this.closed = true;
    const stopped = new Promise<void>((resolve) => this.http.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.upstream.destroy();
    await stopped;
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  /** Compared in constant time: the credential is all that keeps other local processes out. */
  private authorized(request: IncomingMessage): boolean {
    const given = Buffer.from(request.headers['proxy-authorization'] ?? '');
    return (
      given.length === this.expectedAuthorization.length && timingSafeEqual(given, this.expectedAuthorization)
    );
  }

  /** The port checked, then the host resolved once and judged; DNS failures and timeouts are thrown. */
  private async judge(hostname: string, port: number): Promise<Judgement> {
    if (BAD_PORTS.has(port))
      return { refused: `port ${port} is one browsers may not use (fetch's bad ports)` };
    const signal = AbortSignal.timeout(this.idleMs);
    try {
      const pending = resolveGuarded(this.options.guard, newHopConnection(), hostname, port, signal);
      const address = await untilAborted(pending, signal);
      this.first ??= address;
      return { address };
    } catch (error) {
      if (error instanceof ProbeFailure && error.code === 'BLOCKED_TARGET') return { refused: error.message };
      throw error;
    }
  }

  /** A plain `http://` request, judged and forwarded to the judged address; the answer piped back. */
  private async forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!this.authorized(request)) {
      response.writeHead(407, { 'proxy-authenticate': `Basic realm="${REALM}"`, 'content-length': 0 }).end();
      return;
    }
    const target = parseAbsoluteHttp(request.url ?? '');
    if (!target) {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('Only absolute http:// requests.\n');
      return;
    }
    let judgement: Judgement;
    try {
      judgement = await this.judge(target.hostname, target.port);
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      response.writeHead(timedOut ? 504 : 502, { 'content-type': 'text/plain' }).end();
      return;
    }
    if ('refused' in judgement) {
      this.log.add(`http://${target.authority}${target.path.replace(/\?.*$/, '')}`, judgement.refused);
      response.writeHead(403, { 'content-type': 'text/plain' }).end(REFUSED_TEXT);
      return;
    }
    if (this.closed || request.socket.destroyed) {
      response.destroy();
      return;
    }
    const outgoing = httpRequest({
      host: judgement.address,
      port: target.port,
      method: request.method,
      path: target.path,
      // RFC 9112 §3.2.2: a proxy takes the host from the absolute-form target, not the Host header.
      headers: ['Host', target.authority, ...endToEndHeaders(request.rawHeaders, ['host'])],
      setHost: false,
      agent: this.upstream,
      timeout: this.idleMs,
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error('idle')));
    outgoing.on('response', (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEndHeaders(answer.rawHeaders));
      answer.pipe(response);
      answer.on('error', () => response.destroy());
    });
    outgoing.on('error', () => {
      if (response.headersSent) response.destroy();
      else response.writeHead(502, { 'content-type': 'text/plain' }).end();
    });
    response.on('close', () => {
      if (!response.writableFinished) outgoing.destroy();
    });
    request.pipe(outgoing);
  }

  /** A CONNECT (https, wss, ws): judged, then a raw TCP tunnel to the judged address, never decrypted. */
  private async tunnel(request: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    if (!this.authorized(request)) {
      client.end(
        rawAnswer('407 Proxy Authentication Required', [`Proxy-Authenticate: Basic realm="${REALM}"`]),
      );
      return;
    }
    const target = parseConnectTarget(request.url ?? '');
    if (!target) {
      client.end(rawAnswer('400 Bad Request'));
      return;
    }
    let judgement: Judgement;
    try {
      judgement = await this.judge(target.hostname, target.port);
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      client.end(rawAnswer(timedOut ? '504 Gateway Timeout' : '502 Bad Gateway'));
      return;
    }
    if ('refused' in judgement) {
      this.log.add(`${target.hostname}:${target.port}`, judgement.refused);
      client.end(rawAnswer('403 Forbidden'));
      return;
    }
    if (this.closed || client.destroyed) {
      client.destroy();
      return;
    }
    const upstream = tcpConnect({ host: judgement.address, port: target.port });
    this.track(upstream);
    // The HTTP server listens on TCP: what CONNECT hands over is the net.Socket itself.
    for (const socket of [client as Socket, upstream]) {
      socket.setTimeout(this.idleMs);
      socket.on('timeout', () => socket.destroy());
    }
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    // Refused, unreachable or silent past the timeout: 'close' follows each, so it answers for all.
    upstream.on('error', () => undefined);
    upstream.on('close', () => {
      if (connected || client.destroyed) client.destroy();
      else client.end(rawAnswer('502 Bad Gateway'));
    });
    client.on('close', () => upstream.destroy());
  }
}

/**
 * Starts a run's guarding forward proxy on 127.0.0.1 (a free port; never reachable from other
 * hosts), behind a credential of its own so other local processes cannot use it as a relay.
 * Plain `http://` requests (absolute-form) are forwarded without hop-by-hop headers; CONNECT
 * tunnels (https, wss, and ws, which Chromium also tunnels) are judged by the host they name.
 * Every destination passes the same guard as an HTTP check: resolved once by the probe's
 * resolver, judged, and that very address connected to (no second lookup, so no DNS rebinding).
 * A refused one answers 403 (a failed tunnel for CONNECT) and is recorded in `refusals()`.
 */
export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  const http = createServer();
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  return new GuardingProxy(http, (http.address() as AddressInfo).port, options);
}
