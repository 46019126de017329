import { describe, expect, it } from 'vitest';
import { maintenanceSpan, spanBoundary, spanCovers } from './maintenance-span.js';
import { activeOccurrence, isKnownTimezone, occurrences, type WindowSchedule } from './recurrence.js';

const d = (iso: string) => new Date(iso);
const take = (schedule: WindowSchedule, from: Date, n: number) => {
  const list = [];
  for (const occurrence of occurrences(schedule, from)) {
    // The generator starts early enough to include a window still running at `from`.
    if (occurrence.endsAt.getTime() <= from.getTime()) continue;
    list.push([occurrence.startsAt.toISOString(), occurrence.endsAt.toISOString()]);
    if (list.length === n) break;
  }
  return list;
};

describe('daily windows keep their wall-clock times across DST', () => {
  // 02:00–04:00 local in Berlin, first on Wednesday 2026-03-25 (CET, UTC+1).
  const berlin: WindowSchedule = {
    startsAt: d('2026-03-25T01:00:00Z'),
    endsAt: d('2026-03-25T03:00:00Z'),
    timezone: 'Europe/Berlin',
    recurrence: { frequency: 'daily', interval: 1 },
  };

  it('Europe/Berlin spring forward (2026-03-29): the skipped 02:00 start moves to 03:00', () => {
    expect(take(berlin, d('2026-03-28T00:00:00Z'), 3).slice(-2)).toEqual([
      ['2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z'],
      ['2026-03-30T00:00:00.000Z', '2026-03-30T02:00:00.000Z'],
    ]);
  });

  it('Europe/Berlin fall back (2026-10-25): 02:00 happens twice; the later one keeps the window 2 h long', () => {
    expect(take(berlin, d('2026-10-24T00:00:00Z'), 3)).toEqual([
      ['2026-10-24T00:00:00.000Z', '2026-10-24T02:00:00.000Z'],
      ['2026-10-25T01:00:00.000Z', '2026-10-25T03:00:00.000Z'],
      ['2026-10-26T01:00:00.000Z', '2026-10-26T03:00:00.000Z'],
    ]);
  });

  // 22:00–23:30 New York, first on 2026-03-01 (EST, UTC−5).
  const newYork: WindowSchedule = {
    startsAt: d('2026-03-02T03:00:00Z'),
    endsAt: d('2026-03-02T04:30:00Z'),
    timezone: 'America/New_York',
    recurrence: { frequency: 'daily', interval: 1 },
  };

  it('America/New_York spring forward (2026-03-08): 22:00 local moves from 03:00Z to 02:00Z', () => {
    expect(take(newYork, d('2026-03-07T00:00:00Z'), 3)).toEqual([
      ['2026-03-07T03:00:00.000Z', '2026-03-07T04:30:00.000Z'],
      ['2026-03-08T03:00:00.000Z', '2026-03-08T04:30:00.000Z'],
      ['2026-03-09T02:00:00.000Z', '2026-03-09T03:30:00.000Z'],
    ]);
  });

  it('America/New_York fall back (2026-11-01): back to 03:00Z', () => {
    expect(take(newYork, d('2026-10-31T00:00:00Z'), 3)).toEqual([
      ['2026-10-31T02:00:00.000Z', '2026-10-31T03:30:00.000Z'],
      ['2026-11-01T02:00:00.000Z', '2026-11-01T03:30:00.000Z'],
      ['2026-11-02T03:00:00.000Z', '2026-11-02T04:30:00.000Z'],
    ]);
  });

  it('every 3 days, stopping at until (inclusive of a start on it)', () => {
    const schedule: WindowSchedule = {
      startsAt: d('2026-01-01T10:00:00Z'),
      endsAt: d('2026-01-01T11:00:00Z'),
      timezone: 'UTC',
      recurrence: { frequency: 'daily', interval: 3, until: d('2026-01-07T10:00:00Z') },
    };
    expect(take(schedule, d('2025-12-01T00:00:00Z'), 10).map(([start]) => start)).toEqual([
      '2026-01-01T10:00:00.000Z',
      '2026-01-04T10:00:00.000Z',
      '2026-01-07T10:00:00.000Z',
    ]);
  });

  it('starts near `from` for a window first set long ago', () => {
    const old = { ...berlin, startsAt: d('2016-03-25T01:00:00Z'), endsAt: d('2016-03-25T03:00:00Z') };
    expect(take(old, d('2026-06-10T12:00:00Z'), 1)).toEqual([
      ['2026-06-11T00:00:00.000Z', '2026-06-11T02:00:00.000Z'],
    ]);
  });
});

