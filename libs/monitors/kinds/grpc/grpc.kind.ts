import { z } from 'zod';
import { type GrpcObservation, probeGrpc } from '../../../probe/index.js';
import { hostField } from '../../monitor-common.js';
import { certificateCheck, downVerdict, type MonitorVerdict, verdictWithCertificate } from '../../verdict.js';
import { certificateEvidence, defineProbeKind } from '../probe-kind.js';

/** Metadata keys as gRPC allows them (lowercase ASCII; `-bin` binary values are not taken). */
const METADATA_KEY = /^[0-9a-z_.-]{1,64}$/;
/** HTTP/2 connection headers and those the call sets itself: sent as metadata, they break the call. */
const RESERVED_KEYS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'host',
  'te',
  'content-type',
  'user-agent',
]);

const fields = {
  host: hostField.describe("The gRPC server (default: the website's host)"),
  port: z.number().int().min(1).max(65_535),
  tls: z.boolean().describe('TLS (the certificate checked as for HTTPS); false: plaintext HTTP/2'),
  service: z.string().max(200).describe("The service asked about ('' : the server as a whole)"),
  metadata: z
    .record(
      z
        .string()
        .regex(METADATA_KEY, 'must be a lowercase gRPC metadata key')
        .refine(
          (key) => !key.endsWith('-bin') && !key.startsWith('grpc-') && !RESERVED_KEYS.has(key),
          'binary (-bin), grpc- and HTTP/2 connection keys are not taken',
        ),
      z
        .string()
        .max(1000)
        .refine((value) => !/[\r\n]/.test(value), 'must be one line'),
    )
    .refine((metadata) => Object.keys(metadata).length <= 20, 'at most 20 entries')
    .describe('Sent with the call (e.g. an API key header)'),
};

const settings = z.strictObject({
  host: fields.host.optional(),
  port: fields.port,
  tls: fields.tls.default(false),
  service: fields.service.default(''),
  metadata: fields.metadata.default({}),
});
type GrpcSettings = z.output<typeof settings>;

/** SERVING is up; any other answer or a failed call is down; the certificate judged as HTTPS's. */
export function grpcVerdict(
  s: GrpcSettings,
  seen: GrpcObservation,
  alerting: { sslExpiryWarningDays: number },
  now: Date,
): MonitorVerdict {
  const ssl = s.tls ? certificateCheck(seen.tls, alerting, now) : null;
  const serving =
    seen.error || seen.servingStatus === 'SERVING'
      ? null
      : downVerdict(
          'GRPC_NOT_SERVING',
          `the health service says ${seen.servingStatus}${s.service ? ` for ${s.service}` : ''}`,
        );
  return verdictWithCertificate(seen.error, ssl, serving);
}

export const grpcKind = defineProbeKind({
  kind: 'grpc',
  noun: 'gRPC check',
  feature: 'grpcChecks',
  limit: 'maxGrpcChecksPerWebsite',
  lane: 'fast',
  description:
    'The standard gRPC health check (grpc.health.v1.Health/Check) for `service`, plaintext or TLS, with `metadata`: up on SERVING, down on any other status or a failed call; with TLS the certificate is judged as for HTTPS (not valid: down; expiring within the package’s warning days: degraded). Package feature `grpcChecks`, limit `maxGrpcChecksPerWebsite`.',
  sealedRecords: ['metadata'],
  fields,
  settings,
  hostOf: (s) => s.host ?? null,
  defaultName: (s) => `gRPC ${s.service || s.host || ''}`.trim(),
  probe: (s, context) =>
    probeGrpc(
      {
        host: s.host ?? '',
        port: s.port,
        tls: s.tls,
        service: s.service,
        metadata: s.metadata,
        timeoutMs: context.timeoutMs,
      },
      context.probe,
    ),
  verdict: (s, seen, context, now) => grpcVerdict(s, seen, context.alerting, now),
  evidence: (seen) => ({
    servingStatus: seen.servingStatus,
    grpcStatus: seen.grpcStatus,
    certificate: certificateEvidence(seen.tls, seen.startedAt),
    ...(seen.error ? { error: seen.error } : {}),
  }),
  timings: (seen) => seen.timings,
  tls: (seen) => seen.tls,
});
