import { describe, expect, it } from 'vitest';
import { maintenanceSpan, spanBoundary, spanCovers } from './maintenance-span.js';
import type { WindowSchedule } from './recurrence.js';

const d = (iso: string) => new Date(iso);
const oneOff = (id: number, startsAt: string, endsAt: string): WindowSchedule & { id: number } => ({
  id,
  startsAt: d(startsAt),
  endsAt: d(endsAt),
  timezone: 'UTC',
  recurrence: null,
});
const iso = (span: ReturnType<typeof maintenanceSpan>) =>
  span && {
    windowId: span.windowId,
    startsAt: span.startsAt.toISOString(),
    endsAt: span.endsAt.toISOString(),
  };

describe('maintenanceSpan', () => {
  const a = oneOff(1, '2026-05-01T10:00:00Z', '2026-05-01T11:00:00Z');

  it('is null without windows or when every occurrence is over', () => {
    expect(maintenanceSpan([], d('2026-05-01T10:30:00Z'))).toBeNull();
    expect(maintenanceSpan([a], d('2026-05-01T11:00:00Z'))).toBeNull();
  });

  it('is the next occurrence before it starts and the running one during it (end exclusive)', () => {
    for (const at of ['2026-04-01T00:00:00Z', '2026-05-01T10:00:00Z', '2026-05-01T10:59:59Z'])
      expect(iso(maintenanceSpan([a], d(at)))).toEqual({
        windowId: 1,
        startsAt: '2026-05-01T10:00:00.000Z',
        endsAt: '2026-05-01T11:00:00.000Z',
      });
  });

  it('merges occurrences that overlap or touch, and not those with a gap', () => {
    const touching = oneOff(2, '2026-05-01T11:00:00Z', '2026-05-01T12:00:00Z');
    const overlapping = oneOff(3, '2026-05-01T11:30:00Z', '2026-05-01T13:00:00Z');
    const later = oneOff(4, '2026-05-01T13:00:01Z', '2026-05-01T14:00:00Z');
    expect(iso(maintenanceSpan([later, overlapping, touching, a], d('2026-05-01T10:30:00Z')))).toEqual({
      windowId: 1,
      startsAt: '2026-05-01T10:00:00.000Z',
      endsAt: '2026-05-01T13:00:00.000Z',
    });
    // A window inside another changes nothing.
    const inside = oneOff(5, '2026-05-01T10:10:00Z', '2026-05-01T10:20:00Z');
    expect(iso(maintenanceSpan([a, inside], d('2026-05-01T10:15:00Z')))?.endsAt).toBe(
      '2026-05-01T11:00:00.000Z',
    );
  });

  it('starts with the earliest window when two begin together', () => {
    const twin = oneOff(7, '2026-05-01T10:00:00Z', '2026-05-01T10:30:00Z');
    expect(maintenanceSpan([twin, a], d('2026-05-01T09:00:00Z'))?.windowId).toBe(1);
  });

  it('follows a recurring window across a DST change (America/New_York, 2026-03-08)', () => {
    // 01:00–03:00 local every day: on the change day 02:00 does not exist, the window is 1 h long.
    const nightly: WindowSchedule & { id: number } = {
      id: 9,
      startsAt: d('2026-03-01T06:00:00Z'),
      endsAt: d('2026-03-01T08:00:00Z'),
      timezone: 'America/New_York',
      recurrence: { frequency: 'daily', interval: 1 },
    };
    expect(iso(maintenanceSpan([nightly], d('2026-03-08T05:00:00Z')))).toEqual({
      windowId: 9,
      startsAt: '2026-03-08T06:00:00.000Z',
      endsAt: '2026-03-08T07:00:00.000Z',
    });
    expect(iso(maintenanceSpan([nightly], d('2026-03-08T07:00:00Z')))).toEqual({
      windowId: 9,
      startsAt: '2026-03-09T05:00:00.000Z',
      endsAt: '2026-03-09T07:00:00.000Z',
    });
  });

  it('cuts a span of endless back-to-back occurrences at the horizon (62 days)', () => {
    const daily = (id: number, startsAt: string, endsAt: string) => ({
      ...oneOff(id, startsAt, endsAt),
      recurrence: { frequency: 'daily' as const, interval: 1 },
    });
    const morning = daily(1, '2026-01-01T00:00:00Z', '2026-01-01T12:00:00Z');
    const at = d('2026-02-01T06:00:00Z');
    // With a one-second gap before midnight the span ends that day…
    const evening = daily(2, '2026-01-01T12:00:00Z', '2026-01-01T23:59:59Z');
    expect(iso(maintenanceSpan([morning, evening], at))?.endsAt).toBe('2026-02-01T23:59:59.000Z');
    // …without it, the occurrences chain forever and the span stops at the horizon.
    const untilMidnight = daily(2, '2026-01-01T12:00:00Z', '2026-01-02T00:00:00Z');
    expect(iso(maintenanceSpan([morning, untilMidnight], at))?.endsAt).toBe('2026-04-04T06:00:00.000Z');
  });
});

describe('spanCovers and spanBoundary', () => {
  const span = { windowId: 1, startsAt: d('2026-05-01T10:00:00Z'), endsAt: d('2026-05-01T11:00:00Z') };
  it('covers [start, end) and plans the start before, the end during', () => {
    expect(spanCovers(span, d('2026-05-01T09:59:59Z'))).toBe(false);
    expect(spanCovers(span, d('2026-05-01T10:00:00Z'))).toBe(true);
    expect(spanCovers(span, d('2026-05-01T11:00:00Z'))).toBe(false);
    expect(spanCovers(null, d('2026-05-01T10:30:00Z'))).toBe(false);
    expect(spanBoundary(span, d('2026-05-01T09:00:00Z'))).toEqual(span.startsAt);
    expect(spanBoundary(span, d('2026-05-01T10:30:00Z'))).toEqual(span.endsAt);
    expect(spanBoundary(null, d('2026-05-01T10:30:00Z'))).toBeNull();
  });
});