describe('weekly and monthly windows', () => {
  it('every second week on Monday, Wednesday and Friday', () => {
    const schedule: WindowSchedule = {
      startsAt: d('2026-11-02T18:00:00Z'), // a Monday
      endsAt: d('2026-11-02T19:00:00Z'),
      timezone: 'UTC',
      recurrence: { frequency: 'weekly', interval: 2, byWeekday: ['FR', 'MO', 'WE'] },
    };
    expect(take(schedule, d('2026-11-01T00:00:00Z'), 6).map(([start]) => start?.slice(0, 10))).toEqual([
      '2026-11-02',
      '2026-11-04',
      '2026-11-06',
      '2026-11-16',
      '2026-11-18',
      '2026-11-20',
    ]);
  });

  it('weekly without weekdays repeats the first window’s weekday', () => {
    const schedule: WindowSchedule = {
      startsAt: d('2026-11-05T08:00:00Z'), // Thursday
      endsAt: d('2026-11-05T09:00:00Z'),
      timezone: 'Europe/Berlin',
      recurrence: { frequency: 'weekly', interval: 1 },
    };
    expect(take(schedule, d('2026-11-01T00:00:00Z'), 2).map(([start]) => start)).toEqual([
      '2026-11-05T08:00:00.000Z',
      '2026-11-12T08:00:00.000Z',
    ]);
  });

  it('monthly on the 31st skips months without one', () => {
    const schedule: WindowSchedule = {
      startsAt: d('2026-01-31T22:00:00Z'),
      endsAt: d('2026-01-31T23:00:00Z'),
      timezone: 'UTC',
      recurrence: { frequency: 'monthly', interval: 1 },
    };
    expect(take(schedule, d('2026-01-01T00:00:00Z'), 4).map(([start]) => start?.slice(0, 10))).toEqual([
      '2026-01-31',
      '2026-03-31',
      '2026-05-31',
      '2026-07-31',
    ]);
  });

  it('monthly keeps local time across DST (Berlin, 1st of the month 09:00)', () => {
    const schedule: WindowSchedule = {
      startsAt: d('2026-02-01T08:00:00Z'),
      endsAt: d('2026-02-01T10:00:00Z'),
      timezone: 'Europe/Berlin',
      recurrence: { frequency: 'monthly', interval: 2 },
    };
    expect(take(schedule, d('2026-01-01T00:00:00Z'), 3).map(([start]) => start)).toEqual([
      '2026-02-01T08:00:00.000Z',
      '2026-04-01T07:00:00.000Z',
      '2026-06-01T07:00:00.000Z',
    ]);
  });
});

describe('activeOccurrence and the next boundary', () => {
  const nightly: WindowSchedule = {
    startsAt: d('2026-11-20T23:00:00Z'),
    endsAt: d('2026-11-21T01:00:00Z'),
    timezone: 'UTC',
    recurrence: { frequency: 'daily', interval: 1 },
  };
  const oneOff: WindowSchedule = {
    startsAt: d('2026-12-01T10:00:00Z'),
    endsAt: d('2026-12-01T12:00:00Z'),
    timezone: 'UTC',
    recurrence: null,
  };

  it.each([
    [nightly, '2026-11-22T23:30:00Z', '2026-11-22T23:00:00.000Z'],
    [nightly, '2026-11-23T00:59:59Z', '2026-11-22T23:00:00.000Z'],
    [nightly, '2026-11-23T01:00:00Z', null],
    [nightly, '2026-11-20T22:59:59Z', null],
    [oneOff, '2026-12-01T11:00:00Z', '2026-12-01T10:00:00.000Z'],
    [oneOff, '2026-12-01T12:00:00Z', null],
  ])('%# active at %s → %s', (schedule, at, start) => {
    expect(activeOccurrence(schedule, d(at))?.startsAt.toISOString() ?? null).toBe(start);
  });

  it.each([
    [nightly, '2026-11-22T12:00:00Z', { at: '2026-11-22T23:00:00.000Z', kind: 'start' }],
    [nightly, '2026-11-22T23:30:00Z', { at: '2026-11-23T01:00:00.000Z', kind: 'end' }],
    [oneOff, '2026-12-01T10:00:00Z', { at: '2026-12-01T12:00:00.000Z', kind: 'end' }],
    [oneOff, '2026-12-01T12:00:00Z', null],
  ])('%# next boundary after %s', (schedule, after, expected) => {
    const at = d(after);
    const span = maintenanceSpan([{ ...schedule, id: 1 }], at);
    const boundary = spanBoundary(span, at);
    expect(boundary && { at: boundary.toISOString(), kind: spanCovers(span, at) ? 'end' : 'start' }).toEqual(
      expected,
    );
  });
});

describe('isKnownTimezone', () => {
  it.each([
    ['Europe/Berlin', true],
    ['America/New_York', true],
    ['UTC', true],
    ['Mars/Olympus', false],
    ['', false],
  ])('%s: %s', (zone, known) => {
    expect(isKnownTimezone(zone)).toBe(known);
  });
});
