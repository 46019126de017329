/**
 * `{{name}}` and `{{secret.NAME}}` in an API flow's texts: the names a text uses (checked when
 * written) and the text with their values put in (when it runs). Only these two shapes are
 * placeholders; any other `{{…}}` is text and goes as it is (a body may hold braces of its own).
 */

/** A value's name: a variable's or an extraction's (`secret` is the secrets' own prefix). */
export const VALUE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const PLACEHOLDER = /\{\{\s*(secret\.)?([A-Za-z_0-9]+)\s*\}\}/g;

/** A placeholder a text uses: a secret's (`{{secret.NAME}}`) or a value's (`{{name}}`). */
export interface PlaceholderUse {
  secret: boolean;
  name: string;
}

/** Each placeholder of the text, in order (a value's name must be one `VALUE_NAME` allows). */
export function placeholdersIn(text: string): PlaceholderUse[] {
  return [...text.matchAll(PLACEHOLDER)].flatMap(([, secret, name]) =>
    name === undefined || (!secret && !VALUE_NAME.test(name)) ? [] : [{ secret: secret !== undefined, name }],
  );
}

export const hasPlaceholder = (text: string) => placeholdersIn(text).length > 0;

/** Whether the text begins with a placeholder (a URL that is all or part a value: its host unknown until it runs). */
export const startsWithPlaceholder = (text: string) => {
  const first = [...text.matchAll(PLACEHOLDER)][0];
  return first?.index === 0;
};

/** What a text becomes with its placeholders filled, or the first placeholder nothing fills. */
export type Filled = { text: string } | { missing: PlaceholderUse };

/** The text with each placeholder replaced by its value (`values` for names, `secrets` for secret names). */
export function fill(
  text: string,
  values: ReadonlyMap<string, string>,
  secrets: ReadonlyMap<string, string>,
): Filled {
  let missing: PlaceholderUse | null = null;
  const filled = text.replace(PLACEHOLDER, (whole, secret: string | undefined, name: string) => {
    if (!secret && !VALUE_NAME.test(name)) return whole;
    const value = (secret ? secrets : values).get(name);
    if (value === undefined) missing ??= { secret: secret !== undefined, name };
    return value ?? whole;
  });
  return missing ? { missing } : { text: filled };
}

/** A placeholder as written: `{{token}}`, `{{secret.PASSWORD}}`. */
export const placeholderText = (use: PlaceholderUse) => `{{${use.secret ? 'secret.' : ''}${use.name}}}`;
