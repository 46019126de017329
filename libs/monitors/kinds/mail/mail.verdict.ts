import type { MailObservation } from '../../../probe/index.js';
import { certificateCheck, verdictWithCertificate } from '../../verdict.js';
import type { MailSettings } from './mail.schema.js';

/** The greeting (and STARTTLS) failing is down; with TLS the certificate judged as for HTTPS. */
export function mailVerdict(
  s: MailSettings,
  seen: MailObservation,
  alerting: { sslExpiryWarningDays: number },
  now: Date,
) {
  const ssl = s.security === 'none' ? null : certificateCheck(seen.tls, alerting, now);
  return verdictWithCertificate(seen.error, ssl);
}
