import { type Verdict, verdictOf } from './connector.js';
import type { HttpAnswer } from './guarded-http.js';

/** Reading the answers of tools that say in their body how a call went. */

export const succeeded = (answer: HttpAnswer) => answer.status >= 200 && answer.status < 300;

/** An answer's JSON object, or an empty one when it is not JSON (the caller says what is missing). */
export function jsonOf(answer: HttpAnswer): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(answer.body);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Done when the status is 2xx and the body says so (`accepted`); else retried (410: gone) with the
 * status and the tool's own words (`said`, when it gave some).
 */
export function toolVerdict(
  answer: HttpAnswer,
  label: string,
  accepted: boolean,
  said: unknown,
  externalRef?: string,
): Verdict {
  if (succeeded(answer) && accepted) return verdictOf(answer, { externalRef });
  const words = typeof said === 'string' && said ? `: ${said.slice(0, 500)}` : '';
  return verdictOf(answer, {
    problem: succeeded(answer)
      ? `${label} answered HTTP ${answer.status} without success${words}`
      : `${label} answered HTTP ${answer.status}${words}`,
  });
}

/** A created ticket's answer: done with its reference, or a problem saying the reference is missing. */
export function openedVerdict(answer: HttpAnswer, ref: unknown, label: string): Verdict {
  if (!succeeded(answer)) return verdictOf(answer);
  return typeof ref === 'string' || typeof ref === 'number'
    ? verdictOf(answer, { externalRef: String(ref) })
    : verdictOf(answer, { problem: `${label} created a ticket but returned no reference` });
}
