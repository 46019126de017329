import type { z } from 'zod';
import type { journeyRunEvidence } from '../../../journeys/index.js';
import type { BrowserObservation } from './browser.verdict.js';

/**
 * What a result keeps of a run, bounded by the runner (steps, console errors, failed requests,
 * refusals, Web Vitals) with secrets masked there; the images and the trace are files of the run
 * (`runId`), those it keeps (`keptFiles`) named here so the results can link them.
 */
export function browserEvidence(run: BrowserObservation) {
  const evidence = {
    runId: run.runId,
    steps: run.steps,
    failedStep: run.failedStep,
    error: run.error,
    screenshots: run.screenshots.map((shot) => shot.name),
    trace: run.trace !== null,
    notKept: run.notKept,
    consoleErrors: run.consoleErrors,
    failedRequests: run.failedRequests,
    blocked: run.blocked,
    vitals: run.vitals,
  } satisfies z.input<typeof journeyRunEvidence>;
  return evidence;
}
