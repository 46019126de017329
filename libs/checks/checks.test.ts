import { describe, expect, it } from 'vitest';
import { defaultCheckConfig } from '../websites/index.js';
import type { CheckConfig } from './check-config.js';
import {
  CHECKS,
  type CheckContext,
  type CheckThresholds,
  certificateSummary,
  evaluate,
  statusMatches,
} from './checks.js';
import type { Observation } from './observation.js';

const now = new Date('2026-11-22T12:00:00Z');
const day = 86_400_000;
const alerting: CheckThresholds = {
  responseTimeThresholdMs: 1000,
  sslExpiryWarningDays: 14,
  domainExpiryWarningDays: 30,
};
// A new https website's configuration (status, SSL and response time on), as websites make it.
const baseConfig: CheckConfig = defaultCheckConfig('https://shop.example.com/', () => true);

function observation(overrides: Partial<Observation> = {}): Observation {
  return {
    startedAt: now,
    url: 'https://shop.example.com/',
    finalUrl: 'https://shop.example.com/',
    httpStatus: 200,
    headers: { 'content-type': 'text/html' },
    redirects: [],
    body: Buffer.from('<h1>Welcome to the Shop</h1>'),
    sizeBytes: 28,
    bodyTruncated: false,
    timings: { dns: 1, connect: 2, tls: 3, ttfb: 40, download: 4, total: 50 },
    error: null,
    tls: {
      validFrom: new Date(now.getTime() - 30 * day),
      validTo: new Date(now.getTime() + 60 * day),
      issuer: 'CN=Test CA',
      subject: 'CN=shop.example.com',
      chainTrusted: true,
      chainError: null,
      hostnameMatches: true,
    },
    httpsRedirect: null,
    domain: null,
    ...overrides,
  };
}

const context = (config: Partial<CheckConfig> = {}): CheckContext => ({
  config: { ...baseConfig, ...config },
  alerting,
  now,
});
const run = (name: keyof typeof CHECKS, o: Observation, config: Partial<CheckConfig> = {}) =>
  CHECKS[name].run(o, context(config));

describe('statusMatches', () => {
  it.each<[number, string[], boolean]>([
    [200, ['200-399'], true],
    [399, ['200-399'], true],
    [404, ['200-399'], false],
    [404, ['200', '404'], true],
    [500, ['500-599'], true],
  ])('%i in %j: %s', (status, expected, result) => {
    expect(statusMatches(status, expected)).toBe(result);
  });
});

