/**
 * `{{name}}` and `{{secret.NAME}}` in the texts of browser journeys and API flows: the placeholders
 * a text holds (checked when written) and the text with their values put in (when it runs). Only
 * these two shapes, with names their rules allow, are placeholders; any other `{{…}}` is text and
 * goes as it is (a body may hold braces of its own). Filling is one pass: a value that itself reads
 * `{{x}}` is put in as written, which is how a text holding literal double braces is written.
 * Runs in the browser app too (the editors check what they can), so it uses no Node API.
 */

/** A variable's name (a journey's or an API flow's, or a value a flow extracts): a letter or _ first. */
export const VALUE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** A secret's name, as secrets have always been named: letters, digits or _ (a digit may come first). */
export const SECRET_NAME = /^[A-Za-z0-9_]{1,64}$/;

/** A name rule without its anchors, to build the patterns below from. */
const unanchored = (rule: RegExp) => rule.source.slice(1, -1);

const PLACEHOLDER = new RegExp(
  `\\{\\{\\s*(?:secret\\.(${unanchored(SECRET_NAME)})|(${unanchored(VALUE_NAME)}))\\s*\\}\\}`,
  'g',
);

/** A text that is one secret's placeholder and nothing else (a basic-auth password, a client key). */
export const SECRET_REFERENCE = new RegExp(`^\\{\\{\\s*secret\\.${unanchored(SECRET_NAME)}\\s*\\}\\}$`);

export interface Placeholder {
  kind: 'variable' | 'secret';
  name: string;
  /** As written, braces and spaces included: `{{ secret.PASSWORD }}`. */
  text: string;
}

/** What placeholders are filled with: variables (an API flow's extracted values among them) and the opened secrets. */
export interface PlaceholderValues {
  variables?: Readonly<Record<string, string>>;
  secrets?: Readonly<Record<string, string>>;
}

const placeholderOf = (
  text: string,
  secretName: string | undefined,
  variableName: string | undefined,
): Placeholder =>
  secretName === undefined
    ? { kind: 'variable', name: variableName as string, text }
    : { kind: 'secret', name: secretName, text };

/** The placeholders a text holds, in order (a name used twice is listed twice). */
export function placeholdersIn(text: string): Placeholder[] {
  return [...text.matchAll(PLACEHOLDER)].map(([written, secretName, variableName]) =>
    placeholderOf(written, secretName, variableName),
  );
}

/** Whether the text begins with a placeholder (a URL whose scheme and host are not known until it runs). */
export const startsWithPlaceholder = (text: string) => text.matchAll(PLACEHOLDER).next().value?.index === 0;

/** The placeholder's value; undefined when the values have none (an inherited `toString` is none). */
function givenValue(placeholder: Placeholder, values: PlaceholderValues): string | undefined {
  const record = placeholder.kind === 'secret' ? values.secrets : values.variables;
  return record && Object.hasOwn(record, placeholder.name) ? record[placeholder.name] : undefined;
}

/** The text with each placeholder replaced by its value; one with no value is left as written. */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  return text.replace(
    PLACEHOLDER,
    (written, secretName: string | undefined, variableName: string | undefined) =>
      givenValue(placeholderOf(written, secretName, variableName), values) ?? written,
  );
}

/** The first placeholder of the text that the values do not fill; null when they fill every one. */
export const unfilledPlaceholder = (text: string, values: PlaceholderValues): Placeholder | null =>
  placeholdersIn(text).find((placeholder) => givenValue(placeholder, values) === undefined) ?? null;
