import { describe, expect, it } from 'vitest';
import {
  addToIncrements,
  cellKey,
  cellStart,
  mergeIncrement,
  type RolledResult,
  type RollupIncrement,
  rollupRows,
  rollupUpdate,
} from './rollup-cells.js';

const result = (over: Partial<RolledResult>): RolledResult => ({
  organizationId: 1,
  websiteId: 7,
  region: 'eu-west',
  startedAt: new Date('2026-11-23T10:15:00Z'),
  status: 'up',
  timings: { total: 120 },
  ...over,
});

describe('rollup cells', () => {
  it('counts a website’s results per region, hour and day, response times of the answered ones only', () => {
    const increments = new Map<string, RollupIncrement>();
    addToIncrements(increments, result({}));
    addToIncrements(
      increments,
      result({ startedAt: new Date('2026-11-23T10:59:59.999Z'), timings: { total: 300 } }),
    );
    addToIncrements(increments, result({ status: 'down', timings: { total: 10_000 } }));
    addToIncrements(increments, result({ status: 'degraded', timings: { total: 90 } }));
    addToIncrements(increments, result({ region: 'us-east' }));
    addToIncrements(increments, result({ startedAt: new Date('2026-11-23T11:00:00Z') }));
    expect([...increments.keys()]).toEqual(['7:eu-west', '7:us-east']);
    const eu = increments.get('7:eu-west');
    expect([...(eu?.cells.hour.keys() ?? [])]).toEqual(['2026-11-23T10', '2026-11-23T11']);
    expect(eu?.cells.day.get('2026-11-23')).toMatchObject({ checks: 5, up: 3 });
    expect(eu?.cells.hour.get('2026-11-23T10')).toEqual({
      checks: 4,
      up: 2,
      degraded: 1,
      down: 1,
      responseMsSum: 510,
      responseMsCount: 3,
      responseMsMax: 300,
    });
  });

  it('keys cells by UTC day and hour, and reads only keys of their period back', () => {
    const at = new Date('2026-03-29T01:30:00Z');
    expect(cellKey('day', at)).toBe('2026-03-29');
    expect(cellKey('hour', at)).toBe('2026-03-29T01');
    expect(cellStart('hour', '2026-03-29T01')).toEqual(new Date('2026-03-29T01:00:00Z'));
    expect(cellStart('day', '2026-03-29')).toEqual(new Date('2026-03-29T00:00:00Z'));
    for (const bad of ['2026-03-29T01', '2026-13-45', '$where', ''])
      expect(cellStart('day', bad), bad).toBe(null);
    expect(cellStart('hour', '2026-03-29')).toBe(null);
  });

  it('an update increments the cells, keeps maxima and removes cells past the retention', () => {
    const increments = new Map<string, RollupIncrement>();
    addToIncrements(increments, result({ timings: { total: 250 } }));
    const increment = increments.get('7:eu-west') as RollupIncrement;
    const now = new Date('2026-11-23T10:20:00Z');
    const update = rollupUpdate(increment, now);
    expect(update.$setOnInsert).toEqual({ organizationId: 1, websiteId: 7, region: 'eu-west' });
    expect(update.$inc).toMatchObject({ 'days.2026-11-23.checks': 1, 'hours.2026-11-23T10.up': 1 });
    expect(update.$max).toEqual({
      'days.2026-11-23.responseMsMax': 250,
      'hours.2026-11-23T10.responseMsMax': 250,
    });
    // Days older than 91 and hours older than 48 go; the cells kept are never among them.
    expect(update.$unset).toHaveProperty(['days.2026-08-23']);
    expect(update.$unset).not.toHaveProperty(['days.2026-08-24']);
    expect(update.$unset).toHaveProperty(['hours.2026-11-21T09']);
    expect(update.$unset).not.toHaveProperty(['hours.2026-11-21T10']);
    expect(Object.keys(update.$unset)).toHaveLength(54);
    expect(update.$set.expiresAt).toEqual(new Date(now.getTime() + 91 * 86_400_000));
  });

  it('a write given up is merged into the next one', () => {
    const first = new Map<string, RollupIncrement>();
    addToIncrements(first, result({ timings: { total: 100 } }));
    const second = new Map<string, RollupIncrement>();
    addToIncrements(second, result({ timings: { total: 400 } }));
    addToIncrements(second, result({ startedAt: new Date('2026-11-23T12:00:00Z') }));
    const into = first.get('7:eu-west') as RollupIncrement;
    mergeIncrement(into, second.get('7:eu-west') as RollupIncrement);
    expect(into.cells.hour.get('2026-11-23T10')).toMatchObject({
      checks: 2,
      responseMsSum: 500,
      responseMsMax: 400,
    });
    expect(into.cells.hour.get('2026-11-23T12')).toMatchObject({ checks: 1 });
    expect(into.cells.day.get('2026-11-23')).toMatchObject({ checks: 3 });
  });

  it('rows are read back from a given start, oldest first, ignoring keys that are not cells', () => {
    const counts = {
      checks: 2,
      up: 2,
      degraded: 0,
      down: 0,
      responseMsSum: 40,
      responseMsCount: 2,
      responseMsMax: 30,
    };
    const rows = rollupRows(
      {
        organizationId: 1,
        websiteId: 7,
        region: 'eu-west',
        days: {},
        hours: { '2026-11-23T11': counts, '2026-11-23T09': counts, '2026-11-23T10': counts, junk: counts },
      },
      'hour',
      new Date('2026-11-23T10:00:00Z'),
    );
    expect(rows.map((row) => row.start.toISOString())).toEqual([
      '2026-11-23T10:00:00.000Z',
      '2026-11-23T11:00:00.000Z',
    ]);
    expect(rows[0]).toMatchObject({ websiteId: 7, region: 'eu-west', period: 'hour', checks: 2 });
  });
});
