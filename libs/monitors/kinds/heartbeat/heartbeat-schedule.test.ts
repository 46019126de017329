import { describe, expect, it } from 'vitest';
import { cronProblem, expectedAfter, heartbeatDeadline } from './heartbeat-schedule.js';

const at = (iso: string) => new Date(iso);
const gaps = (dates: Date[]) =>
  dates.slice(1).map((d, i) => (d.getTime() - (dates[i] as Date).getTime()) / 1000);

describe('heartbeat schedules', () => {
  it('a period: the next pings every period after the last success', () => {
    expect(expectedAfter({ periodSeconds: 10 }, at('2026-11-25T10:00:00Z'), 3)).toEqual([
      at('2026-11-25T10:00:10Z'),
      at('2026-11-25T10:00:20Z'),
      at('2026-11-25T10:00:30Z'),
    ]);
  });

  it('every minute in Europe/Berlin across both DST changes: a minute apart in real time, none skipped or doubled', () => {
    const schedule = { cron: '*/1 * * * *', timezone: 'Europe/Berlin' };
    // 2026-03-29 02:00 CET becomes 03:00 CEST (01:00 UTC).
    const spring = expectedAfter(schedule, at('2026-03-29T00:57:30Z'), 5);
    expect(spring[0]).toEqual(at('2026-03-29T00:58:00Z'));
    expect(gaps(spring)).toEqual([60, 60, 60, 60]);
    // 2026-10-25 03:00 CEST becomes 02:00 CET (01:00 UTC): the repeated hour is still every minute.
    const autumn = expectedAfter(schedule, at('2026-10-25T00:57:30Z'), 5);
    expect(autumn[0]).toEqual(at('2026-10-25T00:58:00Z'));
    expect(gaps(autumn)).toEqual([60, 60, 60, 60]);
  });

  it('a daily job at 02:30 Berlin: 01:30 UTC in winter, 00:30 UTC in summer', () => {
    const schedule = { cron: '30 2 * * *', timezone: 'Europe/Berlin' };
    expect(expectedAfter(schedule, at('2026-01-10T12:00:00Z'), 1)).toEqual([at('2026-01-11T01:30:00Z')]);
    expect(expectedAfter(schedule, at('2026-07-10T12:00:00Z'), 1)).toEqual([at('2026-07-11T00:30:00Z')]);
  });

  it('refuses what is not a five-field cron expression, in words', () => {
    expect(cronProblem('*/5 * * * *', 'UTC')).toBeNull();
    expect(cronProblem('* * * *', 'UTC')).toMatch(/five fields/);
    expect(cronProblem('0 0 * * * *', 'UTC')).toMatch(/five fields/);
    expect(cronProblem('61 * * * *', 'UTC')).toMatch(/not a cron expression/);
  });

  it('the deadline: the next expected ping plus grace, from the creation before the first ping', () => {
    const timing = { schedule: { periodSeconds: 10 }, graceSeconds: 5, maxRunSeconds: null };
    const createdAt = at('2026-11-25T10:00:00Z');
    expect(heartbeatDeadline(timing, { createdAt, lastSuccessAt: null, lastStartAt: null })).toMatchObject({
      at: at('2026-11-25T10:00:15Z'),
      reason: 'missed',
    });
    expect(
      heartbeatDeadline(timing, { createdAt, lastSuccessAt: at('2026-11-25T10:01:00Z'), lastStartAt: null })
        .at,
    ).toEqual(at('2026-11-25T10:01:15Z'));
  });

  it('a run started and not finished within maxRunSeconds is late sooner; a finished one is not', () => {
    const timing = { schedule: { periodSeconds: 3600 }, graceSeconds: 300, maxRunSeconds: 60 };
    const createdAt = at('2026-11-25T10:00:00Z');
    const running = {
      createdAt,
      lastSuccessAt: at('2026-11-25T10:00:00Z'),
      lastStartAt: at('2026-11-25T10:30:00Z'),
    };
    expect(heartbeatDeadline(timing, running)).toMatchObject({
      at: at('2026-11-25T10:31:00Z'),
      reason: 'overran',
    });
    const finished = { ...running, lastSuccessAt: at('2026-11-25T10:30:40Z') };
    expect(heartbeatDeadline(timing, finished)).toMatchObject({
      at: at('2026-11-25T11:35:40Z'),
      reason: 'missed',
    });
  });
});
