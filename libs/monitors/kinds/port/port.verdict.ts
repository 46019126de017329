import type { PortObservation } from '../../../probe/index.js';
import { certificateCheck, downVerdict, type MonitorVerdict, verdictWithCertificate } from '../../verdict.js';
import type { PortSettings } from './port.schema.js';

/** A port check's verdict: connected (and its banner and certificate as asked), else down with why. */
export function portVerdict(
  check: Pick<PortSettings, 'tls' | 'expectBanner'>,
  observation: Pick<PortObservation, 'error' | 'tls' | 'bannerMatched' | 'banner'>,
  alerting: { sslExpiryWarningDays: number },
  now: Date,
): MonitorVerdict {
  const ssl = check.tls ? certificateCheck(observation.tls, alerting, now) : null;
  const banner =
    check.expectBanner !== null && observation.bannerMatched === false
      ? downVerdict(
          'BANNER_MISMATCH',
          `the banner did not start with "${check.expectBanner}": got ${observation.banner === null || observation.banner === '' ? 'nothing' : `"${observation.banner}"`}`,
        )
      : null;
  return verdictWithCertificate(observation.error, ssl, banner);
}
