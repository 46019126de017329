import type { X509Certificate } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP, type Socket, connect as tcpConnect } from 'node:net';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import type { buildConnector } from 'undici';
import type { TlsObservation } from '../checks/index.js';
import { type ExemptAddress, refusalUnder } from '../targets/index.js';
import { ProbeFailure } from './probe-error.js';
import type { TlsContexts } from './tls-contexts.js';

/** Resolves a host name to addresses, first choice first. */
export type Resolve = (hostname: string) => Promise<string[]>;

export const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true })).map((a) => a.address);

/** What one hop's connection went through; filled in as it happens. */
export interface HopConnection {
  phase: 'dns' | 'connect' | 'tls' | 'request';
  address: string | null;
  dnsMs: number;
  connectMs: number;
  tlsMs: number;
  /** performance.now() when the connection was ready for the request. */
  readyAt: number | null;
  tls: TlsObservation | null;
  sockets: Socket[];
  /**
   * A TLS alert the server sent after the handshake (TLS 1.3 asks for the client certificate
   * then): the HTTP client only sees the connection close, this says why.
   */
  tlsAlert: NodeJS.ErrnoException | null;
}

export interface ConnectorOptions {
  allowPrivateTargets: boolean;
  /** Single addresses reachable even though their range is blocked (a private host to monitor). */
  exemptAddresses?: readonly ExemptAddress[];
  resolve: Resolve;
  /** Trusted roots for the chain check, as shared TLS contexts. */
  tls: TlsContexts;
  clientCertificate: { cert: string; key: string } | null;
}

/** Verification errors the SSL check reports on its own terms (dates, host name), not as an untrusted chain. */
const NOT_CHAIN_ERRORS = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'ERR_TLS_CERT_ALTNAME_INVALID']);

/** What the handshake gets for the chain nobody reads (see `connectPinned`). */
const skippedPeerCertificate = (() => ({})) as unknown as TLSSocket['getPeerCertificate'];

/** "CN=…, O=…" from X509Certificate's one-attribute-per-line form. */
function distinguishedName(name: string): string {
  return name.split('\n').join(', ');
}

/** Whether the certificate is for the host: its DNS or IP names, its subject only without DNS names. */
function certificateMatches(certificate: X509Certificate, hostname: string): boolean {
  if (isIP(hostname)) return certificate.checkIP(hostname) !== undefined;
  return (
    certificate.checkHost(hostname, { partialWildcards: false, multiLabelWildcards: false }) !== undefined
  );
}

/**
 * `work`, or the signal's reason once it aborts, whichever comes first: a lookup or a connect
 * cannot be cancelled, so a probe past its deadline stops waiting for them.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/** A connection record before anything happened. */
export function newHopConnection(): HopConnection {
  return {
    phase: 'dns',
    address: null,
    dnsMs: 0,
    connectMs: 0,
    tlsMs: 0,
    readyAt: null,
    tls: null,
    sockets: [],
    tlsAlert: null,
  };
}

/** Where a pinned connection goes. */
export interface PinnedTarget {
  /** A host name or an IP literal (IPv6 with or without brackets). */
  hostname: string;
  port: number;
  /** Handshake after connecting, offering these ALPN protocols (none for protocols other than HTTP). */
  tls: { alpn?: string[] } | null;
}

/** What the handshake saw of the server certificate, or null when it sent none. */
function observeTls(secure: TLSSocket, hostname: string): TlsObservation | null {
  // The X509Certificate form parses on demand: getPeerCertificate() hashes and hex-encodes the
  // whole certificate three times over, a fifth of an HTTPS check's CPU.
  const certificate = secure.getPeerX509Certificate();
  if (!certificate) return null;
  return {
    validFrom: new Date(certificate.validFrom),
    validTo: new Date(certificate.validTo),
    issuer: distinguishedName(certificate.issuer),
    subject: distinguishedName(certificate.subject),
    chainTrusted: secure.authorized || NOT_CHAIN_ERRORS.has(String(secure.authorizationError)),
    chainError: secure.authorizationError ? String(secure.authorizationError) : null,
    hostnameMatches: certificateMatches(certificate, hostname),
    protocol: secure.getProtocol(),
    cipher: secure.getCipher()?.name ?? null,
  };
}

/**
 * The address a probe may go to for `hostname`: resolved by the probe itself and judged by the
 * SSRF guard, recorded in `hop` (DNS time, address). A probe then connects to this very address
 * (no second lookup, so no DNS rebinding). Throws a `ProbeFailure` (DNS, BLOCKED_TARGET).
 */
