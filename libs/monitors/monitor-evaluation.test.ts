import { describe, expect, it } from 'vitest';
import type { TlsObservation } from '../checks/index.js';
import { dnsEvents, dnsVerdict, heartbeatAt, pingVerdict, portVerdict } from './monitor-evaluation.js';

const at = (iso: string) => new Date(iso);

describe('heartbeat verdicts', () => {
  const heartbeat = {
    schedule: { periodSeconds: 60 },
    graceSeconds: 30,
    maxRunSeconds: null,
    createdAt: at('2026-11-25T10:00:00Z'),
    lastSuccessAt: null,
    lastStartAt: null,
    quietSince: null,
  };

  it('waits until the next expected ping plus grace, then says what was missed', () => {
    expect(heartbeatAt(heartbeat, at('2026-11-25T10:01:29Z'))).toEqual({
      deadline: at('2026-11-25T10:01:30Z'),
      verdict: null,
    });
    const late = heartbeatAt(heartbeat, at('2026-11-25T10:01:30Z'));
    expect(late.verdict).toMatchObject({ status: 'down', code: 'HEARTBEAT_MISSED' });
    expect(late.verdict?.cause).toBe(
      'no ping yet: one was expected by 2026-11-25T10:01:00Z (grace 30 s, counted from 2026-11-25T10:00:00Z)',
    );
  });

  it('counts a resumed heartbeat from its pause, not from a success long before', () => {
    const resumed = {
      ...heartbeat,
      lastSuccessAt: at('2026-11-01T00:00:00Z'),
      quietSince: at('2026-11-25T10:00:00Z'),
    };
    expect(heartbeatAt(resumed, at('2026-11-25T10:01:00Z')).verdict).toBeNull();
  });

  it('a run started past maxRunSeconds is late before the period is', () => {
    const running = { ...heartbeat, maxRunSeconds: 10, lastStartAt: at('2026-11-25T10:00:05Z') };
    const verdict = heartbeatAt(running, at('2026-11-25T10:00:15Z')).verdict;
    expect(verdict).toMatchObject({ code: 'HEARTBEAT_OVERRAN' });
    expect(verdict?.cause).toBe('a run started at 2026-11-25T10:00:05Z has not finished within 10 s');
  });

  it('a ping: success up, failure down with its exit code and the log’s first line', () => {
    expect(pingVerdict({ kind: 'success', exitCode: null, body: '' }).status).toBe('up');
    expect(
      pingVerdict({ kind: 'failure', exitCode: 2, body: '\n  rsync: connection refused\nmore' }).cause,
    ).toBe('the job exited with code 2: rsync: connection refused');
    expect(pingVerdict({ kind: 'failure', exitCode: null, body: '' }).cause).toBe(
      'the job reported a failure',
    );
  });
});

describe('DNS verdicts', () => {
  const now = at('2026-11-25T12:00:00Z');
  const check = {
    recordType: 'A' as const,
    host: 'shop.example',
    expected: ['192.0.2.1', '192.0.2.2'],
    learned: null,
    pendingChange: null,
    relearnAfterSeconds: 3600,
  };

  it('expected values compare as a set; a failure is named', () => {
    expect(dnsVerdict(check, { values: ['192.0.2.1', '192.0.2.2'], error: null }, now).status).toBe('up');
    expect(dnsVerdict(check, { values: ['192.0.2.1'], error: null }, now).cause).toBe(
      'A shop.example: expected 192.0.2.1, 192.0.2.2, got 192.0.2.1',
    );
    const failed = dnsVerdict(
      check,
      { values: [], error: { code: 'SERVFAIL', message: 'SERVFAIL: the server failed' } },
      now,
    );
    expect(failed).toMatchObject({ status: 'down', code: 'SERVFAIL' });
  });

  it("'unchanged' learns the first answer, tells a change once with both sets, learns it after the period", () => {
    const unchanged = { ...check, expected: 'unchanged' as const };
    const first = dnsVerdict(unchanged, { values: ['192.0.2.1'], error: null }, now);
    expect(first).toMatchObject({ status: 'up', memory: { learned: { values: ['192.0.2.1'], at: now } } });
    const learned = { ...unchanged, ...first.memory };
    const changed = dnsVerdict(learned, { values: ['192.0.2.9'], error: null }, now);
    expect(changed).toMatchObject({
      status: 'down',
      code: 'DNS_CHANGED',
      changed: { previous: ['192.0.2.1'], current: ['192.0.2.9'] },
      memory: { pendingChange: { previous: ['192.0.2.1'], current: ['192.0.2.9'], since: now } },
    });
    expect(dnsEvents([{ type: 'website.down', previousStatus: 'up', status: 'down' }], changed)).toEqual([
      { type: 'dns.changed', previousStatus: 'up', status: 'down' },
    ]);
    const pending = { ...learned, ...changed.memory };
    const hourLater = new Date(now.getTime() + 3600_000);
    expect(
      dnsVerdict(pending, { values: ['192.0.2.9'], error: null }, new Date(hourLater.getTime() - 1)).status,
    ).toBe('down');
    expect(dnsVerdict(pending, { values: ['192.0.2.9'], error: null }, hourLater)).toMatchObject({
      status: 'up',
      memory: { learned: { values: ['192.0.2.9'] }, pendingChange: null },
    });
  });
});

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
