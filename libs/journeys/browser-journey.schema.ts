import { z } from 'zod';
import { journeySettings } from './journey-options.schema.js';
import { journeyIssues } from './journey-problems.js';

/**
 * A browser journey as it is written and read back: the step format (version 1) with the
 * browser's options, defaults filled in, and refused with each problem at its field when it
 * cannot run (the cross-field rules run once the shape is right, so each error is the real one).
 */
export const browserJourney = journeySettings
  .superRefine(
    (journey, context) => {
      for (const issue of journeyIssues(journey))
        context.addIssue({ code: 'custom', path: [...issue.path], message: issue.message });
    },
    { when: (payload) => payload.issues.length === 0 },
  )
  .meta({
    id: 'BrowserJourney',
    title: 'Browser journey',
    description:
      'Ordered steps a browser plays on one page (go to, click, fill, select, check, press, hover, upload, wait for, expect, screenshot) with the device, locale, time zone, headers, basic auth, cookies, variables and secrets it runs with. Texts may hold {{name}} (a variable) and {{secret.NAME}} (a secret).',
  });

let jsonSchema: Record<string, unknown> | undefined;

/**
 * The step format's JSON Schema (draft 2020-12) as a journey is written (defaults optional), for
 * editors and the route that serves it. The cross-field rules are not in it (`journeyProblems`).
 */
export function journeyJsonSchema(): Record<string, unknown> {
  jsonSchema ??= z.toJSONSchema(browserJourney, { io: 'input', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  return jsonSchema;
}
