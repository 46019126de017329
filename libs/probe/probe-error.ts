import type { ProbeError } from '../checks/index.js';
import { errorMessage } from '../errors/index.js';

/** A failure of the probe's request, classified; carried into the result, not thrown past the probe. */
export class ProbeFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProbeFailure';
  }
}

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
]);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'ENODATA']);
/** TLS alerts a server sends when it refuses the client certificate it was given. */
const CLIENT_CERTIFICATE_REFUSED = new Set([
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED',
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED',
]);

/** What common network failures mean, said for the people reading alerts (the code kept for operators). */
const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing listens on that port, or a firewall refuses it',
  ECONNRESET: 'the server closed the connection abruptly',
  EHOSTUNREACH: 'the host is unreachable (no route to it)',
  ENETUNREACH: 'the network is unreachable (no route to it)',
  EPIPE: 'the server closed the connection while the request was sent',
  ENOTFOUND: 'the name does not resolve (no such host)',
  EAI_AGAIN: 'DNS did not answer in time (a temporary failure)',
  EAI_FAIL: 'DNS failed to answer',
  ENODATA: 'the name has no address records',
};

/** `connection refused: … (ECONNREFUSED, 127.0.0.1:8080)`, or null when it is none of those. */
function inWords(error: unknown, code: string): string | null {
  const words = NETWORK_WORDS[code];
  if (!words) return null;
  const { address, port, hostname } = (error ?? {}) as { address?: string; port?: number; hostname?: string };
  const where = address ? `${address}${port ? `:${port}` : ''}` : hostname;
  return `${words} (${code}${where ? `, ${where}` : ''})`;
}

/** The probe error an exception stands for, in the phase it happened. */
export function classifyProbeError(
  error: unknown,
  phase: 'dns' | 'connect' | 'tls' | 'request',
  timedOut: boolean,
): ProbeError {
  if (timedOut) return { code: 'TIMEOUT', message: 'no complete answer within the timeout' };
  if (error instanceof ProbeFailure) return { code: error.code, message: error.message };
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const message = errorMessage(error);
  if (DNS_CODES.has(code) || phase === 'dns')
    return { code: 'DNS', message: `DNS lookup failed: ${inWords(error, code) ?? message}` };
  if (code === 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED')
    return {
      code: 'TLS',
      message: 'the server requires a client certificate and the check sent none (set mtlsEnabled with one)',
    };
  if (CLIENT_CERTIFICATE_REFUSED.has(code))
    return { code: 'TLS', message: `the server refused the client certificate (${message})` };
  if (phase === 'tls' || code.startsWith('ERR_SSL') || code === 'EPROTO' || code.startsWith('ERR_TLS')) {
    return { code: 'TLS', message: `TLS handshake failed: ${message}` };
  }
  if (phase === 'connect' || CONNECT_CODES.has(code))
    return { code: 'CONNECT', message: inWords(error, code) ?? `connection failed: ${message}` };
  if (code.startsWith('HPE_') || code === 'UND_ERR_INFO')
    return { code: 'PROTOCOL', message: `invalid HTTP answer: ${message}` };
  return { code: 'REQUEST', message };
}
