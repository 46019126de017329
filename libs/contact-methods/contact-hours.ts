import type { ContactEvent, ContactMethodDocument } from './contact-method.schema.js';

/* Whether a method may be used at an instant, for a kind of message: pure. */

const WEEKDAY: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** The weekday (ISO) and minute of the day at `at` in `timezone`. */
function wallClock(at: Date, timezone: string): { day: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: WEEKDAY[part('weekday')] ?? 0, minute: Number(part('hour')) * 60 + Number(part('minute')) };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Whether the method takes `event` at `at`: it is verified, wants the event, and `at` is within its
 * hours. Hours that pass midnight (22:00–06:00) belong to the day they start on.
 */
export function accepts(
  method: Pick<ContactMethodDocument, 'verifiedAt' | 'events' | 'hours'>,
  event: ContactEvent,
  at: Date,
): boolean {
  if (!method.verifiedAt || !method.events.includes(event)) return false;
  const { hours } = method;
  if (!hours) return true;
  const { day, minute } = wallClock(at, hours.timezone);
  const from = minutesOf(hours.from);
  const to = minutesOf(hours.to);
  if (from === to) return hours.days.includes(day);
  if (from < to) return hours.days.includes(day) && minute >= from && minute < to;
  // Over midnight: the evening of a listed day, or the small hours after one.
  const yesterday = day === 1 ? 7 : day - 1;
  return (minute >= from && hours.days.includes(day)) || (minute < to && hours.days.includes(yesterday));
}
