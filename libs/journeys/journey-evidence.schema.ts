import { z } from 'zod';
import { JOURNEY_ACTIONS } from './journey-steps.schema.js';
import { pageVitals } from './web-vitals.js';

/**
 * What a browser journey's result keeps of its run, as the API shows it: the app draws a run from
 * this (its types are generated from the OpenAPI document), and the browser kind's evidence
 * satisfies it. Texts are bounded and masked by the runner.
 */
export const journeyRunEvidence = z
  .object({
    runId: z
      .string()
      .describe('The run’s id: its files are read by it (…/results/{runId}/screenshot, …/trace)'),
    steps: z.array(
      z.object({
        index: z.number().int().describe('From 0'),
        action: z.enum(JOURNEY_ACTIONS),
        name: z.string().describe('What it does, in words (its own name, or one made of its fields)'),
        outcome: z.enum(['passed', 'failed', 'skipped']),
        durationMs: z.number().nullable().describe('null: skipped'),
        error: z.string().nullable(),
      }),
    ),
    failedStep: z.number().int().nullable().describe('The failed step’s index; null: none failed'),
    error: z.string().nullable().describe('Why the run failed, in words'),
    screenshots: z
      .array(z.string())
      .describe('The screenshots kept: screenshot steps’ names, and `failure` for the page at a failure'),
    trace: z.boolean().describe('Whether a Playwright trace was kept (a failing run’s)'),
    notKept: z.array(z.string()).describe('Files not kept and why (over a bound)'),
    consoleErrors: z.array(z.string()),
    failedRequests: z.array(
      z.object({
        method: z.string(),
        url: z.string().describe('Without its query'),
        status: z.number().int().nullable().describe('null: no answer (see error)'),
        error: z.string().nullable(),
      }),
    ),
    blocked: z
      .array(z.object({ target: z.string(), reason: z.string(), times: z.number().int() }))
      .describe('What the address guard refused (never reached)'),
    vitals: z.array(pageVitals).describe('Each page’s Web Vitals'),
    filesKeptUntil: z.iso
      .datetime()
      .nullable()
      .optional()
      .describe(
        'Until when its files can be read; null: they could not be stored; absent: no file or an older run',
      ),
  })
  .meta({ id: 'JourneyRunEvidence' });
