/**
 * An iCalendar document (RFC 5545) of on-call shifts, for calendar apps to subscribe to: CRLF
 * line ends, content lines folded at 75 octets (never inside a UTF-8 character), text values
 * escaped, times in UTC.
 */

export interface CalendarEvent {
  /** Stable across refreshes, so a calendar app updates an event instead of adding another. */
  uid: string;
  from: Date;
  to: Date;
  summary: string;
  description?: string;
}

export interface Calendar {
  /** The calendar's name in the subscriber's app (X-WR-CALNAME, NAME). */
  name: string;
  events: readonly CalendarEvent[];
  /** When the document was made (each event's DTSTAMP). */
  stamp: Date;
}

const LINE_OCTETS = 75;
const encoder = new TextEncoder();

/** A TEXT value escaped (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks. */
export function escapeText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * A content line folded (§3.1): at most 75 octets a line, continuation lines starting with a
 * space; a character is never split, so every line stays valid UTF-8.
 */
export function foldLine(line: string): string {
  const lines: string[] = [];
  let current = '';
  let octets = 0;
  for (const character of line) {
    const size = encoder.encode(character).length;
    // A continuation line's leading space counts against its 75.
    const limit = lines.length === 0 ? LINE_OCTETS : LINE_OCTETS - 1;
    if (octets + size > limit) {
      lines.push(current);
      current = '';
      octets = 0;
    }
    current += character;
    octets += size;
  }
  lines.push(current);
  return lines.join('\r\n ');
}

/** `20260329T070000Z`: a DATE-TIME in UTC (§3.3.5, form #2). */
export function utcDateTime(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** The whole document, CRLF line ends included (the last line's too). */
export function icalendar(calendar: Calendar): string {
  const stamp = utcDateTime(calendar.stamp);
  const name = escapeText(calendar.name);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//webmon//on-call schedules//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${name}`,
    `NAME:${name}`,
    // How often a subscriber should read it again (RFC 7986, and the older name some apps read).
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
  ];
  for (const event of calendar.events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(event.uid)}`,
      `DTSTAMP:${stamp}`,
      `DTSTART:${utcDateTime(event.from)}`,
      `DTEND:${utcDateTime(event.to)}`,
      `SUMMARY:${escapeText(event.summary)}`,
      ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
