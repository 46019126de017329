import { invalidInput } from '../errors/index.js';
import type { SealedSecret, SecretBox } from '../secrets/index.js';
import { isCredentialName, type ProbeKind, SEALED_PLACEHOLDER } from './kinds/probe-kind.js';

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
      if (!isCredentialName(name)) {
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

/** Settings as a check runs with them: each sealed entry opened into its record. */
export function openedSettings(
  kind: string,
  settings: Record<string, unknown>,
  sealed: readonly SealedEntry[],
  box: SecretBox,
): Record<string, unknown> {
  const opened: Record<string, unknown> = { ...settings };
  for (const entry of sealed)
    opened[entry.field] = {
      ...recordOf(opened[entry.field]),
      [entry.name]: box.open(entry.value, sealedEntryContext(kind, entry)),
    };
  return opened;
}
