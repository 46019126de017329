/** One changed field of a write: its dotted path, and its values before and after unless write-only. */
export interface FieldChange {
  path: string;
  /** Absent when the field did not exist before (or is write-only). */
  old?: unknown;
  /** Absent when the field no longer exists (or is write-only). */
  new?: unknown;
  /** The body set it, the representation never shows it (a secret): only its name is kept. */
  writeOnly?: true;
}

/** Fields every write changes and that say nothing of what was changed. */
const IGNORED = new Set(['updatedAt']);
/** A value longer than this (as JSON) is recorded by its size only. */
export const MAX_VALUE_CHARS = 2_000;
/** At most this many changes are kept per event. */
export const MAX_CHANGES = 200;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => sameValue(item, b[index]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => sameValue(a[key], b[key]));
  }
  return false;
}

function bounded(value: unknown): unknown {
  const json = JSON.stringify(value);
  return json !== undefined && json.length > MAX_VALUE_CHARS ? `[${json.length} characters]` : value;
}

const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);

function collect(before: unknown, after: unknown, prefix: string, into: FieldChange[]): void {
  if (isRecord(before) && isRecord(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (!prefix && IGNORED.has(key)) continue;
      collect(before[key], after[key], join(prefix, key), into);
    }
    return;
  }
  if (sameValue(before, after)) return;
  // An object that appears or disappears as a whole is listed field by field (each path findable).
  if (isRecord(before) && after === undefined) {
    collect(before, {}, prefix, into);
    return;
  }
  if (isRecord(after) && before === undefined) {
    collect({}, after, prefix, into);
    return;
  }
  const change: FieldChange = { path: prefix };
  if (before !== undefined) change.old = bounded(before);
  if (after !== undefined) change.new = bounded(after);
  into.push(change);
}

/** Every leaf path of a JSON body (objects descended, arrays and scalars are leaves). */
export function leafPaths(value: unknown, prefix = ''): string[] {
  if (!isRecord(value)) return prefix ? [prefix] : [];
  return Object.entries(value).flatMap(([key, inner]) =>
    isRecord(inner) && Object.keys(inner).length > 0
      ? leafPaths(inner, join(prefix, key))
      : [join(prefix, key)],
  );
}

/** Whether `path` (or an object containing it, or a field inside it) exists in the representation. */
function shown(representation: unknown, path: string): boolean {
  if (!isRecord(representation)) return false;
  let current: unknown = representation;
  for (const key of path.split('.')) {
    // A container shown as a value (null, an array) shows what is inside it as that value.
    if (!isRecord(current)) return current !== undefined;
    if (!(key in current)) return false;
    current = current[key];
  }
  return true;
}

/**
 * What a write changed, from the resource's representation before and after it (`null` when it did
 * not exist: a create, a delete), nested objects compared field by field and arrays as values.
 * Body fields the representations never show (write-only secrets: `mtlsClientKey`, secret headers,
 * passwords) are listed by name only, with `writeOnly: true`: their values are never read from
 * the body, so no secret can be kept, whatever the body held.
 */
export function fieldChanges(before: unknown, after: unknown, body?: unknown): FieldChange[] {
  const changes: FieldChange[] = [];
  collect(before ?? undefined, after ?? undefined, '', changes);
  for (const path of leafPaths(body)) {
    if (shown(before, path) || shown(after, path)) continue;
    if (changes.some((change) => change.path === path)) continue;
    changes.push({ path, writeOnly: true });
  }
  return changes.slice(0, MAX_CHANGES);
}