describe('checks', () => {
  it.each([
    ['status pass', 'status', observation(), {}, 'pass'],
    ['status fail', 'status', observation({ httpStatus: 503 }), {}, 'fail'],
    ['status custom', 'status', observation({ httpStatus: 404 }), { expectedStatusCodes: ['404'] }, 'pass'],
    ['status no response', 'status', observation({ httpStatus: null }), {}, 'skipped'],
    ['ssl pass', 'ssl', observation(), {}, 'pass'],
    [
      'ssl expiring',
      'ssl',
      observation({ tls: { ...observation().tls!, validTo: new Date(now.getTime() + 5 * day) } }),
      {},
      'warn',
    ],
    [
      'ssl expired',
      'ssl',
      observation({ tls: { ...observation().tls!, validTo: new Date(now.getTime() - day) } }),
      {},
      'fail',
    ],
    [
      'ssl untrusted',
      'ssl',
      observation({ tls: { ...observation().tls!, chainTrusted: false, chainError: 'SELF_SIGNED' } }),
      {},
      'fail',
    ],
    [
      'ssl wrong host',
      'ssl',
      observation({ tls: { ...observation().tls!, hostnameMatches: false } }),
      {},
      'fail',
    ],
    [
      'ssl not yet valid',
      'ssl',
      observation({ tls: { ...observation().tls!, validFrom: new Date(now.getTime() + day) } }),
      {},
      'fail',
    ],
    ['ssl on http', 'ssl', observation({ url: 'http://shop.example.com/', tls: null }), {}, 'skipped'],
    [
      'redirect pass',
      'httpsRedirect',
      observation({ httpsRedirect: { status: 301, location: 'https://shop.example.com/', error: null } }),
      {},
      'pass',
    ],
    [
      'redirect relative',
      'httpsRedirect',
      observation({ httpsRedirect: { status: 308, location: '/x', error: null } }),
      {},
      'fail',
    ],
    [
      'redirect other host',
      'httpsRedirect',
      observation({ httpsRedirect: { status: 301, location: 'https://evil.example/', error: null } }),
      {},
      'fail',
    ],
    [
      'redirect to http',
      'httpsRedirect',
      observation({ httpsRedirect: { status: 302, location: 'http://shop.example.com/', error: null } }),
      {},
      'fail',
    ],
    [
      'redirect 200',
      'httpsRedirect',
      observation({ httpsRedirect: { status: 200, location: null, error: null } }),
      {},
      'fail',
    ],
    [
      'redirect error',
      'httpsRedirect',
      observation({
        httpsRedirect: { status: null, location: null, error: { code: 'CONNECT', message: 'refused' } },
      }),
      {},
      'fail',
    ],
    ['size pass', 'size', observation(), { minPageSize: 10, maxPageSize: 100 }, 'pass'],
    ['size small', 'size', observation(), { minPageSize: 100 }, 'fail'],
    [
      'size large',
      'size',
      observation({ sizeBytes: 5000, bodyTruncated: true }),
      { maxPageSize: 1000 },
      'fail',
    ],
    ['time pass', 'responseTime', observation(), {}, 'pass'],
    [
      'time slow',
      'responseTime',
      observation({ timings: { ...observation().timings, total: 1500 } }),
      {},
      'warn',
    ],
    [
      'time website threshold',
      'responseTime',
      observation({ timings: { ...observation().timings, total: 1500 } }),
      { responseTimeThresholdMs: 2000 },
      'pass',
    ],
    ['keyword present', 'keyword', observation(), { keyword: 'welcome' }, 'pass'],
    [
      'keyword case-sensitive',
      'keyword',
      observation(),
      { keyword: 'welcome', keywordCaseSensitive: true },
      'fail',
    ],
    ['keyword missing', 'keyword', observation(), { keyword: 'Checkout' }, 'fail'],
    ['keyword absent ok', 'keyword', observation(), { keyword: 'Error', keywordMode: 'absent' }, 'pass'],
    ['keyword absent fails', 'keyword', observation(), { keyword: 'Shop', keywordMode: 'absent' }, 'fail'],
    [
      'domain pass',
      'domainExpiry',
      observation({
        domain: { name: 'example.com', expiresAt: new Date(now.getTime() + 300 * day), error: null },
      }),
      {},
      'pass',
    ],
    [
      'domain soon',
      'domainExpiry',
      observation({
        domain: { name: 'example.com', expiresAt: new Date(now.getTime() + 10 * day), error: null },
      }),
      {},
      'warn',
    ],
    [
      'domain expired',
      'domainExpiry',
      observation({ domain: { name: 'example.com', expiresAt: new Date(now.getTime() - day), error: null } }),
      {},
      'fail',
    ],
    [
      'domain unknown',
      'domainExpiry',
      observation({ domain: { name: 'example.com', expiresAt: null, error: 'RDAP 404' } }),
      {},
      'skipped',
    ],
  ] as const)('%s', (_label, name, o, config, outcome) => {
    expect(run(name, o, config as Partial<CheckConfig>).outcome).toBe(outcome);
  });
});

describe('certificateSummary (the ssl part of a result)', () => {
  const tls = observation().tls!;
  it.each([
    ['a good certificate', tls, true],
    [
      'an expiring one (a warning, still valid)',
      { ...tls, validTo: new Date(now.getTime() + 5 * day) },
      true,
    ],
    ['an untrusted chain', { ...tls, chainTrusted: false }, false],
    ['another host name', { ...tls, hostnameMatches: false }, false],
    ['an expired one', { ...tls, validTo: new Date(now.getTime() - day) }, false],
    ['one not valid yet', { ...tls, validFrom: new Date(now.getTime() + day) }, false],
  ])('%s: valid is %s, as the SSL check judges it', (_label, certificate, valid) => {
    const summary = certificateSummary(certificate, now);
    expect(summary.valid).toBe(valid);
    expect(summary.valid).toBe(run('ssl', observation({ tls: certificate }), {}).outcome !== 'fail');
    expect(summary.daysLeft).toBe(Math.floor((certificate.validTo.getTime() - now.getTime()) / day));
  });
});

describe('evaluate', () => {
  it('up when every enabled check passes', () => {
    expect(evaluate(observation(), context())).toMatchObject({ status: 'up' });
    expect(evaluate(observation(), context()).checks.map((c) => c.name)).toEqual([
      'status',
      'ssl',
      'responseTime',
    ]);
  });

  it('degraded on warnings only', () => {
    expect(
      evaluate(observation({ timings: { ...observation().timings, total: 5000 } }), context()).status,
    ).toBe('degraded');
  });

  it('down on a failed check or a failed request', () => {
    expect(evaluate(observation({ httpStatus: 500 }), context()).status).toBe('down');
    const failed = observation({
      httpStatus: null,
      body: null,
      sizeBytes: null,
      tls: null,
      error: { code: 'TIMEOUT', message: 'timed out' },
    });
    expect(evaluate(failed, context())).toMatchObject({ status: 'down' });
  });

  it('runs only the enabled checks', () => {
    const names = evaluate(
      observation(),
      context({ checkSslEnabled: false, checkKeywordEnabled: true, keyword: 'Shop' }),
    ).checks.map((c) => c.name);
    expect(names).toEqual(['status', 'responseTime', 'keyword']);
  });
});
