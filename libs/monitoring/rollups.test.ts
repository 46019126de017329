import { describe, expect, it } from 'vitest';
import { addToIncrements, periodStart, type RolledResult } from './rollups.js';

const result = (over: Partial<RolledResult>): RolledResult => ({
  organizationId: 1,
  websiteId: 7,
  region: 'eu-west',
  startedAt: new Date('2026-11-23T10:15:00Z'),
  status: 'up',
  timings: { total: 120 },
  ...over,
});

describe('rollups', () => {
  it('counts a website’s results per region and hour, response times of the answered ones only', () => {
    const increments = new Map();
    addToIncrements(increments, result({}));
    addToIncrements(
      increments,
      result({ startedAt: new Date('2026-11-23T10:59:59.999Z'), timings: { total: 300 } }),
    );
    addToIncrements(increments, result({ status: 'down', timings: { total: 10_000 } }));
    addToIncrements(increments, result({ status: 'degraded', timings: { total: 90 } }));
    addToIncrements(increments, result({ region: 'us-east' }));
    addToIncrements(increments, result({ startedAt: new Date('2026-11-23T11:00:00Z') }));
    expect([...increments.keys()]).toEqual([
      '7:eu-west:hour:2026-11-23T10:00:00.000Z',
      '7:eu-west:day:2026-11-23T00:00:00.000Z',
      '7:us-east:hour:2026-11-23T10:00:00.000Z',
      '7:us-east:day:2026-11-23T00:00:00.000Z',
      '7:eu-west:hour:2026-11-23T11:00:00.000Z',
    ]);
    expect(increments.get('7:eu-west:day:2026-11-23T00:00:00.000Z')).toMatchObject({ checks: 5, up: 3 });
    expect(increments.get('7:eu-west:hour:2026-11-23T10:00:00.000Z')).toMatchObject({
      checks: 4,
      up: 2,
      degraded: 1,
      down: 1,
      responseMsSum: 510,
      responseMsCount: 3,
      responseMsMax: 300,
      start: periodStart('hour', new Date('2026-11-23T10:30:00Z')),
    });
  });
});
