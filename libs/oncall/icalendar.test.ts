import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, icalendar, utcDateTime } from './icalendar.js';

const octets = (text: string) => new TextEncoder().encode(text).length;
const unfold = (text: string) => text.replace(/\r\n /g, '');

describe('iCalendar (RFC 5545)', () => {
  it('escapes backslashes, semicolons, commas and line breaks in text', () => {
    expect(escapeText('Ops; nights, weekends\\holidays\nand more\r\nend')).toBe(
      'Ops\\; nights\\, weekends\\\\holidays\\nand more\\nend',
    );
  });

  it('folds at 75 octets without splitting a UTF-8 character, and unfolds to the same line', () => {
    const line = `SUMMARY:${'Bereitschaft für Größe 🚨 '.repeat(12)}`;
    const folded = foldLine(line);
    const lines = folded.split('\r\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const [index, part] of lines.entries()) {
      expect(octets(part)).toBeLessThanOrEqual(75);
      if (index > 0) expect(part.startsWith(' ')).toBe(true);
      // Each line is whole characters: encoding and decoding gives it back.
      expect(new TextDecoder('utf-8', { fatal: true }).decode(new TextEncoder().encode(part))).toBe(part);
    }
    expect(unfold(folded)).toBe(line);
    expect(foldLine('SHORT:line')).toBe('SHORT:line');
  });

  it('writes UTC date-times', () => {
    expect(utcDateTime(new Date('2026-03-29T07:00:00.000Z'))).toBe('20260329T070000Z');
  });

  it('makes a calendar: CRLF everywhere, one VEVENT per shift, the name escaped', () => {
    const text = icalendar({
      name: 'On call: Ops, nights',
      stamp: new Date('2026-03-01T00:00:00Z'),
      events: [
        {
          uid: 'oncall-1-2-1774767600000@webmon',
          from: new Date('2026-03-29T07:00:00Z'),
          to: new Date('2026-04-05T07:00:00Z'),
          summary: 'On call: Ops, nights',
          description: 'Covering for someone',
        },
        {
          uid: 'oncall-1-2-1775977200000@webmon',
          from: new Date('2026-04-12T07:00:00Z'),
          to: new Date('2026-04-19T07:00:00Z'),
          summary: 'On call: Ops, nights',
        },
      ],
    });
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = unfold(text).split('\r\n');
    expect(lines.slice(0, 3)).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//webmon//on-call schedules//EN',
    ]);
    expect(lines).toContain('X-WR-CALNAME:On call: Ops\\, nights');
    expect(lines.filter((line) => line === 'BEGIN:VEVENT')).toHaveLength(2);
    expect(lines).toContain('DTSTART:20260329T070000Z');
    expect(lines).toContain('DTEND:20260405T070000Z');
    expect(lines).toContain('DTSTAMP:20260301T000000Z');
    expect(lines).toContain('DESCRIPTION:Covering for someone');
    expect(lines.filter((line) => line.startsWith('DESCRIPTION:'))).toHaveLength(1);
  });
});
