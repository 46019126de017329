import { describe, expect, it } from 'vitest';
import { availability, coveredMs, unionOf } from './availability.js';

const at = (iso: string) => Date.parse(iso);
const incident = (start: string, end: string | null) => ({
  startedAt: new Date(start),
  resolvedAt: end === null ? null : new Date(end),
});

describe('availability: the one uptime computation', () => {
  it('counts down time inside incidents, an open one until now, overlaps once', () => {
    expect(
      unionOf([
        { start: 5, end: 10 },
        { start: 0, end: 6 },
        { start: 12, end: 12 },
      ]),
    ).toEqual([{ start: 0, end: 10 }]);
    expect(
      coveredMs(
        [
          { start: 0, end: 10 },
          { start: 20, end: 30 },
        ],
        { start: 5, end: 25 },
      ),
    ).toBe(10);
    const figures = availability({
      window: { start: at('2026-11-01T00:00:00Z'), end: at('2026-11-02T00:00:00Z') },
      incidents: [
        incident('2026-10-31T23:00:00Z', '2026-11-01T01:00:00Z'), // 1 h inside
        incident('2026-11-01T12:00:00Z', '2026-11-01T12:30:00Z'),
        incident('2026-11-01T12:15:00Z', '2026-11-01T12:45:00Z'), // overlaps: 45 min in all
        incident('2026-11-01T23:50:00Z', null), // open: 10 min to the window's end
      ],
      now: at('2026-11-02T06:00:00Z'),
    });
    expect(figures.downtimeSeconds).toBe(3600 + 2700 + 600);
    // 1 − 6,900 / 86,400
    expect(figures.uptimePercent).toBe(92.014);
  });

  it('leaves maintenance out of the SLA: neither up nor down', () => {
    const figures = availability({
      window: { start: at('2026-11-01T00:00:00Z'), end: at('2026-11-02T00:00:00Z') },
      incidents: [incident('2026-11-01T02:00:00Z', '2026-11-01T04:00:00Z')],
      maintenance: [{ start: at('2026-11-01T03:00:00Z'), end: at('2026-11-01T05:00:00Z') }],
      now: at('2026-11-03T00:00:00Z'),
    });
    expect(figures).toEqual({
      windowSeconds: 86_400,
      downtimeSeconds: 7200,
      maintenanceSeconds: 7200,
      slaDowntimeSeconds: 3600,
      uptimePercent: 91.667, // 1 − 7,200 / 86,400
      slaUptimePercent: 95.455, // 1 − 3,600 / 79,200
    });
  });

  it('has no figure for an empty window', () => {
    const empty = availability({ window: { start: 10, end: 10 }, incidents: [], now: 20 });
    expect(empty.uptimePercent).toBeNull();
    expect(empty.slaUptimePercent).toBeNull();
  });
});
