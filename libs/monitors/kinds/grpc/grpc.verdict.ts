import type { GrpcObservation } from '../../../probe/index.js';
import { certificateCheck, downVerdict, type MonitorVerdict, verdictWithCertificate } from '../../verdict.js';
import type { GrpcSettings } from './grpc.schema.js';

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
