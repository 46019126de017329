import { describe, expect, it } from 'vitest';
import { MAX_RUN_FILES_BYTES } from '../../run-files.js';
import { keptFiles, type RunFiles } from './browser.files.js';

const MIB = 1024 * 1024;
const KIB = 1024;
const shot = (name: string, bytes: number) => ({ name, png: Buffer.alloc(bytes) });

/** A failing run as the runner hands it over: its screenshot steps in step order, then the failure's. */
const failing = (screenshots: RunFiles['screenshots'], traceBytes: number): RunFiles => ({
  passed: false,
  screenshots,
  trace: Buffer.alloc(traceBytes),
  notKept: ['screenshot huge (4096 KiB, over 2 MiB)'],
});

const names = (files: RunFiles) => files.screenshots.map((kept) => kept.name);

describe('keptFiles: what a run keeps within its bound in all', () => {
  it('keeps every file of a run within the bound, as the runner handed them over', () => {
    const run = failing([shot('cart', 2 * KIB), shot('failure', 2 * KIB)], 10 * KIB);
    expect(keptFiles(run, 14 * KIB)).toEqual(run);
  });

  it('keeps the failure first, then the steps in order, the trace last; each dropped file named', () => {
    const steps = Array.from({ length: 10 }, (_, index) => shot(`step-${index + 1}`, 2 * MIB));
    const kept = keptFiles(failing([...steps, shot('failure', 2 * MIB)], 10 * MIB));
    // 2 MiB for the failure, then 9 steps of 2 MiB fill 20 MiB: the 10th step and the trace do not fit.
    expect(names(kept)).toEqual([...steps.slice(0, 9).map((step) => step.name), 'failure']);
    expect(kept.trace).toBeNull();
    expect(kept.notKept).toEqual([
      'screenshot huge (4096 KiB, over 2 MiB)',
      'screenshot step-10 (2048 KiB, beyond the 20 MiB a run keeps in all)',
      'trace (10240 KiB, beyond the 20 MiB a run keeps in all)',
    ]);
  });

  it('a file that does not fit is dropped, and a later one that fits in what is left is kept', () => {
    const run = failing([shot('big', 2 * MIB), shot('small', MIB), shot('failure', 2 * MIB)], MIB / 2);
    // The failure's 2 MiB, then "big" (2 MiB) is beyond the 1.5 MiB left; "small" and the trace fit.
    const kept = keptFiles(run, 3.5 * MIB);
    expect(names(kept)).toEqual(['small', 'failure']);
    expect(kept.trace?.length).toBe(MIB / 2);
    expect(kept.notKept.at(-1)).toBe('screenshot big (2048 KiB, beyond the 3.5 MiB a run keeps in all)');
  });

  it('a passing run keeps no trace, and says nothing of it', () => {
    const passing = { ...failing([shot('signed-in', KIB)], KIB), passed: true, notKept: [] };
    expect(keptFiles(passing)).toEqual({ ...passing, trace: null });
  });

  it('a run at its files’ most (10 screenshot steps, the failure, the trace) is bounded by the one figure', () => {
    const steps = Array.from({ length: 10 }, (_, index) => shot(`step-${index + 1}`, 2 * MIB));
    const kept = keptFiles(failing([...steps, shot('failure', 2 * MIB)], 10 * MIB));
    const bytes = kept.screenshots.reduce((sum, { png }) => sum + png.length, kept.trace?.length ?? 0);
    expect(bytes).toBeLessThanOrEqual(MAX_RUN_FILES_BYTES);
  });
});
