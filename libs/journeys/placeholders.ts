/**
 * Placeholders in a journey's texts: `{{name}}` is a variable of the journey, `{{secret.NAME}}` one
 * of its secrets (sealed by whoever stores the journey, opened only to run it). Filling is one
 * pass: a value that itself reads `{{x}}` is put in as written, which is how a text holding
 * literal double braces is written.
 */

const PLACEHOLDER = /\{\{\s*(secret\.)?([A-Za-z0-9_]+)\s*\}\}/g;

/** A variable's or a secret's name. */
export const PLACEHOLDER_NAME = /^[A-Za-z0-9_]{1,64}$/;

export interface Placeholder {
  kind: 'variable' | 'secret';
  name: string;
  /** As written, braces included. */
  text: string;
}

/** What placeholders are filled with: the journey's variables and its secrets, opened. */
export interface PlaceholderValues {
  variables?: Readonly<Record<string, string>>;
  secrets?: Readonly<Record<string, string>>;
}

/** The placeholders a text holds, in order (a name used twice is listed twice). */
export function placeholdersIn(text: string): Placeholder[] {
  return [...text.matchAll(PLACEHOLDER)].map(([written, secret, name]) => ({
    kind: secret ? 'secret' : 'variable',
    name: name as string,
    text: written,
  }));
}

const own = (record: Readonly<Record<string, string>> | undefined, name: string) =>
  record && Object.hasOwn(record, name) ? record[name] : undefined;

/**
 * The text with each placeholder replaced by its value; one with no value is left as written
 * (a journey is refused when written if it names an undefined one, see `journeyProblems`).
 */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  return text.replace(
    PLACEHOLDER,
    (written, secret: string | undefined, name: string) =>
      own(secret ? values.secrets : values.variables, name) ?? written,
  );
}

/** Shorter secrets are not masked: blanking every "ab" would hide the trace, not the secret. */
export const MIN_MASKED_CHARS = 4;

/** UTF-8 then base64, without Node's Buffer (this module also runs in the browser). */
function base64Of(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The texts a run must blank wherever it writes (log lines, results, evidence, the trace): each
 * secret's value as typed, as a URL and as a JSON string carry it, and the `Authorization` header
 * HTTP basic auth sends. Longest first, so that a secret containing another is blanked whole.
 */
export function secretMasks(opened: {
  secrets: Readonly<Record<string, string>>;
  /** The journey's basic auth with its placeholders filled, when it has one. */
  basicAuth?: { username: string; password: string } | null;
}): string[] {
  const masks = new Set<string>();
  for (const value of Object.values(opened.secrets)) {
    masks.add(value);
    masks.add(encodeURIComponent(value));
    masks.add(JSON.stringify(value).slice(1, -1));
  }
  if (opened.basicAuth) masks.add(base64Of(`${opened.basicAuth.username}:${opened.basicAuth.password}`));
  return [...masks].filter((mask) => mask.length >= MIN_MASKED_CHARS).sort((a, b) => b.length - a.length);
}

/** The text with each mask (from `secretMasks`) replaced by "[redacted]", as HTTP evidence is. */
export function maskSecrets(text: string, masks: readonly string[]): string {
  let masked = text;
  for (const mask of masks) if (masked.includes(mask)) masked = masked.split(mask).join('[redacted]');
  return masked;
}
