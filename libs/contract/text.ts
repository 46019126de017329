import { z } from 'zod';

// C0 and C1 controls (DEL too): in a name they end a CSV row, a mail subject's header or a log line.
const CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f';
// Bidirectional embeddings, overrides and isolates: they make a name read as other text where it is shown.
const BIDI_CONTROLS = '\\u202a-\\u202e\\u2066-\\u2069';

const ONLY_TEXT = new RegExp(`^[^${CONTROLS}${BIDI_CONTROLS}]*$`);
// Prose keeps its line breaks (LF, CR) and tabs.
const ONLY_PROSE = new RegExp(
  `^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f${BIDI_CONTROLS}]*$`,
);
const CONTROL_RUN = new RegExp(`[${CONTROLS}]+`, 'g');
const BIDI_CONTROL = new RegExp(`[${BIDI_CONTROLS}]`, 'g');

/** What a stored name that is not text becomes when nothing of it is left. */
export const UNNAMED = 'unnamed';

/**
 * One line of text people write (a footer, a cover line), trimmed, at most `max` characters. Control
 * characters (NUL, CR, LF and the rest of C0 and C1) and bidirectional overrides are refused before
 * trimming, so the OpenAPI `pattern` says exactly what is refused.
 */
export function lineText(max: number) {
  return z
    .string()
    .regex(
      ONLY_TEXT,
      'must be one line of text: no control characters (NUL, CR, LF…) or bidirectional overrides',
    )
    .trim()
    .max(max);
}

/** A name or title people give (a website's, a customer's, a page's…): `lineText` of 1 to `max` characters. */
export const nameText = (max: number) => lineText(max).min(1);

/** Text of several lines (an incident's note): `lineText`'s refusals but for line breaks and tabs. */
export function proseText(max: number) {
  return z
    .string()
    .regex(
      ONLY_PROSE,
      'must be text: no control characters but line breaks and tabs, no bidirectional overrides',
    )
    .trim()
    .max(max);
}

/** Whether `name` is text as `nameText` takes it (untrimmed). */
export const isNameText = (name: string): boolean => ONLY_TEXT.test(name);

/**
 * A name stored before `nameText` as it would now be taken: each run of control characters a space,
 * bidirectional overrides dropped, trimmed (`UNNAMED` when nothing is left). Idempotent.
 */
export function cleanName(name: string): string {
  return name.replace(CONTROL_RUN, ' ').replace(BIDI_CONTROL, '').trim() || UNNAMED;
}

// As strict validators of `format: email` read RFC 5321 and 1035: dot-separated atoms before the @,
// host labels of 1 to 63 characters that neither start nor end with '-'.
const EMAIL =
  /^[A-Za-z0-9_'+-]+(?:\.[A-Za-z0-9_'+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/**
 * An e-mail address every reader of the OpenAPI document takes: zod's own rule let through labels
 * ending in '-' and local parts over 64 characters, which the responses' `format: email` refuses.
 */
export const emailAddress = () =>
  z
    .email({ pattern: EMAIL })
    .max(254)
    .refine((address) => address.indexOf('@') <= 64, 'must have at most 64 characters before the @');
