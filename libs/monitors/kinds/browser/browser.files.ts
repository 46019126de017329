import type { JourneyRun } from '../../../journeys/index.js';
import { MAX_RUN_FILES_BYTES } from '../../run-files.js';

/** What the journey runner calls the page at a failure's screenshot. */
const FAILURE_SHOT = 'failure';

/** A run's files as the runner handed them over, and what it did not keep (over a file's own bound). */
export type RunFiles = Pick<JourneyRun, 'passed' | 'screenshots' | 'trace' | 'notKept'>;

const MIB = 1024 * 1024;

/**
 * The files a run keeps within `maxBytes` together (pure), the most telling first: the page at the
 * failure, the screenshot steps in step order, the trace last; a file that does not fit in what is
 * left is dropped and named in `notKept`, as the runner names one over its own bound. A passing run
 * keeps no trace (Playwright's retain-on-failure): its steps' outcomes say what it did.
 */
export function keptFiles(run: RunFiles, maxBytes = MAX_RUN_FILES_BYTES): RunFiles {
  const failure = run.screenshots.filter((shot) => shot.name === FAILURE_SHOT);
  const steps = run.screenshots.filter((shot) => shot.name !== FAILURE_SHOT);
  const trace = run.passed ? null : run.trace;
  let left = maxBytes;
  const dropped: string[] = [];
  const fits = (what: string, bytes: number) => {
    if (bytes <= left) {
      left -= bytes;
      return true;
    }
    dropped.push(
      `${what} (${Math.round(bytes / 1024)} KiB, beyond the ${maxBytes / MIB} MiB a run keeps in all)`,
    );
    return false;
  };
  const keptShots = new Set(
    [...failure, ...steps].filter((shot) => fits(`screenshot ${shot.name}`, shot.png.length)),
  );
  const keptTrace = trace && fits('trace', trace.length) ? trace : null;
  return {
    passed: run.passed,
    // In the runner's order (the steps', then the failure's), as the evidence names them.
    screenshots: run.screenshots.filter((shot) => keptShots.has(shot)),
    trace: keptTrace,
    notKept: [...run.notKept, ...dropped],
  };
}
