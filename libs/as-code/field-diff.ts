/** One field the plan changes: its dotted path, what the organization has and what the file says. */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** Fields a PATCH replaces whole (not merged): compared and sent whole. */
export const WHOLE_FIELDS: ReadonlySet<string> = new Set(['customHeaders', 'scope', 'recurrence']);
/** Lists whose members' fields a PATCH replaces whole, each (a monitor's schedule, headers, expect). */
export const WHOLE_MEMBER_FIELDS: ReadonlySet<string> = new Set(['monitors']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Deep equality of JSON values (object keys in any order). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => sameValue(a[key] ?? null, b[key] ?? null));
  }
  return false;
}

/**
 * The fields the file writes that differ from the organization's: only what is written counts
 * (a field left out is left as it is), and a nested object (a package's `limits`, a page's
 * `branding`) counts field by field, as PATCH merges it; one PATCH replaces (WHOLE_FIELDS) counts whole.
 */
export function diffWritten(
  written: Record<string, unknown>,
  current: Record<string, unknown>,
  prefix = '',
  /** Every field is replaced whole (a monitor's). */
  whole = false,
): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [key, to] of Object.entries(written)) {
    if (to === undefined) continue;
    const from = current[key];
    if (isPlainObject(to) && isPlainObject(from) && !whole && !WHOLE_FIELDS.has(key))
      changes.push(...diffWritten(to, from, `${prefix}${key}.`));
    else if (!sameValue(to, from ?? null)) changes.push({ field: `${prefix}${key}`, from: from ?? null, to });
  }
  return changes;
}

/** The written fields named by the changes' first segments: what a PATCH sends. */
export function changedFields(
  written: Record<string, unknown>,
  changes: readonly FieldChange[],
): Record<string, unknown> {
  const top = new Set(changes.map((change) => change.field.split('.')[0] as string));
  return Object.fromEntries(Object.entries(written).filter(([key]) => top.has(key)));
}
