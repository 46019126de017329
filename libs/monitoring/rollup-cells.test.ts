import { describe, expect, it } from 'vitest';
import {
  addToIncrements,
  bucketsBetween,
  cellStart,
  latencyBounds,
  latencyBucket,
  mergeIncrement,
  type RolledResult,
  type RollupIncrement,
  rollupRows,
  rollupUpdate,
  summedCells,
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

const increments = (...results: RolledResult[]) => {
  const map = new Map<string, RollupIncrement>();
  for (const one of results) addToIncrements(map, one);
  return map;
};

describe('rollup cells', () => {
  it('counts a website’s results per region, hour (in its day’s bucket) and day (in its month’s)', () => {
    const map = increments(
      result({}),
      result({ startedAt: new Date('2026-11-23T10:59:59.999Z'), timings: { total: 300 } }),
      result({ status: 'down', timings: { total: 10_000 } }),
      result({ status: 'degraded', timings: { total: 90 } }),
      result({ region: 'us-east' }),
      result({ startedAt: new Date('2026-11-23T11:00:00Z') }),
      result({ startedAt: new Date('2026-12-01T00:00:00Z') }),
    );
    expect([...map.keys()]).toEqual([
      '7:eu-west:hour:2026-11-23',
      '7:eu-west:day:2026-11',
      '7:us-east:hour:2026-11-23',
      '7:us-east:day:2026-11',
      '7:eu-west:hour:2026-12-01',
      '7:eu-west:day:2026-12',
    ]);
    const hours = map.get('7:eu-west:hour:2026-11-23');
    expect([...(hours?.cells.keys() ?? [])]).toEqual(['10', '11']);
    expect(map.get('7:eu-west:day:2026-11')?.cells.get('23')).toMatchObject({ checks: 5, up: 3 });
    expect(hours?.cells.get('10')).toEqual({
      checks: 4,
      up: 2,
      degraded: 1,
      down: 1,
      responseMsSum: 510,
      responseMsCount: 3,
      responseMsMax: 300,
      // 90, 120 and 300 ms in their latency buckets (10·1.15^(i−1) to 10·1.15^i ms).
      latency: { b16: 1, b18: 1, b25: 1 },
    });
  });

  it('names the buckets a period spans and reads only keys that are cells', () => {
    expect(
      bucketsBetween('day', new Date('2026-08-26T11:00:00Z'), new Date('2026-11-24T10:00:00Z')).map((d) =>
        d.toISOString().slice(0, 7),
      ),
    ).toEqual(['2026-08', '2026-09', '2026-10', '2026-11']);
    expect(
      bucketsBetween('hour', new Date('2026-11-23T11:00:00Z'), new Date('2026-11-24T10:00:00Z')),
    ).toHaveLength(2);
    const november = new Date('2026-11-01T00:00:00Z');
    expect(cellStart('day', november, '24')).toEqual(new Date('2026-11-24T00:00:00Z'));
    expect(cellStart('hour', new Date('2026-11-24T00:00:00Z'), '07')).toEqual(
      new Date('2026-11-24T07:00:00Z'),
    );
    for (const bad of ['31', '00', '7', '$where', ''])
      expect(cellStart('day', november, bad), bad).toBe(null);
    expect(cellStart('hour', november, '24')).toBe(null);
  });

  it('an update increments the cells, keeps maxima and sets the bucket’s expiry once', () => {
    const map = increments(result({ timings: { total: 250 } }));
    const update = rollupUpdate(map.get('7:eu-west:hour:2026-11-23') as RollupIncrement);
    expect(update.$inc).toMatchObject({
      'cells.10.checks': 1,
      'cells.10.up': 1,
      'cells.10.responseMsSum': 250,
    });
    expect(update.$inc).toMatchObject({ 'cells.10.latency.b24': 1 });
    // Hours are kept two days after their day ends, days 800 days after their month ends: a
    // maximum, so a bucket stored before the retention grew is kept the longer time at its next write.
    expect(update.$max).toEqual({
      'cells.10.responseMsMax': 250,
      expiresAt: new Date('2026-11-26T00:00:00Z'),
    });
    expect(update.$setOnInsert).toEqual({
      organizationId: 1,
      websiteId: 7,
      region: 'eu-west',
      period: 'hour',
    });
    const days = rollupUpdate(map.get('7:eu-west:day:2026-11') as RollupIncrement);
    expect(days.$max.expiresAt).toEqual(new Date(Date.parse('2026-12-01T00:00:00Z') + 800 * 86_400_000));
    // Day documents count their flushes (a month's fold compares them); hour documents do not.
    expect(days.$inc).toMatchObject({ writes: 1 });
    expect(update.$inc).not.toHaveProperty('writes');
  });

  it("a month's fold sums every region's cells: counts and histograms added, maxima kept", () => {
    const eu = increments(
      result({ timings: { total: 100 }, ssl: { validTo: new Date('2027-01-01T00:00:00Z') } }),
      result({ status: 'down', timings: { total: 0 } }),
    ).get('7:eu-west:day:2026-11') as RollupIncrement;
    const us = increments(
      result({ region: 'us', timings: { total: 300 }, ssl: { validTo: new Date('2027-02-01T00:00:00Z') } }),
      result({ region: 'us', startedAt: new Date('2026-11-24T10:00:00Z'), timings: { total: 12 } }),
    ).get('7:us:day:2026-11') as RollupIncrement;
    const cells = summedCells([Object.fromEntries(eu.cells), Object.fromEntries(us.cells), undefined]);
    expect(cells['23']).toEqual({
      checks: 3,
      up: 2,
      degraded: 0,
      down: 1,
      responseMsSum: 400,
      responseMsCount: 2,
      responseMsMax: 300,
      latency: { b17: 1, b25: 1 },
      sslValidTo: Date.parse('2027-02-01T00:00:00Z'),
    });
    expect(cells['24']).toMatchObject({ checks: 1, responseMsSum: 12, latency: { b2: 1 } });
    // The regions' own cells are left as they were.
    expect(eu.cells.get('23')?.checks).toBe(2);
  });

  it('keeps the latest certificate expiry a cell saw, as a maximum', () => {
    const map = increments(
      result({ ssl: { validTo: new Date('2027-01-15T00:00:00Z') } }),
      result({ ssl: { validTo: new Date('2026-12-01T00:00:00Z') } }),
      result({ ssl: null }),
    );
    const cell = map.get('7:eu-west:day:2026-11')?.cells.get('23');
    expect(cell?.sslValidTo).toBe(Date.parse('2027-01-15T00:00:00Z'));
    const update = rollupUpdate(map.get('7:eu-west:day:2026-11') as RollupIncrement);
    expect(update.$max).toMatchObject({ 'cells.23.sslValidTo': Date.parse('2027-01-15T00:00:00Z') });
  });

  it('puts a response time in the latency bucket that holds it', () => {
    for (const ms of [0, 9.9, 10, 11.49, 11.51, 250, 5_000, 119_000, 10_000_000]) {
      const { lower, upper } = latencyBounds(latencyBucket(ms));
      expect(ms >= lower && ms < upper, `${ms} in [${lower}, ${upper})`).toBe(true);
    }
  });

  it('a write given up is merged into the next one', () => {
    const first = increments(result({ timings: { total: 100 } }));
    const second = increments(
      result({ timings: { total: 400 } }),
      result({ startedAt: new Date('2026-11-23T12:00:00Z') }),
    );
    const into = first.get('7:eu-west:hour:2026-11-23') as RollupIncrement;
    mergeIncrement(into, second.get('7:eu-west:hour:2026-11-23') as RollupIncrement);
    expect(into.cells.get('10')).toMatchObject({ checks: 2, responseMsSum: 500, responseMsMax: 400 });
    expect(into.cells.get('12')).toMatchObject({ checks: 1 });
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
        period: 'hour',
        cells: { '11': counts, '09': counts, '10': counts, junk: counts },
      },
      new Date('2026-11-23T00:00:00Z'),
      new Date('2026-11-23T10:00:00Z'),
    );
    expect(rows.map((row) => row.start.toISOString())).toEqual([
      '2026-11-23T10:00:00.000Z',
      '2026-11-23T11:00:00.000Z',
    ]);
    expect(rows[0]).toMatchObject({ websiteId: 7, region: 'eu-west', period: 'hour', checks: 2 });
  });
});
