import { describe, expect, it } from 'vitest';
import { percentile, uptimeFigures } from './uptime.js';

const now = new Date('2026-11-22T12:00:00Z');
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

describe('percentile', () => {
  it.each([
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50, 5],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95, 10],
    [[7], 99, 7],
  ])('%j p%i = %i', (values, p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });
  it('is null without values', () => expect(percentile([], 50)).toBeNull());
});

describe('uptimeFigures', () => {
  it('100% without incidents, null without checks', () => {
    expect(
      uptimeFigures({
        now,
        periodSeconds: 86_400,
        firstResultAt: hoursAgo(48),
        incidents: [],
        responseTimesMs: [100],
        checks: 10,
      }).uptimePercent,
    ).toBe(100);
    expect(
      uptimeFigures({
        now,
        periodSeconds: 86_400,
        firstResultAt: null,
        incidents: [],
        responseTimesMs: [],
        checks: 0,
      }).uptimePercent,
    ).toBeNull();
  });

  it('counts an incident’s overlap with the window, open ones until now', () => {
    const figures = uptimeFigures({
      now,
      periodSeconds: 86_400,
      firstResultAt: hoursAgo(100),
      incidents: [
        { startedAt: hoursAgo(30), resolvedAt: hoursAgo(23) },
        { startedAt: hoursAgo(1), resolvedAt: null },
      ],
      responseTimesMs: [100, 200, 300, 400],
      checks: 4,
    });
    expect(figures.downtimeSeconds).toBe(2 * 3600);
    expect(figures.uptimePercent).toBeCloseTo(91.667, 3);
    expect(figures.responseTimeMs).toEqual({ p50: 200, p95: 400, p99: 400 });
  });

  it('a website younger than the period is measured from its first result', () => {
    const figures = uptimeFigures({
      now,
      periodSeconds: 30 * 86_400,
      firstResultAt: hoursAgo(10),
      incidents: [{ startedAt: hoursAgo(5), resolvedAt: hoursAgo(4) }],
      responseTimesMs: [],
      checks: 10,
    });
    expect(figures.uptimePercent).toBe(90);
  });
});
