import { isIPv6 } from 'node:net';
import { Client, credentials, status as grpcStatus, Metadata } from '@grpc/grpc-js';
import type { ProbeError, TlsObservation } from '../checks/index.js';
import {
  type ConnectorOptions,
  connectPinned,
  newHopConnection,
  resolveGuarded,
  untilAborted,
} from './pinned-connector.js';
import { classifyProbeError, ProbeFailure } from './probe-error.js';

export interface GrpcProbeRequest {
  host: string;
  port: number;
  tls: boolean;
  /** The service asked about; '' asks about the server as a whole. */
  service: string;
  metadata: Record<string, string>;
  timeoutMs: number;
}

/** grpc.health.v1.HealthCheckResponse.ServingStatus, by number. */
export const SERVING_STATUSES = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;
export type ServingStatus = (typeof SERVING_STATUSES)[number];

export interface GrpcObservation {
  startedAt: Date;
  address: string | null;
  timings: {
    dnsMs: number;
    connectMs: number | null;
    tlsMs: number | null;
    callMs: number | null;
    totalMs: number;
  };
  /** What the health service said; null when the call failed. */
  servingStatus: ServingStatus | null;
  /** The call's gRPC status name when it failed (UNIMPLEMENTED: no health service). */
  grpcStatus: string | null;
  tls: TlsObservation | null;
  /** DNS, BLOCKED_TARGET, CONNECT, TLS, TIMEOUT, GRPC, in words. */
  error: ProbeError | null;
}

export type GrpcProbeOptions = Omit<ConnectorOptions, 'clientCertificate'>;

const HEALTH_CHECK = '/grpc.health.v1.Health/Check';
const roundMs = (ms: number) => Math.round(ms * 100) / 100;

/** HealthCheckRequest {string service = 1}, as protobuf bytes. */
function encodeHealthRequest(service: string): Buffer {
  const name = Buffer.from(service, 'utf8');
  if (name.length === 0) return Buffer.alloc(0);
  const length: number[] = [];
  let rest = name.length;
  while (rest > 0x7f) {
    length.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  length.push(rest);
  return Buffer.concat([Buffer.from([0x0a, ...length]), name]);
}

/** HealthCheckResponse {ServingStatus status = 1}: the status, UNKNOWN when absent; unknown fields skipped. */
export function decodeHealthResponse(bytes: Buffer): ServingStatus {
  let at = 0;
  const varint = () => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[at++];
      if (byte === undefined) throw new Error('truncated varint');
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
      shift += 7;
      if (shift > 63) throw new Error('varint too long');
    }
  };
  let status = 0;
  while (at < bytes.length) {
    const key = varint();
    const wire = key & 7;
    if (key >>> 3 === 1 && wire === 0) status = varint();
    else if (wire === 0) varint();
    else if (wire === 2) {
      const length = varint(); // Read before `at` is: `at += varint()` would add to the old `at`.
      at += length;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new Error(`wire type ${wire}`);
  }
  return SERVING_STATUSES[status] ?? 'UNKNOWN';
}

const statusName = (code: number) =>
  (Object.entries(grpcStatus).find(([, value]) => value === code)?.[0] as string | undefined) ?? String(code);

/**
 * The standard gRPC health check (`grpc.health.v1.Health/Check`) through `@grpc/grpc-js`, to the
 * address the SSRF guard judged (the name kept as authority and TLS server name). With TLS, the
 * certificate is first observed on a handshake of our own (so an expired or untrusted one is
 * reported by the SSL check, as for HTTPS), then the call is made without rejecting it. One
 * deadline; failures come back in `error`.
 */
export async function probeGrpc(
  request: GrpcProbeRequest,
  options: GrpcProbeOptions,
): Promise<GrpcObservation> {
  const startedAt = new Date();
  const started = performance.now();
  const hop = newHopConnection();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new ProbeFailure('TIMEOUT', '')), request.timeoutMs);
  let callMs: number | null = null;
  let servingStatus: ServingStatus | null = null;
  let failedStatus: string | null = null;
  let client: Client | null = null;
  const finish = (error: ProbeError | null): GrpcObservation => ({
    startedAt,
    address: hop.address,
    timings: {
      dnsMs: roundMs(hop.dnsMs),
      connectMs: request.tls ? roundMs(hop.connectMs) : null,
      tlsMs: request.tls && hop.tls ? roundMs(hop.tlsMs) : null,
      callMs: callMs === null ? null : roundMs(callMs),
      totalMs: roundMs(performance.now() - started),
    },
    servingStatus,
    grpcStatus: failedStatus,
    tls: hop.tls,
    error,
  });
  try {
    let address: string;
    if (request.tls) {
      await untilAborted(
        connectPinned(
          { ...options, clientCertificate: null },
          hop,
          { hostname: request.host, port: request.port, tls: { alpn: ['h2'] } },
          abort.signal,
        ),
        abort.signal,
      );
      for (const socket of hop.sockets.toReversed()) socket.destroy();
      address = hop.address as string;
    } else
      address = await untilAborted(
        resolveGuarded(options, hop, request.host, request.port, abort.signal),
        abort.signal,
      );
    const host = request.host.replace(/^\[|\]$/g, '');
    const target = isIPv6(address) ? `ipv6:[${address}]:${request.port}` : `ipv4:${address}:${request.port}`;
    client = new Client(
      target,
      request.tls
        ? credentials.createFromSecureContext(options.tls.contextFor(null), { rejectUnauthorized: false })
        : credentials.createInsecure(),
      {
        'grpc.default_authority': `${host}:${request.port}`,
        // The judged address itself: a proxy from the environment would be another hop.
        'grpc.enable_http_proxy': 0,
        ...(request.tls ? { 'grpc.ssl_target_name_override': host } : {}),
      },
    );
    const metadata = new Metadata();
    for (const [key, value] of Object.entries(request.metadata)) metadata.set(key, value);
    const calling = client;
    const remainingMs = Math.max(1, request.timeoutMs - (performance.now() - started));
    const asked = performance.now();
    const answer = await untilAborted(
      new Promise<Buffer>((resolve, reject) =>
        calling.makeUnaryRequest(
          HEALTH_CHECK,
          (service: string) => encodeHealthRequest(service),
          (bytes: Buffer) => bytes,
          request.service,
          metadata,
          { deadline: Date.now() + remainingMs },
          (error, value) => (error || !value ? reject(error ?? new Error('no answer')) : resolve(value)),
        ),
      ),
      abort.signal,
    );
    callMs = performance.now() - asked;
    servingStatus = decodeHealthResponse(answer);
    return finish(null);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (abort.signal.aborted || code === grpcStatus.DEADLINE_EXCEEDED)
      return finish({
        code: 'TIMEOUT',
        message: `${request.host}:${request.port} did not answer the health check within ${request.timeoutMs} ms`,
      });
    if (error instanceof ProbeFailure) return finish({ code: error.code, message: error.message });
    if (typeof code === 'number') {
      failedStatus = statusName(code);
      const details = String((error as { details?: unknown }).details ?? '').slice(0, 300);
      return finish({
        code: 'GRPC',
        message:
          code === grpcStatus.UNIMPLEMENTED
            ? `${request.host}:${request.port} has no health service (grpc.health.v1.Health: UNIMPLEMENTED)`
            : `the health check failed: ${failedStatus}${details ? ` (${details})` : ''}`,
      });
    }
    return finish(classifyProbeError(hop.tlsAlert ?? error, hop.phase, false));
  } finally {
    clearTimeout(timer);
    client?.close();
    for (const socket of hop.sockets.toReversed()) socket.destroy();
  }
}
