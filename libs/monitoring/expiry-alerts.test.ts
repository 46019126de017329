import { describe, expect, it } from 'vitest';
import { type ExpiryMarks, expiryCrossings, NO_EXPIRY_MARKS } from './expiry-alerts.js';

const ssl = (outcome: 'pass' | 'warn' | 'fail' | 'skipped') => ({ name: 'ssl' as const, outcome });
const domain = (outcome: 'pass' | 'warn' | 'fail' | 'skipped') => ({
  name: 'domainExpiry' as const,
  outcome,
});

/** Runs results through the marks and collects the events, as the runner does. */
function run(...results: Array<Array<ReturnType<typeof ssl> | ReturnType<typeof domain>>>) {
  let marks: ExpiryMarks = NO_EXPIRY_MARKS;
  const events: string[][] = [];
  for (const checks of results) {
    const crossing = expiryCrossings(marks, checks);
    marks = crossing.marks;
    events.push(crossing.events);
  }
  return { marks, events };
}

describe('expiryCrossings', () => {
  it('tells an expiring certificate once, not on every check', () => {
    expect(run([ssl('pass')], [ssl('warn')], [ssl('warn')], [ssl('warn')]).events).toEqual([
      [],
      ['ssl.expiring'],
      [],
      [],
    ]);
  });

  it('tells again after a renewal and a new crossing, and tells invalid apart', () => {
    expect(run([ssl('warn')], [ssl('pass')], [ssl('warn')], [ssl('fail')], [ssl('fail')]).events).toEqual([
      ['ssl.expiring'],
      [],
      ['ssl.expiring'],
      ['ssl.invalid'],
      [],
    ]);
  });

  it('a skipped check (request failed) changes nothing', () => {
    const { events, marks } = run([ssl('warn')], [ssl('skipped')], [ssl('warn')]);
    expect(events).toEqual([['ssl.expiring'], [], []]);
    expect(marks.ssl).toBe('expiring');
  });

  it('a domain expiring or expired is told once', () => {
    expect(
      run([domain('pass')], [domain('warn')], [domain('fail')], [domain('pass')], [domain('fail')]).events,
    ).toEqual([[], ['domain.expiring'], [], [], ['domain.expiring']]);
  });

  it('both in one result', () => {
    expect(run([ssl('fail'), domain('warn')]).events).toEqual([['ssl.invalid', 'domain.expiring']]);
  });
});
