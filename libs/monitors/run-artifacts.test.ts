import { describe, expect, it } from 'vitest';
import type { Gathered } from './monitor-gather.js';
import { filesRetentionDays, withRunFiles } from './run-artifacts.js';
import { PASSING_RUN_FILES_DAYS } from './run-files.js';
import { downVerdict } from './verdict.js';

const at = new Date('2026-11-23T10:00:00Z');
const runId = '0123456789abcdef01234567';

/** A journey's failing run as gathered: its evidence names its files, its events its screenshot. */
function failingRun(): Gathered {
  const seen = {
    durationMs: 3400,
    address: '203.0.113.7',
    timings: { totalMs: 3400 },
    evidence: { runId, screenshots: ['failure'], trace: true },
  };
  return {
    at,
    result: { region: 'eu-west', status: 'down', cause: 'Step 9 (Add to basket): not done', ...seen },
    verdict: downVerdict('JOURNEY_STEP_FAILED', 'Step 9 (Add to basket): not done'),
    seen,
    details: { screenshot: { runId, name: 'failure' } },
    artifacts: { runId, files: [{ kind: 'screenshot', name: 'failure', data: Buffer.from('png') }] },
  };
}

describe('what a run keeps of its files', () => {
  it('a failing run’s files as long as its result; a passing run’s a week, or its result’s retention if shorter', () => {
    expect(filesRetentionDays('down', 90)).toBe(90);
    expect(filesRetentionDays('degraded', 90)).toBe(90);
    expect(filesRetentionDays('up', 90)).toBe(PASSING_RUN_FILES_DAYS);
    expect(filesRetentionDays('up', 3)).toBe(3);
  });

  it('files stored: the result says until when they can be read, its events keep the screenshot', () => {
    const until = new Date('2027-02-21T10:00:00Z');
    const kept = withRunFiles(failingRun(), until);
    expect(kept.details).toEqual({ screenshot: { runId, name: 'failure' } });
    expect(kept.result.evidence).toEqual({
      runId,
      screenshots: ['failure'],
      trace: true,
      filesKeptUntil: '2027-02-21T10:00:00.000Z',
    });
    expect(kept.seen.evidence).toEqual(kept.result.evidence);
  });

  it('files not stored: no screenshot for the events to link, and the result says none can be read', () => {
    const gathered = failingRun();
    const lost = withRunFiles(gathered, null);
    expect(lost.details).toEqual({});
    expect(lost.result.evidence).toMatchObject({ filesKeptUntil: null });
    expect(lost.seen.evidence).toMatchObject({ filesKeptUntil: null });
    // The check as gathered is left as it was.
    expect(gathered.details).toHaveProperty('screenshot');
  });
});
