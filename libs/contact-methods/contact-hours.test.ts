import { describe, expect, it } from 'vitest';
import { accepts } from './contact-hours.js';
import { addressProblem } from './contact-method.schema.js';
import { checkCode, MAX_CODE_FAILURES, newCode, sendRefusal } from './verification-code.js';

const verified = new Date('2026-01-01T00:00:00Z');

describe('contact hours', () => {
  const weekdays = { timezone: 'Europe/Berlin', days: [1, 2, 3, 4, 5], from: '08:00', to: '18:00' };

  it('an unverified method takes nothing', () => {
    expect(accepts({ verifiedAt: null, events: ['alert'], hours: null }, 'alert', new Date())).toBe(false);
  });

  it('takes only the events it wants', () => {
    const method = { verifiedAt: verified, events: ['alert' as const], hours: null };
    expect(accepts(method, 'alert', new Date())).toBe(true);
    expect(accepts(method, 'recovery', new Date())).toBe(false);
  });

  it('office hours in the method’s zone (winter and summer time)', () => {
    const method = { verifiedAt: verified, events: ['alert' as const], hours: weekdays };
    // Monday 2026-01-12 07:30 UTC is 08:30 in Berlin (CET).
    expect(accepts(method, 'alert', new Date('2026-01-12T07:30:00Z'))).toBe(true);
    expect(accepts(method, 'alert', new Date('2026-01-12T06:30:00Z'))).toBe(false);
    // Monday 2026-07-13 06:30 UTC is 08:30 in Berlin (CEST).
    expect(accepts(method, 'alert', new Date('2026-07-13T06:30:00Z'))).toBe(true);
    expect(accepts(method, 'alert', new Date('2026-07-13T16:30:00Z'))).toBe(false);
    // Saturday.
    expect(accepts(method, 'alert', new Date('2026-01-17T10:00:00Z'))).toBe(false);
  });

  it('night hours over midnight belong to the day they start', () => {
    const nights = { timezone: 'UTC', days: [5], from: '22:00', to: '06:00' };
    const method = { verifiedAt: verified, events: ['alert' as const], hours: nights };
    expect(accepts(method, 'alert', new Date('2026-01-16T23:00:00Z'))).toBe(true); // Friday night
    expect(accepts(method, 'alert', new Date('2026-01-17T05:59:00Z'))).toBe(true); // Saturday small hours
    expect(accepts(method, 'alert', new Date('2026-01-17T06:00:00Z'))).toBe(false);
    expect(accepts(method, 'alert', new Date('2026-01-15T23:00:00Z'))).toBe(false); // Thursday night
  });
});

describe('verification codes', () => {
  const now = new Date('2026-03-01T12:00:00Z');

  it('the right code passes, a wrong one not, an old one expires, five failures exhaust it', () => {
    const { code, pending } = newCode(now);
    expect(code).toMatch(/^\d{6}$/);
    expect(checkCode(pending, code, now)).toBe('right');
    const wrong = code === '000000' ? '000001' : '000000';
    expect(checkCode(pending, wrong, now)).toBe('wrong');
    expect(checkCode(pending, code, new Date(now.getTime() + 11 * 60_000))).toBe('expired');
    expect(checkCode({ ...pending, failures: MAX_CODE_FAILURES }, code, now)).toBe('exhausted');
    expect(checkCode(null, code, now)).toBe('none');
  });

  it('one code a minute, five an hour', () => {
    expect(sendRefusal([], now)).toBeNull();
    expect(sendRefusal([new Date(now.getTime() - 30_000)], now)?.reason).toMatch(/minute/);
    const five = [50, 40, 30, 20, 10].map((m) => new Date(now.getTime() - m * 60_000));
    expect(sendRefusal(five, now)?.reason).toMatch(/5 codes/);
    expect(sendRefusal(five.slice(1), now)).toBeNull();
  });
});

describe('addresses', () => {
  it('each type names what it wants', () => {
    expect(addressProblem('sms', '+4915112345678')).toBeNull();
    expect(addressProblem('sms', '015112345678')).toMatch(/E\.164/);
    expect(addressProblem('email', 'ops@agency.example')).toBeNull();
    expect(addressProblem('email', 'not-mail')).toMatch(/e-mail/);
    expect(addressProblem('ntfy', 'webmon-alerts_1')).toBeNull();
    expect(addressProblem('ntfy', 'a b')).toMatch(/topic/);
    expect(addressProblem('pushover', 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG')).toBeNull();
    expect(addressProblem('telegram', '-1001234567890')).toBeNull();
  });
});
