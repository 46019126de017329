import { describe, expect, it } from 'vitest';
import { SweepPacing } from './sweep-pacing.js';

describe('sweep pacing', () => {
  it('sweeps whenever nothing waits', () => {
    const pacing = new SweepPacing(3);
    expect([0, 0, 0, 0, 0].map((waiting) => pacing.due(waiting))).toEqual([true, true, true, true, true]);
  });

  it('puts a sweep off while events wait, at most so many times in a row', () => {
    const pacing = new SweepPacing(3);
    expect([500, 400, 300, 200, 100, 50, 0, 10].map((waiting) => pacing.due(waiting))).toEqual([
      false,
      false,
      false,
      true,
      false,
      false,
      true,
      false,
    ]);
  });
});
