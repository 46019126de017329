import { describe, expect, it } from 'vitest';
import { currentZoneName, formatIn, knownZones } from './zoned-time.js';

describe('time zones for the pickers', () => {
  it('lists zones by their current names, each once, and still with UTC', () => {
    const zones = knownZones();
    expect(zones).toContain('Asia/Kolkata');
    expect(zones).toContain('Europe/Kyiv');
    expect(zones).not.toContain('Asia/Calcutta');
    expect(zones).not.toContain('Europe/Kiev');
    expect(new Set(zones).size).toBe(zones.length);
    expect(zones).toContain('UTC');
    expect(zones).toContain('Europe/Berlin');
  });

  it('renames only what IANA renamed, and every new name formats', () => {
    expect(currentZoneName('Asia/Saigon')).toBe('Asia/Ho_Chi_Minh');
    expect(currentZoneName('Europe/Berlin')).toBe('Europe/Berlin');
    for (const zone of knownZones())
      expect(() => new Intl.DateTimeFormat('en', { timeZone: zone })).not.toThrow();
  });

  it('writes instants with 24-hour times, as the calendars do', () => {
    expect(formatIn('2026-12-01T19:00:00.000Z', 'Europe/Berlin')).toMatch(/20:00/);
    expect(formatIn('2026-12-01T19:00:00.000Z', 'Europe/Berlin')).not.toMatch(/PM/);
  });
});
