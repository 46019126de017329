import { describe, expect, it } from 'vitest';
import { isoToZoned } from '../maintenance/zoned-time.js';
import { newLayer } from './layer-fields.js';

describe('a new layer', () => {
  it('starts on a Monday at 09:00 already past, in zones on both sides of UTC', () => {
    for (const zone of [
      'Pacific/Honolulu',
      'America/New_York',
      'UTC',
      'Europe/Berlin',
      'Pacific/Kiritimati',
    ]) {
      const { startsAt } = newLayer(zone);
      expect(startsAt.slice(10)).toBe('T09:00');
      expect(new Date(`${startsAt.slice(0, 10)}T12:00:00Z`).getUTCDay(), zone).toBe(1);
      const nowThere = isoToZoned(new Date().toISOString(), zone);
      expect(startsAt < nowThere, zone).toBe(true);
    }
  });
});
