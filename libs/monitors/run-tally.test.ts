import { describe, expect, it } from 'vitest';
import { latencyBucket } from '../monitoring/index.js';
import { addRun, mergeDays, talliedRun, tallyCell, tallyUpdate } from './run-tally.js';

const at = new Date('2026-11-23T10:00:00Z');

/** A browser journey's result as the worker logs it: its steps from 0, a failing one and one skipped. */
const browserResult = {
  region: 'eu-west',
  status: 'down' as const,
  cause: 'Step 2 (Add to basket): not done within 2 s',
  durationMs: 3400,
  evidence: {
    runId: '0123456789abcdef01234567',
    steps: [
      { index: 0, action: 'goto', name: 'Go to https://shop.example/', outcome: 'passed', durationMs: 420 },
      { index: 1, action: 'click', name: 'Add to basket', outcome: 'failed', durationMs: 2000, error: 'x' },
      { index: 2, action: 'expect', name: 'Basket shows 1', outcome: 'skipped', durationMs: null },
    ],
  },
};

/** An API flow's: its steps from 1, both passed. */
const flowResult = {
  region: 'us-east',
  status: 'up' as const,
  cause: null,
  durationMs: 90,
  evidence: {
    steps: [
      { step: 1, name: 'Sign in', method: 'POST', status: 200, durationMs: 60, outcome: 'passed' },
      { step: 2, name: 'Me', method: 'GET', status: 200, durationMs: 30, outcome: 'passed' },
    ],
    notRun: 0,
    failedStep: null,
  },
};

describe('talliedRun', () => {
  it.each([
    {
      what: 'a failing browser run: only the steps it passed are timed',
      kind: 'browser' as const,
      result: browserResult,
      expected: {
        region: 'eu-west',
        passed: false,
        steps: [
          { index: 0, name: 'Go to https://shop.example/', passedInMs: 420 },
          { index: 1, name: 'Add to basket', passedInMs: null },
          { index: 2, name: 'Basket shows 1', passedInMs: null },
        ],
      },
    },
    {
      what: 'a passing API flow, its steps numbered from 1',
      kind: 'api-flow' as const,
      result: flowResult,
      expected: {
        region: 'us-east',
        passed: true,
        steps: [
          { index: 0, name: 'Sign in', passedInMs: 60 },
          { index: 1, name: 'Me', passedInMs: 30 },
        ],
      },
    },
  ])('$what', ({ kind, result, expected }) => {
    expect(talliedRun(kind, at, result)).toEqual({ ...expected, at });
  });

  it.each([
    ['another kind', 'port' as const, browserResult],
    ['a result without steps', 'browser' as const, { ...browserResult, evidence: { error: 'no run' } }],
    ['no result', 'browser' as const, undefined],
  ])('%s is not counted', (_what, kind, result) => {
    expect(talliedRun(kind, at, result)).toBeNull();
  });
});

describe('a day’s tally and its update', () => {
  const failing = talliedRun('browser', at, browserResult);
  const passing = talliedRun('browser', at, {
    ...browserResult,
    status: 'up',
    evidence: {
      steps: [
        { index: 0, name: 'Go to https://shop.example/', outcome: 'passed', durationMs: 300 },
        { index: 1, name: 'Add to basket (renamed)', outcome: 'passed', durationMs: 150 },
      ],
    },
  });

  it('counts runs and passes, times each step where it passed, keeps the latest name', () => {
    if (!failing || !passing) throw new Error('not tallied');
    const day = addRun(addRun(undefined, failing), passing);
    expect(day).toEqual({
      runs: 2,
      passed: 1,
      steps: {
        s0: {
          name: 'Go to https://shop.example/',
          latency: { [`b${latencyBucket(420)}`]: 1, [`b${latencyBucket(300)}`]: 1 },
        },
        s1: { name: 'Add to basket (renamed)', latency: { [`b${latencyBucket(150)}`]: 1 } },
        s2: { name: 'Basket shows 1', latency: {} },
      },
    });
    expect(tallyCell(at)).toEqual({ month: '2026-11', day: 'd23' });
    const update = tallyUpdate(new Map([['d23', day]]));
    expect(update.$inc).toMatchObject({
      'days.d23.runs': 2,
      'days.d23.passed': 1,
      [`days.d23.steps.s1.latency.b${latencyBucket(150)}`]: 1,
    });
    expect(update.$set).toEqual({
      'days.d23.steps.s0.name': 'Go to https://shop.example/',
      'days.d23.steps.s1.name': 'Add to basket (renamed)',
      'days.d23.steps.s2.name': 'Basket shows 1',
    });
  });

  it('a flush given up is merged into the next one: counts added, the newer names kept', () => {
    if (!failing || !passing) throw new Error('not tallied');
    const merged = mergeDays(addRun(undefined, passing), addRun(undefined, failing));
    expect(merged.runs).toBe(2);
    expect(merged.passed).toBe(1);
    expect(merged.steps.s1?.name).toBe('Add to basket (renamed)');
    expect(Object.values(merged.steps.s0?.latency ?? {}).reduce((a, b) => a + b, 0)).toBe(2);
  });
});
