import { probeGrpc } from '../../../probe/index.js';
import { certificateEvidence, defineProbeKind } from '../probe-kind.js';
import { grpcFields, grpcSettings } from './grpc.schema.js';
import { grpcVerdict } from './grpc.verdict.js';

export const grpcKind = defineProbeKind({
  kind: 'grpc',
  noun: 'gRPC check',
  feature: 'grpcChecks',
  limit: 'maxGrpcChecksPerWebsite',
  lane: 'fast',
  description:
    'The standard gRPC health check (grpc.health.v1.Health/Check) for `service`, plaintext or TLS, with `metadata`: up on SERVING, down on any other status or a failed call; with TLS the certificate is judged as for HTTPS (not valid: down; expiring within the package’s warning days: degraded). Package feature `grpcChecks`, limit `maxGrpcChecksPerWebsite`.',
  sealedRecords: ['metadata'],
  fields: grpcFields,
  settings: grpcSettings,
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
