import { DateTime } from 'luxon';
import type { Span } from '../monitoring/index.js';

/** The longest report: a year and a bit (and the period before it to compare with). */
export const MAX_REPORT_DAYS = 400;

export interface ReportPeriod {
  /** The first and last day, as given (inclusive), in the organization's timezone. */
  fromDate: string;
  toDate: string;
  timezone: string;
  /** Their instants: from the first day's midnight to the midnight after the last, [from, to). */
  from: Date;
  to: Date;
  days: number;
  /** The same number of days just before: what the report compares with. */
  previous: { fromDate: string; toDate: string; from: Date; to: Date };
}

const DATE = 'yyyy-MM-dd';

/** Why dates cannot make a report period, by field. */
export class PeriodProblem extends Error {
  constructor(
    readonly field: 'from' | 'to',
    message: string,
  ) {
    super(message);
  }
}

function day(text: string, zone: string, field: 'from' | 'to'): DateTime {
  const parsed = DateTime.fromFormat(text, DATE, { zone });
  if (!parsed.isValid) throw new PeriodProblem(field, 'must be a date like 2026-10-31');
  return parsed.startOf('day');
}

/**
 * A report's period in the organization's timezone: `from` and `to` inclusive (default: the last
 * full calendar month before `now`), at most MAX_REPORT_DAYS days. Days are the zone's own, so a
 * day of a daylight-saving change lasts 23 or 25 hours.
 */
export function reportPeriod(
  input: { from?: string; to?: string },
  timezone: string,
  now: Date,
): ReportPeriod {
  const today = DateTime.fromJSDate(now, { zone: timezone }).startOf('day');
  const lastMonth = today.startOf('month').minus({ months: 1 });
  // One given: a month from it (or to it); neither: the last full calendar month.
  const givenLast = input.to ? day(input.to, timezone, 'to') : null;
  const first = input.from
    ? day(input.from, timezone, 'from')
    : givenLast
      ? givenLast.minus({ months: 1 }).plus({ days: 1 })
      : lastMonth;
  const last =
    givenLast ??
    (input.from ? first.plus({ months: 1 }).minus({ days: 1 }) : lastMonth.endOf('month').startOf('day'));
  if (last < first) throw new PeriodProblem('to', 'must not be before from');
  const days = Math.round(last.diff(first, 'days').days) + 1;
  if (days > MAX_REPORT_DAYS)
    throw new PeriodProblem('to', `a report covers at most ${MAX_REPORT_DAYS} days`);
  const previousFirst = first.minus({ days });
  return {
    fromDate: first.toFormat(DATE),
    toDate: last.toFormat(DATE),
    timezone,
    from: first.toJSDate(),
    to: last.plus({ days: 1 }).toJSDate(),
    days,
    previous: {
      fromDate: previousFirst.toFormat(DATE),
      toDate: first.minus({ days: 1 }).toFormat(DATE),
      from: previousFirst.toJSDate(),
      to: first.toJSDate(),
    },
  };
}

/** The ISO week (`2026-W45`) and month (`2026-11`) a day (its `yyyy-MM-dd`) falls in. */
export function weekAndMonthOf(date: string): { week: string; month: string } {
  const parsed = DateTime.fromFormat(date, DATE, { zone: 'UTC' });
  return {
    week: `${parsed.weekYear}-W${String(parsed.weekNumber).padStart(2, '0')}`,
    month: date.slice(0, 7),
  };
}

/** The period's months and ISO weeks (each cut to the period), in the report's timezone. */
export function partsOf(
  period: ReportPeriod,
): Array<{ kind: 'month' | 'week'; label: string; from: string; to: string; span: Span }> {
  const parts = new Map<string, { kind: 'month' | 'week'; label: string; from: string; to: string }>();
  let day = DateTime.fromJSDate(period.from, { zone: period.timezone });
  for (let i = 0; i < period.days; i += 1, day = day.plus({ days: 1 })) {
    const date = day.toFormat('yyyy-MM-dd');
    const { week, month } = weekAndMonthOf(date);
    for (const [kind, label] of [
      ['month', month],
      ['week', week],
    ] as const) {
      const part = parts.get(`${kind} ${label}`);
      if (part) part.to = date;
      else parts.set(`${kind} ${label}`, { kind, label, from: date, to: date });
    }
  }
  return [...parts.values()].map((part) => ({
    ...part,
    span: {
      start: DateTime.fromFormat(part.from, 'yyyy-MM-dd', { zone: period.timezone }).toMillis(),
      end: DateTime.fromFormat(part.to, 'yyyy-MM-dd', { zone: period.timezone }).plus({ days: 1 }).toMillis(),
    },
  }));
}
