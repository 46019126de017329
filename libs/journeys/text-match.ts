import { RE2JS } from 're2js';
import { z } from 'zod';

/** Texts compared by a step (a title, a URL, an element's text) are at most this long. */
export const MAX_TEXT_CHARS = 2000;

/**
 * A pattern the runner matches with RE2 (linear time, so a journey cannot stall a worker on a
 * catastrophic backtrack): JavaScript's flags are written inline, `(?i)` for /…/i.
 */
export function re2Problem(pattern: string): string | null {
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (error) {
    return `Must be a regular expression RE2 runs (no backreferences or lookaround): ${(error as Error).message}`;
  }
}

const pattern = z
  .string()
  .min(1)
  .max(MAX_TEXT_CHARS)
  .superRefine((source, context) => {
    const problem = re2Problem(source);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** What a text must be: equal to a text, contain it, or match an RE2 pattern. */
export const textMatch = z
  .union([
    z.strictObject({ equals: z.string().max(MAX_TEXT_CHARS) }).meta({ id: 'JourneyTextEquals' }),
    z.strictObject({ contains: z.string().min(1).max(MAX_TEXT_CHARS) }).meta({ id: 'JourneyTextContains' }),
    z.strictObject({ matches: pattern }).meta({ id: 'JourneyTextMatches' }),
  ])
  .describe('{equals: text}, {contains: text} or {matches: RE2 pattern}; placeholders are filled first');
export type TextMatch = z.output<typeof textMatch>;

/** The text a match compares with (placeholders are filled in it). */
export const matchText = (match: TextMatch) =>
  'equals' in match ? match.equals : 'contains' in match ? match.contains : match.matches;

/** Whether `text` is what `match` asks (the runner's one comparison for titles, URLs and texts). */
export function matchesText(match: TextMatch, text: string): boolean {
  if ('equals' in match) return text === match.equals;
  if ('contains' in match) return text.includes(match.contains);
  return RE2JS.compile(match.matches).matcher(text).find();
}

/** The match as it reads in a step's outcome ("equals \"Shop\"", "matches /^Order \d+/"). */
export function describeMatch(match: TextMatch): string {
  if ('equals' in match) return `equals ${JSON.stringify(match.equals)}`;
  if ('contains' in match) return `contains ${JSON.stringify(match.contains)}`;
  return `matches /${match.matches}/`;
}
