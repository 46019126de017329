import { describe, expect, it } from 'vitest';
import type { TlsObservation } from '../../../checks/index.js';
import { portVerdict } from './port.verdict.js';

const at = (iso: string) => new Date(iso);

describe('port verdicts', () => {
  const now = at('2026-11-25T12:00:00Z');
  const tls = (validTo: Date, chainTrusted = true): TlsObservation => ({
    validFrom: at('2026-01-01T00:00:00Z'),
    validTo,
    issuer: 'CN=CA',
    subject: 'CN=mail',
    chainTrusted,
    chainError: chainTrusted ? null : 'self-signed certificate',
    hostnameMatches: true,
  });
  const open = { error: null, tls: null, bannerMatched: null, banner: null };

  it('connected is up; a refused connection or a wrong banner is down', () => {
    expect(
      portVerdict({ tls: false, expectBanner: null }, open, { sslExpiryWarningDays: 14 }, now).status,
    ).toBe('up');
    expect(
      portVerdict(
        { tls: false, expectBanner: null },
        { ...open, error: { code: 'CONNECT', message: 'connection refused' } },
        { sslExpiryWarningDays: 14 },
        now,
      ),
    ).toMatchObject({ status: 'down', cause: 'connection refused' });
    expect(
      portVerdict(
        { tls: false, expectBanner: '220' },
        { ...open, bannerMatched: false, banner: '554 go away' },
        { sslExpiryWarningDays: 14 },
        now,
      ).cause,
    ).toBe('the banner did not start with "220": got "554 go away"');
  });

  it('a certificate near its end warns (degraded, the ssl check warns), an untrusted one is down', () => {
    const soon = portVerdict(
      { tls: true, expectBanner: null },
      { ...open, tls: tls(new Date(now.getTime() + 5 * 86_400_000 + 1000)) },
      { sslExpiryWarningDays: 14 },
      now,
    );
    expect(soon).toMatchObject({ status: 'degraded', checks: [{ name: 'ssl', outcome: 'warn', value: 5 }] });
    const untrusted = portVerdict(
      { tls: true, expectBanner: null },
      { ...open, tls: tls(new Date(now.getTime() + 90 * 86_400_000), false) },
      { sslExpiryWarningDays: 14 },
      now,
    );
    expect(untrusted).toMatchObject({ status: 'down', code: 'TLS_CERTIFICATE' });
  });
});
