import type { ProbeError } from '../checks/index.js';

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

/** The probe error an exception stands for, in the phase it happened. */
export function classifyProbeError(
  error: unknown,
  phase: 'dns' | 'connect' | 'tls' | 'request',
  timedOut: boolean,
): ProbeError {
  if (timedOut) return { code: 'TIMEOUT', message: 'no complete answer within the timeout' };
  if (error instanceof ProbeFailure) return { code: error.code, message: error.message };
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  if (DNS_CODES.has(code) || phase === 'dns')
    return { code: 'DNS', message: `DNS lookup failed: ${message}` };
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
    return { code: 'CONNECT', message: `connection failed: ${message}` };
  if (code.startsWith('HPE_') || code === 'UND_ERR_INFO')
    return { code: 'PROTOCOL', message: `invalid HTTP answer: ${message}` };
  return { code: 'REQUEST', message };
}
