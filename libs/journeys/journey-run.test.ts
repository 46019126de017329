import { describe, expect, it } from 'vitest';
import { journeySettings } from './journey-options.schema.js';
import { type JourneyRun, newRun, overrun } from './journey-run.js';

const journey = journeySettings.parse({
  steps: [
    { action: 'goto', url: 'https://shop.example/' },
    { action: 'press', key: 'Enter' },
    { action: 'click', locator: { by: 'text', text: 'Buy' } },
  ],
});
const seen = { deadlineMs: 30_000, connected: true, now: 50_000 };

/** A run whose first `played` steps passed. */
function playedUpTo(played: number): JourneyRun {
  const run = newRun(journey, 10_000, (text) => text);
  for (const step of run.steps.slice(0, played)) Object.assign(step, { outcome: 'passed', durationMs: 5 });
  return run;
}

describe('overrun', () => {
  it('fails the step the page held up for the deadline: the site’s failure, not the browser’s', () => {
    const run = playedUpTo(1);
    const given = overrun(run, { at: 1, since: 12_000 }, seen);
    expect(given).toMatchObject({
      passed: false,
      failure: 'TIMEOUT',
      failedStep: 1,
      error: 'Step 2 (press Enter): not done within the journey’s 30 s',
      browserBroke: false,
    });
    expect(given.steps[1]).toMatchObject({ outcome: 'failed', durationMs: 38_000 });
    expect(given.steps[2]?.outcome).toBe('skipped');
  });

  it('takes a run held up making its context for the browser broken', () => {
    const given = overrun(playedUpTo(0), { at: 'setup', since: 10_000 }, seen);
    expect(given).toMatchObject({
      passed: false,
      failure: 'TIMEOUT',
      failedStep: null,
      error: 'The journey could not run: the browser did not answer within the journey’s 30 s',
      browserBroke: true,
    });
  });

  it('fails the next step when the page held up the run after one passed: it never got its turn', () => {
    const given = overrun(playedUpTo(1), { at: 0, since: 11_000 }, seen);
    expect(given).toMatchObject({ passed: false, failure: 'TIMEOUT', failedStep: 1, browserBroke: false });
    expect(given.steps[1]).toMatchObject({ outcome: 'failed', durationMs: 0 });
  });

  it('keeps the verdict of a run held up after a step failed or after its last: only its files are lost', () => {
    const passed = overrun(playedUpTo(3), { at: 'aftermath', since: 40_000 }, seen);
    expect(passed).toMatchObject({ passed: true, failure: null, error: null, browserBroke: false });
    expect(passed.notKept).toEqual([
      'what follows the steps (a screenshot, the trace): not done within the journey’s 30 s',
    ]);
    const failed = playedUpTo(2);
    Object.assign(failed, {
      failure: 'STEP_FAILED',
      failedStep: 2,
      error: 'Step 3 (click text "Buy"): gone',
    });
    Object.assign(failed.steps[2] as object, { outcome: 'failed', error: 'gone' });
    // Held up reading the failed page's figures, or making its screenshot: the same.
    for (const at of [2, 'aftermath'] as const)
      expect(overrun(failed, { at, since: 20_000 }, seen)).toMatchObject({
        passed: false,
        failure: 'STEP_FAILED',
        failedStep: 2,
        error: 'Step 3 (click text "Buy"): gone',
        browserBroke: false,
      });
  });

  it('takes the browser for broken when it is gone, whatever the run was doing', () => {
    expect(
      overrun(playedUpTo(3), { at: 'aftermath', since: 40_000 }, { ...seen, connected: false }),
    ).toMatchObject({
      browserBroke: true,
    });
  });

  it('is a copy: what the abandoned run still writes does not reach it', () => {
    const run = playedUpTo(1);
    const given = overrun(run, { at: 1, since: 12_000 }, seen);
    run.consoleErrors.push('late');
    run.failedRequests.push({ method: 'GET', url: 'https://shop.example/x', status: null, error: 'aborted' });
    run.notKept.push('late');
    run.screenshots.push({ name: 'failure', png: Buffer.alloc(1) });
    Object.assign(run.steps[1] as object, { outcome: 'passed' });
    expect(given.consoleErrors).toEqual([]);
    expect(given.failedRequests).toEqual([]);
    expect(given.notKept).toEqual([]);
    expect(given.screenshots).toEqual([]);
    expect(given.steps[1]?.outcome).toBe('failed');
  });
});
