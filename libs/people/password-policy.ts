import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';
import { z } from 'zod';
import { invalidInput } from '../errors/index.js';

export const MIN_PASSWORD_LENGTH = 12;
/** Longer adds nothing and only costs hashing time. */
export const MAX_PASSWORD_LENGTH = 256;
/** This many of one character in a row ("aaaa", "1111") is refused. */
export const MAX_RUN_OF_ONE_CHARACTER = 3;
/** zxcvbn's score (0–4) a password needs: 3 is "safely unguessable" (10^8 guesses and more). */
const MIN_STRENGTH_SCORE = 3;

/** The rule in words, as the API's schema describes it and the app shows it. */
export const PASSWORD_RULE = `At least ${MIN_PASSWORD_LENGTH} and at most ${MAX_PASSWORD_LENGTH} characters; not only spaces; no control characters; no character more than ${MAX_RUN_OF_ONE_CHARACTER} times in a row; not containing your e-mail's name or your organization's name; not a known-breached or easily guessed password.`;

/**
 * Built at first use (~0.2 s: it ranks the dictionaries), from the npm packages' bundled word
 * lists: nothing is fetched at run time. l33t substitutions are capped at 4 per password: with
 * zxcvbn's default of 100, a 64-character password of symbols took 0.4 s of the event loop.
 */
let estimator: ZxcvbnFactory | undefined;
const strength = () =>
  (estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
    l33tMaxSubstitutions: 4,
    // Judged on its first 64 characters: past them the cost grows and the guess count no longer matters.
    maxLength: 64,
  }));

/** Letters and digits only, lowercased: "Alice.Smith" and "alice-smith" are the same name. */
const folded = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** C0, DEL and C1 controls (NUL, CR, LF, ESC …): invisible, and mangled by terminals and forms. */
const CONTROL = /\p{Cc}/u;
const RUN = new RegExp(`(.)\\1{${MAX_RUN_OF_ONE_CHARACTER},}`, 'u');

/** What a password is judged against besides itself: the person's and the organization's names. */
export interface PasswordContext {
  email?: string;
  organizationName?: string;
}

/**
 * Why a new password is refused, or null when it is acceptable (OWASP ASVS 5.0 V6.2): its length
 * in characters (code points), only whitespace, control characters, a long run of one character,
 * the e-mail's local part or the organization's name in it, or a strength estimate (zxcvbn with
 * its common-password, English and keyboard-pattern dictionaries) below "safely unguessable".
 */
export function passwordProblem(password: string, context: PasswordContext = {}): string | null {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim() === '') return 'must not be only spaces';
  if (CONTROL.test(password)) return 'must not contain control characters';
  if (RUN.test(password))
    return `must not repeat one character more than ${MAX_RUN_OF_ONE_CHARACTER} times in a row`;
  const plain = folded(password);
  const localPart = folded(context.email?.split('@')[0] ?? '');
  if (localPart.length >= 3 && plain.includes(localPart)) return 'must not contain your e-mail address';
  const organization = folded(context.organizationName ?? '');
  if (organization.length >= 3 && plain.includes(organization))
    return "must not contain your organization's name";
  const inputs = [
    context.email ?? '',
    ...(context.email ?? '').split(/[@._+-]/),
    context.organizationName ?? '',
  ];
  const { score, feedback } = strength().check(
    password,
    inputs.filter((input) => input.length >= 3),
  );
  if (score < MIN_STRENGTH_SCORE)
    return `is too easy to guess${feedback.warning ? ` (${feedback.warning.replace(/\.$/, '')})` : ''}: add words or characters`;
  return null;
}

/** A new password the policy refuses: 400 naming the `password` field (or the one the caller names). */
export function checkNewPassword(password: string, context: PasswordContext = {}, field = 'password'): void {
  const problem = passwordProblem(password, context);
  if (problem) throw invalidInput(`The password ${problem}.`, [{ path: field, message: problem }]);
}

/**
 * A new password in a request body: its length here (and so in the OpenAPI document), the rest of
 * the rule in its description and checked by `checkNewPassword`, which needs the person's context.
 */
export const newPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH)
  .max(MAX_PASSWORD_LENGTH)
  .meta({ id: 'NewPassword', description: PASSWORD_RULE });
