/**
 * Wall-clock time in IANA time zones through `Intl` alone: the few conversions rotations need,
 * without a date library (the app's bundle imports the schedule schema, and a lookup must stay
 * well under a millisecond).
 */

const DAY_MS = 86_400_000;

/** A zone's formatter, made once: building one costs far more than formatting with it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** Whether `Intl` knows the zone (`Europe/Berlin`, `UTC`); `Mars/Olympus` and `+02:00` are not zones. */
export function isKnownTimezone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** A date and time as a zone's clocks show it (month 1–12). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** How far the zone's clocks are ahead of UTC at the instant, in milliseconds, as `Intl` says. */
function intlOffsetAt(zone: string, instant: number): number {
  const w: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(instant)) w[part.type] = Number(part.value);
  const wall = Date.UTC(
    w.year ?? 1970,
    (w.month ?? 1) - 1,
    w.day ?? 1,
    w.hour ?? 0,
    w.minute ?? 0,
    w.second ?? 0,
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * Each zone's offset per UTC day (null: the offset changes that day), so most conversions cost a
 * map read instead of an `Intl` call (a few microseconds each, dozens a lookup). No zone changes
 * its clocks twice in a day, so an offset equal at both ends holds all day.
 */
const dayOffsets = new Map<string, Map<number, number | null>>();
/** Days kept per zone before its map starts over (a few years of lookups). */
const DAYS_KEPT = 4096;

function offsetAt(zone: string, instant: number): number {
  const day = Math.floor(instant / DAY_MS);
  let days = dayOffsets.get(zone);
  if (!days || days.size >= DAYS_KEPT) {
    days = new Map();
    dayOffsets.set(zone, days);
  }
  let offset = days.get(day);
  if (offset === undefined) {
    const first = intlOffsetAt(zone, day * DAY_MS);
    offset = first === intlOffsetAt(zone, (day + 1) * DAY_MS - 1000) ? first : null;
    days.set(day, offset);
  }
  return offset ?? intlOffsetAt(zone, instant);
}

/** What the zone's clocks show at the instant (milliseconds since the epoch). */
export function wallTimeAt(zone: string, instant: number): WallTime {
  const wall = new Date(Math.floor(instant / 1000) * 1000 + offsetAt(zone, instant));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
}

/** The day number (days since 1970-01-01) of a calendar date: calendar arithmetic without a zone. */
export const dayNumber = (date: { year: number; month: number; day: number }): number =>
  Math.round(Date.UTC(date.year, date.month - 1, date.day) / DAY_MS);

/** The calendar date of a day number. */
export function dateOfDay(day: number): { year: number; month: number; day: number } {
  const date = new Date(day * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/**
 * The instant the zone's clocks show `minuteOfDay` (0–1439) on day `day`, as RFC 5545 reads a
 * local time: one that happens twice (the autumn change) is the first of them; one that never
 * happens (skipped in spring) is read with the offset before the gap, so 02:30 in Berlin on the
 * spring change is 03:30 summer time.
 */
export function instantOnDay(zone: string, day: number, minuteOfDay: number): number {
  const naive = day * DAY_MS + minuteOfDay * 60_000;
  // The offsets a day either side: no zone changes its clocks twice within two days.
  const before = offsetAt(zone, naive - DAY_MS);
  const after = offsetAt(zone, naive + DAY_MS);
  const candidates = (before === after ? [before] : [before, after])
    .map((offset) => naive - offset)
    .filter((instant) => offsetAt(zone, instant) === naive - instant);
  return candidates.length > 0 ? Math.min(...candidates) : naive - before;
}
