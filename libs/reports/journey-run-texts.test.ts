import { describe, expect, it } from 'vitest';
import { stepCells, successText } from './journey-run-texts.js';

describe('a report’s journey runs in words', () => {
  it('says the success rate to three decimals, and when nothing ran', () => {
    expect(successText({ runs: 1440, successRatePercent: 99.30555, steps: [] })).toBe(
      '99.306 % of 1,440 runs passed',
    );
    expect(successText({ runs: 1, successRatePercent: 100, steps: [] })).toBe('100.000 % of 1 run passed');
    expect(successText({ runs: 0, successRatePercent: null, steps: [] })).toBe('no run in the period');
  });

  it('gives a step its position, its median and the runs it passed in (a dash when it never passed)', () => {
    expect(stepCells({ step: 2, name: 'Add to basket', passedRuns: 1200, medianMs: 1234 })).toEqual([
      '2. Add to basket',
      '1,234 ms',
      '1,200 runs',
    ]);
    expect(stepCells({ step: 3, name: 'Pay', passedRuns: 0, medianMs: null })).toEqual([
      '3. Pay',
      '–',
      '0 runs',
    ]);
  });
});
