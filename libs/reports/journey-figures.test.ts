import { describe, expect, it } from 'vitest';
import { latencyBounds, latencyBucket } from '../monitoring/index.js';
import { type JourneyDay, journeyFiguresOf } from './journey-figures.js';

/** A day's runs whose steps each took the given times in the runs they passed in. */
function day(
  date: string,
  runs: number,
  passed: number,
  steps: Record<string, [string, number[]]>,
): JourneyDay {
  return {
    date,
    runs,
    passed,
    steps: Object.fromEntries(
      Object.entries(steps).map(([key, [name, times]]) => {
        const latency: Record<string, number> = {};
        for (const ms of times)
          latency[`b${latencyBucket(ms)}`] = (latency[`b${latencyBucket(ms)}`] ?? 0) + 1;
        return [key, { name, latency }];
      }),
    ),
  };
}

/** Whether `ms` falls in the bucket `expected` falls in (a median is read from buckets). */
const sameBucket = (ms: number | null, expected: number) => {
  const { lower, upper } = latencyBounds(latencyBucket(expected));
  return ms !== null && ms >= lower && ms < upper;
};

describe('journeyFiguresOf', () => {
  const days = [
    // Before the period: not counted.
    day('2026-10-31', 10, 0, { s0: ['Go to the shop', [9000]] }),
    day('2026-11-01', 4, 3, {
      s0: ['Go to the shop', [400, 420, 440, 460]],
      s1: ['Add to basket', [150, 160, 170]],
    }),
    day('2026-11-02', 4, 4, {
      s0: ['Go to the shop', [400, 410, 430, 450]],
      s1: ['Add to basket', [140, 150, 160, 2000]],
      // A step added on the 2nd, named as the latest run named it.
      s2: ['Check the basket', [80, 90, 100, 110]],
    }),
    day('2026-11-03', 2, 0, { s0: ['Go to the home page', []], s1: ['Add to basket', []] }),
  ];

  it('success rate over the period’s runs, each step’s median over the runs it passed in, in order', () => {
    const figures = journeyFiguresOf(days, { from: '2026-11-01', to: '2026-11-30' });
    expect(figures).toMatchObject({ runs: 10, passedRuns: 7, successRatePercent: 70 });
    expect(figures.steps.map(({ step, name, passedRuns }) => ({ step, name, passedRuns }))).toEqual([
      { step: 1, name: 'Go to the home page', passedRuns: 8 },
      { step: 2, name: 'Add to basket', passedRuns: 7 },
      { step: 3, name: 'Check the basket', passedRuns: 4 },
    ]);
    const [first, second, third] = figures.steps;
    // The 4th of 8 and of 7 times, and between the 2nd and 3rd of 4: the slow outlier does not move it.
    expect(sameBucket(first?.medianMs ?? null, 430)).toBe(true);
    expect(sameBucket(second?.medianMs ?? null, 160)).toBe(true);
    expect(sameBucket(third?.medianMs ?? null, 90)).toBe(true);
  });

  it('a step that never passed has no median; a period without runs has no success rate', () => {
    const figures = journeyFiguresOf(days, { from: '2026-11-03', to: '2026-11-03' });
    expect(figures).toMatchObject({ runs: 2, passedRuns: 0, successRatePercent: 0 });
    expect(figures.steps.map((step) => step.medianMs)).toEqual([null, null]);
    expect(journeyFiguresOf(days, { from: '2026-12-01', to: '2026-12-31' })).toEqual({
      runs: 0,
      passedRuns: 0,
      successRatePercent: null,
      steps: [],
    });
  });

  it('a step slower than the last bucket’s start is told as that start, not infinity', () => {
    const figures = journeyFiguresOf([day('2026-11-01', 1, 1, { s0: ['Export', [600_000]] })], {
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(Number.isFinite(figures.steps[0]?.medianMs)).toBe(true);
  });
});
