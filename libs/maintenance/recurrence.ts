import { DateTime, IANAZone } from 'luxon';

export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface Recurrence {
  frequency: 'daily' | 'weekly' | 'monthly';
  /** Every `interval` days, weeks or months. */
  interval: number;
  /** Weekly only: the days of the week; the first window's weekday when absent. */
  byWeekday?: Weekday[];
  /** No occurrence starts after this. */
  until?: Date;
}

export interface WindowSchedule {
  startsAt: Date;
  endsAt: Date;
  /** IANA time zone the window's wall-clock times repeat in. */
  timezone: string;
  recurrence: Recurrence | null;
}

export interface Occurrence {
  startsAt: Date;
  endsAt: Date;
}

/** Longest window allowed (validation enforces it); bounds how far back an active occurrence can start. */
export const MAX_WINDOW_DAYS = 31;

export function isKnownTimezone(timezone: string): boolean {
  return IANAZone.isValidZone(timezone);
}

/**
 * The occurrences of a window in order, from the first one that can still be running at `from`.
 * Each repeats the first window's wall-clock start and end in its time zone, so a 02:00–04:00
 * Europe/Berlin window stays 02:00–04:00 across daylight-saving changes (a start in the skipped
 * spring hour moves to the first valid time; a wall-clock time that happens twice in autumn is the
 * later instant). Monthly windows fall on the same day of the month and
 * skip months that lack it (RFC 5545), so a window on the 31st does not move to the 30th.
 */
export function* occurrences(schedule: WindowSchedule, from: Date): Generator<Occurrence> {
  const zone = schedule.timezone;
  const start = DateTime.fromJSDate(schedule.startsAt, { zone });
  const end = DateTime.fromJSDate(schedule.endsAt, { zone });
  const recurrence = schedule.recurrence;
  const until = recurrence?.until?.getTime() ?? Number.POSITIVE_INFINITY;
  const lookBack = DateTime.fromJSDate(from, { zone }).minus({ days: MAX_WINDOW_DAYS + 1 });

  const make = (shift: { days?: number; weeks?: number; months?: number }): Occurrence => ({
    startsAt: start.plus(shift).toJSDate(),
    endsAt: end.plus(shift).toJSDate(),
  });

  if (!recurrence) {
    yield { startsAt: schedule.startsAt, endsAt: schedule.endsAt };
    return;
  }
  const step = recurrence.interval;
  if (recurrence.frequency === 'daily') {
    const skip = Math.max(0, Math.floor(lookBack.diff(start, 'days').days / step) - 1);
    for (let k = skip; ; k++) {
      const occurrence = make({ days: k * step });
      if (occurrence.startsAt.getTime() > until) return;
      yield occurrence;
    }
  }
  if (recurrence.frequency === 'weekly') {
    const days = (recurrence.byWeekday?.length ? recurrence.byWeekday : [WEEKDAYS[start.weekday - 1]!])
      .map((day) => WEEKDAYS.indexOf(day) + 1)
      .sort((a, b) => a - b);
    const weekStart = start.startOf('week');
    const skip = Math.max(0, Math.floor(lookBack.diff(weekStart, 'weeks').weeks / step) - 1);
    for (let k = skip; ; k++) {
      for (const weekday of days) {
        const offsetDays = k * step * 7 + (weekday - start.weekday);
        if (offsetDays < 0) continue;
        const occurrence = make({ days: offsetDays });
        if (occurrence.startsAt.getTime() > until) return;
        yield occurrence;
      }
    }
  }
  // monthly
  const skip = Math.max(0, Math.floor(lookBack.diff(start.startOf('month'), 'months').months / step) - 1);
  for (let k = skip; k < skip + 12 * 400; k++) {
    const shifted = start.plus({ months: k * step });
    if (shifted.day !== start.day) continue;
    const occurrence = make({ months: k * step });
    if (occurrence.startsAt.getTime() > until) return;
    yield occurrence;
  }
}

/** The occurrence running at `at` (start ≤ at < end), or null. */
export function activeOccurrence(schedule: WindowSchedule, at: Date): Occurrence | null {
  const time = at.getTime();
  for (const occurrence of occurrences(schedule, at)) {
    if (occurrence.startsAt.getTime() > time) return null;
    if (occurrence.endsAt.getTime() > time) return occurrence;
  }
  return null;
}