export async function resolveGuarded(
  options: Pick<ConnectorOptions, 'allowPrivateTargets' | 'exemptAddresses' | 'resolve'>,
  hop: HopConnection,
  hostname: string,
  /** Where it will connect; none for a ping. */
  port: number | undefined,
  signal?: AbortSignal,
): Promise<string> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const started = performance.now();
  hop.phase = 'dns';
  const addresses = isIP(bare) ? [bare] : await options.resolve(bare);
  hop.dnsMs = isIP(bare) ? 0 : performance.now() - started;
  signal?.throwIfAborted();
  const address = addresses[0];
  if (!address) throw new ProbeFailure('DNS', `${bare} has no address`);
  const reason = refusalUnder(
    { allowPrivateTargets: options.allowPrivateTargets, exemptAddresses: options.exemptAddresses ?? [] },
    address,
    port,
  );
  if (reason) {
    throw new ProbeFailure(
      'BLOCKED_TARGET',
      `${bare} resolves to ${address} (${reason}), which monitoring may not reach`,
    );
  }
  hop.address = address;
  return address;
}

/**
 * A TLS handshake over a connected socket (at once, or after a STARTTLS), timed into `hop` with
 * the server certificate observed. The certificate is not rejected here: the SSL check judges it.
 */
export async function upgradeTls(
  options: Pick<ConnectorOptions, 'tls' | 'clientCertificate'>,
  hop: HopConnection,
  socket: Socket,
  hostname: string,
  alpn?: string[],
): Promise<TLSSocket> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  hop.phase = 'tls';
  const tlsStarted = performance.now();
  const secure = tlsConnect({
    socket,
    servername: isIP(bare) ? undefined : bare,
    secureContext: options.tls.contextFor(options.clientCertificate),
    rejectUnauthorized: false,
    ALPNProtocols: alpn,
    // The host is matched in `observeTls`; the chain is still verified by OpenSSL.
    checkServerIdentity: () => undefined,
  });
  // Node's handshake end builds the peer's whole chain as objects (getPeerCertificate(true): three
  // hashes and a hex dump per certificate) only to hand it to checkServerIdentity, which ignores
  // it here: a sixth of an HTTPS check's CPU. Shadowed on this socket until the handshake is done.
  secure.getPeerCertificate = skippedPeerCertificate;
  hop.sockets.push(secure);
  await new Promise<void>((resolve, reject) => {
    secure.once('secureConnect', resolve);
    secure.once('error', reject);
  }).finally(() => {
    Reflect.deleteProperty(secure, 'getPeerCertificate');
  });
  hop.tlsMs = performance.now() - tlsStarted;
  secure.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code?.startsWith('ERR_SSL')) hop.tlsAlert ??= error;
  });
  hop.tls = observeTls(secure, bare);
  return secure;
}

/**
 * One guarded connection, the part every probe shares: the address from `resolveGuarded`,
 * connected to, timed into `hop`, with a TLS handshake (`upgradeTls`) when asked. Every socket it
 * opens is in `hop.sockets` for the caller to destroy; once `signal` is aborted (a caller that
 * stopped waiting) it opens none after the lookup.
 */
export async function connectPinned(
  options: ConnectorOptions,
  hop: HopConnection,
  target: PinnedTarget,
  signal?: AbortSignal,
): Promise<Socket | TLSSocket> {
  const address = await resolveGuarded(options, hop, target.hostname, target.port, signal);
  hop.phase = 'connect';
  const connectStarted = performance.now();
  const socket = tcpConnect({ host: address, port: target.port });
  hop.sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  hop.connectMs = performance.now() - connectStarted;
  const ready = target.tls
    ? await upgradeTls(options, hop, socket, target.hostname, target.tls.alpn)
    : socket;
  hop.readyAt = performance.now();
  return ready;
}

/** An undici connector for one hop: `connectPinned` to the hop's origin (HTTP/1.1 over TLS for https). */
export function pinnedConnector(options: ConnectorOptions, hop: HopConnection): buildConnector.connector {
  return (target, callback) => {
    const https = target.protocol === 'https:';
    connectPinned(options, hop, {
      hostname: target.hostname,
      port: Number(target.port) || (https ? 443 : 80),
      tls: https ? { alpn: ['http/1.1'] } : null,
    }).then(
      (socket) => {
        hop.phase = 'request';
        callback(null, socket);
      },
      (error: Error) => callback(error, null),
    );
  };
}
