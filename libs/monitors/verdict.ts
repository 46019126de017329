import type { CheckResult, HealthStatus, TlsObservation } from '../checks/index.js';
import { certificateSummary } from '../checks/index.js';

/** What one evaluation says, before the monitor state decides what it leads to. */
export interface MonitorVerdict {
  status: HealthStatus;
  /** What failed, in words (null when up). */
  cause: string | null;
  /** A short name of the failure ("NXDOMAIN", "HEARTBEAT_MISSED"), carried by the event's result. */
  code: string | null;
  /** Checks the event's result carries (a certificate: expiry events come from it). */
  checks: CheckResult[];
}

/** A check passed: up, with the checks it carries. */
export const upVerdict = (checks: CheckResult[] = []): MonitorVerdict => ({
  status: 'up',
  cause: null,
  code: null,
  checks,
});
export const downVerdict = (code: string, cause: string, checks: CheckResult[] = []): MonitorVerdict => ({
  status: 'down',
  cause,
  code,
  checks,
});

/**
 * The certificate's verdict for kinds that speak TLS, as the port check judges it: not valid
 * (untrusted, expired, another host) is down, expiring within the warning days degraded.
 */
export function certificateCheck(
  tls: TlsObservation | null,
  alerting: { sslExpiryWarningDays: number },
  now: Date,
): CheckResult | null {
  if (!tls) return null;
  const certificate = certificateSummary(tls, now);
  const outcome = !certificate.valid
    ? 'fail'
    : certificate.daysLeft <= alerting.sslExpiryWarningDays
      ? 'warn'
      : 'pass';
  return {
    name: 'ssl',
    outcome,
    message: !certificate.valid
      ? `certificate not valid (${tls.chainError ?? (tls.hostnameMatches ? 'expired or not yet valid' : 'another host name')})`
      : `certificate expires in ${certificate.daysLeft} days`,
    value: certificate.daysLeft,
  };
}

/** A verdict once the probe's own failure is known: the error, else the certificate's word, else up. */
export function verdictWithCertificate(
  error: { code: string; message: string } | null,
  ssl: CheckResult | null,
  otherwise: MonitorVerdict | null = null,
): MonitorVerdict {
  const checks = ssl ? [ssl] : [];
  if (error) return downVerdict(error.code, error.message, checks);
  if (otherwise && otherwise.status !== 'up')
    return { ...otherwise, checks: [...checks, ...otherwise.checks] };
  if (ssl?.outcome === 'fail') return downVerdict('TLS_CERTIFICATE', ssl.message, checks);
  if (ssl?.outcome === 'warn')
    return { status: 'degraded', cause: ssl.message, code: 'TLS_EXPIRING', checks };
  return upVerdict(checks);
}
