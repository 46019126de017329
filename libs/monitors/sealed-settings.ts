import { type FieldError, invalidInput } from '../errors/index.js';
import { fillPlaceholders, MIN_MASKED_CHARS, placeholdersIn } from '../placeholders/index.js';
import type { SealedSecret, SecretBox } from '../secrets/index.js';
import { type ProbeKind, SEALED_PLACEHOLDER, sealsEntry } from './kinds/probe-kind.js';

/** One credential of a probe check's settings, sealed: `settings[field][name]` when it runs. */
export interface SealedEntry {
  field: string;
  name: string;
  value: SealedSecret;
}

/** What a sealed entry is sealed for: opened under another field or name, it is refused. */
export const sealedEntryContext = (kind: string, entry: Pick<SealedEntry, 'field' | 'name'>) =>
  `website_monitors/${kind}/${entry.field}/${entry.name.toLowerCase()}`;

const recordOf = (value: unknown): Record<string, string> =>
  value && typeof value === 'object' ? (value as Record<string, string>) : {};

/**
 * Settings as stored: each credential entry of the kind's sealed records taken out and sealed
 * ("(set)" keeps the one stored under that name; a record not sent keeps its stored entries).
 */
export function sealSettings(
  kind: ProbeKind,
  settings: Record<string, unknown>,
  sent: Record<string, unknown>,
  stored: readonly SealedEntry[],
  box: SecretBox,
): { settings: Record<string, unknown>; sealed: SealedEntry[] } {
  const plain: Record<string, unknown> = { ...settings };
  const sealed: SealedEntry[] = [];
  for (const field of kind.sealedRecords ?? []) {
    if (!(field in sent)) {
      // Not sent: its stored credentials stay as they are; the record's plain part is what was stored.
      sealed.push(...stored.filter((entry) => entry.field === field));
      continue;
    }
    const kept: Record<string, string> = {};
    for (const [name, value] of Object.entries(recordOf(settings[field]))) {
      if (!sealsEntry(kind, field, name)) {
        kept[name] = value;
        continue;
      }
      if (value === SEALED_PLACEHOLDER) {
        const before = stored.find(
          (entry) => entry.field === field && entry.name.toLowerCase() === name.toLowerCase(),
        );
        if (!before)
          throw invalidInput(`${field}.${name} has no stored value to keep`, [
            {
              path: `${field}.${name}`,
              message: `"${SEALED_PLACEHOLDER}" keeps a stored value: there is none, give the value`,
            },
          ]);
        sealed.push(before);
        continue;
      }
      if (kind.secretRecords?.includes(field) && value.length < MIN_MASKED_CHARS)
        throw invalidInput(`${field}.${name} is too short to be masked`, [
          {
            path: `${field}.${name}`,
            message: `Must be at least ${MIN_MASKED_CHARS} characters: shorter values cannot be masked in results`,
          },
        ]);
      sealed.push({ field, name, value: box.seal(value, sealedEntryContext(kind.kind, { field, name })) });
    }
    plain[field] = kept;
  }
  return { settings: plain, sealed };
}

/** Settings as a view shows them: each sealed entry back in its record as "(set)". */
export function shownSettings(settings: Record<string, unknown>, sealed: readonly SealedEntry[]) {
  const shown: Record<string, unknown> = { ...settings };
  for (const entry of sealed)
    shown[entry.field] = { ...recordOf(shown[entry.field]), [entry.name]: SEALED_PLACEHOLDER };
  return shown;
}

/** Each string of the settings, however deep (record values, an API flow's steps), with its path as an error names it. */
function* textsOf(value: unknown, path = ''): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (value && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) yield* textsOf(inner, path ? `${path}.${key}` : key);
}

/** The references to secrets the kind's secret records do not hold: a 400 names each (refused when written). */
export function unknownSecretReferences(
  kind: Pick<ProbeKind, 'secretRecords'>,
  settings: Record<string, unknown>,
  sealed: readonly SealedEntry[],
): FieldError[] {
  const known = new Set(
    sealed.filter((entry) => kind.secretRecords?.includes(entry.field)).map((entry) => entry.name),
  );
  const problems: FieldError[] = [];
  for (const [path, text] of textsOf(settings))
    for (const { kind: placeholder, name } of placeholdersIn(text))
      if (placeholder === 'secret' && !known.has(name))
        problems.push({
          path,
          message: `{{secret.${name}}} is not one of its secrets${known.size ? ` (${[...known].join(', ')})` : ''}: add it to secrets`,
        });
  return problems;
}

/** Settings as a check runs with them: each sealed entry opened into its record, each secret put in where referenced. */
export function openedSettings(
  kind: Pick<ProbeKind, 'kind' | 'secretRecords'>,
  settings: Record<string, unknown>,
  sealed: readonly SealedEntry[],
  box: SecretBox,
): Record<string, unknown> {
  const opened: Record<string, unknown> = { ...settings };
  // No prototype: a secret named `__proto__` is a secret like any other.
  const secrets: Record<string, string> = Object.create(null);
  for (const entry of sealed) {
    const value = box.open(entry.value, sealedEntryContext(kind.kind, entry));
    opened[entry.field] = { ...recordOf(opened[entry.field]), [entry.name]: value };
    if (kind.secretRecords?.includes(entry.field)) secrets[entry.name] = value;
  }
  if (Object.keys(secrets).length === 0) return opened;
  // Secrets only: a variable's placeholder is filled by the kind itself when it runs.
  const fill = (text: string) => fillPlaceholders(text, { secrets });
  for (const [field, value] of Object.entries(opened)) {
    if (kind.secretRecords?.includes(field)) continue;
    if (typeof value === 'string') opened[field] = fill(value);
    else if (value && typeof value === 'object' && !Array.isArray(value))
      opened[field] = Object.fromEntries(
        Object.entries(value).map(([name, inner]) => [name, typeof inner === 'string' ? fill(inner) : inner]),
      );
  }
  return opened;
}

/**
 * The values of the sealed entries in settings opened for a check (`openedSettings`, no second
 * decryption), as evidence must never show them (a server may echo one); very short ones would
 * blank ordinary text and are left.
 */
export function sealedValues(opened: Record<string, unknown>, sealed: readonly SealedEntry[]): string[] {
  return sealed
    .map((entry) => recordOf(opened[entry.field])[entry.name])
    .filter((value): value is string => typeof value === 'string' && value.length >= 4);
}

/** Evidence with every sealed value blanked wherever it appears in its texts. */
export function redacted(
  evidence: Record<string, unknown>,
  values: readonly string[],
): Record<string, unknown> {
  if (values.length === 0) return evidence;
  const blank = (value: unknown): unknown => {
    if (typeof value === 'string')
      return values.reduce((text, secret) => text.split(secret).join('[redacted]'), value);
    if (Array.isArray(value)) return value.map(blank);
    if (value && typeof value === 'object' && !(value instanceof Date))
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, blank(inner)]));
    return value;
  };
  return blank(evidence) as Record<string, unknown>;
}
