/**
 * The days a calendar shows, in a schedule's time zone (its days start at its midnight), and who
 * is on call each day: from the API's shifts, with the schedule's own wall-clock helpers.
 */
import { dateOfDay, dayNumber, instantOnDay, wallTimeAt } from '../../../../libs/oncall/zoned-clock.js';
import type { Shift } from '../api/schedules.js';

export type CalendarView = 'week' | 'month';

export interface CalendarSpan {
  /** Day numbers (days since 1970-01-01) of the first day shown and the one after the last. */
  first: number;
  end: number;
  /** What the span is called: "30 Mar – 5 Apr 2026", "March 2026". */
  title: string;
  /** Month views: the month's days (the grid's others are shown muted). */
  month?: { first: number; end: number };
}

/** Someone on call during a day, with when (in the zone) and whether it is an override. */
export interface DayEntry {
  name: string;
  userId: number;
  when: string;
  override: boolean;
}

/** Monday of the day's week (1970-01-01 was a Thursday). */
const mondayOf = (day: number) => day - ((((day + 3) % 7) + 7) % 7);

export const todayIn = (zone: string): number => dayNumber(wallTimeAt(zone, Date.now()));

/** A day number as people read it: "Mon 30 Mar" (a day number is a UTC midnight: formatted in UTC, its date). */
export function dayLabel(
  day: number,
  options: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' },
): string {
  return new Intl.DateTimeFormat(undefined, { ...options, timeZone: 'UTC' }).format(
    new Date(day * 86_400_000),
  );
}

export function spanOf(view: CalendarView, anchor: number): CalendarSpan {
  if (view === 'week') {
    const first = mondayOf(anchor);
    const last = first + 6;
    const year = dateOfDay(last).year;
    return {
      first,
      end: first + 7,
      title: `${dayLabel(first, { day: 'numeric', month: 'short' })} – ${dayLabel(last, { day: 'numeric', month: 'short' })} ${year}`,
    };
  }
  const { year, month } = dateOfDay(anchor);
  const monthFirst = dayNumber({ year, month, day: 1 });
  const monthEnd = dayNumber({
    year: month === 12 ? year + 1 : year,
    month: month === 12 ? 1 : month + 1,
    day: 1,
  });
  const first = mondayOf(monthFirst);
  const end = first + Math.ceil((monthEnd - first) / 7) * 7;
  return {
    first,
    end,
    title: dayLabel(monthFirst, { month: 'long', year: 'numeric' }),
    month: { first: monthFirst, end: monthEnd },
  };
}

/** The span moved a week or a month back (-1) or on (1). */
export function moved(view: CalendarView, anchor: number, by: -1 | 1): number {
  if (view === 'week') return anchor + 7 * by;
  const { year, month } = dateOfDay(anchor);
  const index = year * 12 + (month - 1) + by;
  return dayNumber({ year: Math.floor(index / 12), month: (index % 12) + 1, day: 1 });
}

/** Where a day of the zone starts (ms). */
export const dayStart = (zone: string, day: number) => instantOnDay(zone, day, 0);

/** The instants the API is asked about for a span. */
export function spanInstants(zone: string, span: CalendarSpan): { from: string; to: string } {
  return {
    from: new Date(dayStart(zone, span.first)).toISOString(),
    to: new Date(dayStart(zone, span.end)).toISOString(),
  };
}

/** Each day's entries: the shifts overlapping it, cut to it, with their times on its clock. */
export function entriesByDay(
  zone: string,
  span: CalendarSpan,
  shifts: readonly Shift[],
): Map<number, DayEntry[]> {
  const time = new Intl.DateTimeFormat(undefined, {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const days = new Map<number, DayEntry[]>();
  for (let day = span.first; day < span.end; day++) {
    const start = dayStart(zone, day);
    const end = dayStart(zone, day + 1);
    const entries: DayEntry[] = [];
    for (const shift of shifts) {
      const from = Date.parse(shift.from);
      const to = Date.parse(shift.to);
      if (to <= start || from >= end) continue;
      const begins = from > start;
      const ends = to < end;
      const when =
        begins && ends
          ? `${time.format(from)}–${time.format(to)}`
          : begins
            ? `from ${time.format(from)}`
            : ends
              ? `until ${time.format(to)}`
              : 'all day';
      entries.push({
        name: shift.user.name,
        userId: shift.user.id,
        when,
        override: shift.source === 'override',
      });
    }
    days.set(day, entries);
  }
  return days;
}
