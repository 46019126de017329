import { z } from 'zod';
import type { JourneyOptions } from './journey-options.schema.js';
import type { JourneyStep } from './journey-steps.schema.js';

/**
 * A test written by Playwright's recorder (`npx playwright codegen`), pasted to become a
 * journey's steps: the request and what comes back. Pure, so the app's import box checks and
 * types it with the API's own schema (the converter itself, with its parser, is `fromPlaywright`).
 */

/** A recording this long at most (a recorded test of 50 steps is a few KiB). */
export const MAX_RECORDING_CHARS = 100_000;

export const recordingBody = z.strictObject({
  code: z
    .string()
    .min(1)
    .max(MAX_RECORDING_CHARS)
    .describe('A test as `npx playwright codegen` writes it (JavaScript or TypeScript); parsed, never run'),
});

/** A statement that did not become a step, and why. */
export interface UnconvertedLine {
  /** 1-based, where the statement begins. */
  line: number;
  /** The statement as written (cut to a few hundred characters). */
  text: string;
  reason: string;
}

/** The options a recording sets (`test.use`, `browser.newContext`) and the secrets taken out of its steps. */
export type RecordedOptions = Partial<
  Pick<JourneyOptions, 'device' | 'viewport' | 'locale' | 'timezone' | 'extraHeaders' | 'secrets'>
>;

export interface ConvertedRecording {
  /** In order, defaults filled in; a password typed is `{{secret.PASSWORD}}`, its value in `options.secrets`. */
  steps: JourneyStep[];
  options: RecordedOptions;
  unconverted: UnconvertedLine[];
}
