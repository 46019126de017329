import { describe, expect, it } from 'vitest';
import { dnsEvents, dnsVerdict } from './dns.verdict.js';

const at = (iso: string) => new Date(iso);

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
