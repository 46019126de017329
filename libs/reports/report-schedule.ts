import { DateTime } from 'luxon';
import { REPORT_WEEKDAYS, type ReportSchedule } from '../customers/index.js';

/** A report due to be sent: its period (days inclusive) and the moment it became due. */
export interface DueReport {
  /** The period's key: `2026-10` (a month) or `2026-W44` (a week); one mail per customer and key. */
  key: string;
  from: string;
  to: string;
  dueAt: Date;
}

const DATE = 'yyyy-MM-dd';

/**
 * The report a schedule has due at `now` (in the organization's timezone), or null: the last full
 * month once its `dayOfMonth` at `hour` has come, the last full week once its `weekday` at `hour`
 * has. A send missed (the notifier was down) stays due until the next one.
 */
export function dueReport(schedule: ReportSchedule, timezone: string, now: Date): DueReport | null {
  if (schedule.frequency === 'off') return null;
  const local = DateTime.fromJSDate(now, { zone: timezone });
  if (schedule.frequency === 'monthly') {
    let due = local.startOf('month').set({ day: schedule.dayOfMonth, hour: schedule.hour });
    // Before this month's send: last month's is still the one due (sent late if it was missed).
    if (local < due) due = due.minus({ months: 1 });
    const month = due.startOf('month').minus({ months: 1 });
    return {
      key: month.toFormat('yyyy-MM'),
      from: month.toFormat(DATE),
      to: month.endOf('month').toFormat(DATE),
      dueAt: due.toJSDate(),
    };
  }
  const weekday = REPORT_WEEKDAYS.indexOf(schedule.weekday) + 1;
  let due = local.startOf('week').set({ weekday: weekday as 1, hour: schedule.hour });
  if (local < due) due = due.minus({ weeks: 1 });
  const week = due.startOf('week').minus({ weeks: 1 });
  return {
    key: `${week.weekYear}-W${String(week.weekNumber).padStart(2, '0')}`,
    from: week.toFormat(DATE),
    to: week.endOf('week').toFormat(DATE),
    dueAt: due.toJSDate(),
  };
}
