import type { Schemas } from '../api/client.js';
import { formatIn } from './zoned-time.js';

type Window = Schemas['MaintenanceWindow'];
export type Weekday = 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';
export const WEEKDAYS: Array<[Weekday, string]> = [
  ['MO', 'Monday'],
  ['TU', 'Tuesday'],
  ['WE', 'Wednesday'],
  ['TH', 'Thursday'],
  ['FR', 'Friday'],
  ['SA', 'Saturday'],
  ['SU', 'Sunday'],
];
export const UNIT = {
  daily: ['day', 'days'],
  weekly: ['week', 'weeks'],
  monthly: ['month', 'months'],
} as const;

/** "Every 2 weeks on Monday, Thursday until …" — a recurrence in words. */
export function describeRecurrence(window: Pick<Window, 'recurrence' | 'timezone'>): string {
  const r = window.recurrence;
  if (!r) return 'Once';
  const unit = UNIT[r.frequency];
  let text = r.interval === 1 ? `Every ${unit[0]}` : `Every ${r.interval} ${unit[1]}`;
  if (r.byWeekday?.length)
    text += ` on ${r.byWeekday.map((d) => WEEKDAYS.find(([k]) => k === d)?.[1] ?? d).join(', ')}`;
  if (r.until) text += ` until ${formatIn(r.until, window.timezone)}`;
  return text;
}
