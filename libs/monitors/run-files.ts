import { randomBytes } from 'node:crypto';

/**
 * The files a run makes beside its result (a journey's screenshots and trace), as its kind hands
 * them over, and the bounds on them: what kinds need without the store (`run-artifacts.ts`).
 */

/**
 * A run's files together at most: a journey of 10 screenshot steps (2 MiB each), its failure's
 * screenshot and its trace (10 MiB) could make 32 MiB a run, every few minutes. What is kept first
 * is the kind's choice (a journey's: the failure, its screenshot steps, the trace).
 */
export const MAX_RUN_FILES_BYTES = 20 * 1024 * 1024;

/**
 * A passing run's files (a journey's screenshot steps) are kept this long at most (its result's
 * retention when shorter): they show a page that worked, looked at in days, not months. A failing
 * run's are kept as long as its result.
 */
export const PASSING_RUN_FILES_DAYS = 7;

/** Lighthouse's HTML reports (1–3 MiB each, a run a page and preset) are kept this long at most. */
export const REPORT_FILES_DAYS = 30;

/** What a run keeps beside its result: a screenshot (PNG), a trace (zip) or a Lighthouse report (HTML). */
export type ArtifactKind = 'screenshot' | 'trace' | 'report';

export const ARTIFACT_CONTENT_TYPES: Record<ArtifactKind, string> = {
  screenshot: 'image/png',
  trace: 'application/zip',
  report: 'text/html; charset=utf-8',
};

/** One file a run made, as its kind's probe hands it over. */
export interface RunArtifact {
  kind: ArtifactKind;
  /** A screenshot step's name, `failure` for the page at a failure, `trace` for the trace. */
  name: string;
  data: Buffer;
}

/** A run's id: 24 hexadecimal digits, as results are named in routes. */
export const newRunId = () => randomBytes(12).toString('hex');
