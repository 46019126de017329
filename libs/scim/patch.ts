import { z } from 'zod';
import { type Attribute, attributeNamed, PATCH_SCHEMA } from './attributes.js';
import { type AttributePath, attributeValue, matches, parsePath } from './filter.js';
import { scimInvalid } from './scim-error.js';

/**
 * PATCH (RFC 7644 §3.5.2) applied to a resource's representation, pure: the result is validated
 * as a PUT body would be, so a PATCH can make nothing a PUT could not. It takes the operations as
 * the providers send them: op names in any case (Entra's `Replace`), `"False"` for false (Entra),
 * a `value` object of attributes without a `path` (Okta's `{"op":"replace","value":{"active":false}}`,
 * keys that may be dotted or carry the schema URN), and `remove` of `members` with a `value` list.
 * Attributes webmon does not keep (title, addresses, extensions) are ignored, as on POST and PUT.
 */

export const patchOperation = z.looseObject({
  op: z
    .string()
    .transform((op) => op.toLowerCase())
    .pipe(z.enum(['add', 'replace', 'remove'], { error: 'must be add, replace or remove' })),
  path: z.string().min(1).max(1000).optional(),
  value: z.unknown().optional(),
});
export type PatchOperation = z.output<typeof patchOperation>;

export const patchBody = z
  .looseObject({
    schemas: z
      .array(z.string())
      .refine((schemas) => schemas.includes(PATCH_SCHEMA), { error: `must include ${PATCH_SCHEMA}` }),
    Operations: z.array(patchOperation).min(1).max(1000),
  })
  .meta({ id: 'ScimPatchOp' });

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A boolean as some providers send it (`"False"`), else the value as it is. */
function typed(attribute: Attribute, value: unknown): unknown {
  if (attribute.type === 'boolean' && typeof value === 'string' && /^(true|false)$/i.test(value))
    return value.toLowerCase() === 'true';
  if (attribute.type === 'complex' && isObject(value)) {
    const out: Json = {};
    for (const [key, item] of Object.entries(value)) {
      const sub = attributeNamed(attribute.subAttributes ?? [], key);
      out[sub?.name ?? key] = sub ? typed(sub, item) : item;
    }
    return out;
  }
  return value;
}

/** The key `name` is stored under in `object` (its own spelling if present, else the table's). */
function keyOf(object: Json, name: string): string {
  return Object.keys(object).find((key) => key.toLowerCase() === name.toLowerCase()) ?? name;
}

function sameElement(a: unknown, b: unknown): boolean {
  if (isObject(a) && isObject(b) && attributeValue(a, 'value') !== undefined)
    return String(attributeValue(a, 'value')) === String(attributeValue(b, 'value'));
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `type eq "work"` as the element a value filter implies: Entra adds a work e-mail so. */
function impliedElement(path: AttributePath): Json | null {
  const filter = path.filter;
  if (filter?.kind !== 'compare' || filter.op !== 'eq' || filter.path.sub || filter.path.filter) return null;
  return { [filter.path.attribute.name]: filter.value };
}

function applyAt(
  resource: Json,
  op: PatchOperation['op'],
  path: AttributePath,
  raw: unknown,
  spelled: string,
): void {
  const { attribute, sub, filter } = path;
  const target = sub ?? attribute;
  const key = keyOf(resource, attribute.name);
  if (attribute.readOnly || target.readOnly) {
    // Sent back as it is (a whole resource replaced): no change.
    if (op === 'replace' && !sub && !filter && JSON.stringify(resource[key]) === JSON.stringify(raw)) return;
    throw scimInvalid('mutability', spelled, 'is read-only: webmon sets it');
  }
  if (op !== 'remove' && raw === undefined)
    throw scimInvalid('invalidSyntax', 'value', `required to ${op} ${spelled}`);
  if (!attribute.multiValued) {
    if (!sub) {
      if (op === 'remove') delete resource[key];
      else if (op === 'add' && attribute.type === 'complex' && isObject(resource[key]) && isObject(raw))
        Object.assign(resource[key] as Json, typed(attribute, raw));
      else resource[key] = typed(attribute, raw);
      return;
    }
    const parent = isObject(resource[key]) ? (resource[key] as Json) : {};
    if (op === 'remove') delete parent[keyOf(parent, sub.name)];
    else parent[keyOf(parent, sub.name)] = typed(sub, raw);
    resource[key] = parent;
    return;
  }
  const elements = Array.isArray(resource[key]) ? [...(resource[key] as unknown[])] : [];
  if (!filter && !sub) {
    const given =
      raw === undefined ? [] : (Array.isArray(raw) ? raw : [raw]).map((item) => typed(attribute, item));
    if (op === 'replace') resource[key] = given;
    else if (op === 'add')
      resource[key] = [
        ...elements,
        ...given.filter((item) => !elements.some((old) => sameElement(old, item))),
      ];
    // Entra removes members with a value list; without one, every element goes.
    else
      resource[key] =
        raw === undefined ? [] : elements.filter((old) => !given.some((item) => sameElement(old, item)));
    return;
  }
  const selected = (element: unknown) => !filter || (isObject(element) && matches(filter, element));
  if (op === 'remove' && !sub) {
    resource[key] = elements.filter((element) => !selected(element));
    return;
  }
  if (!elements.some(selected)) {
    if (op === 'remove') return;
    const implied = impliedElement(path);
    if (!implied) throw scimInvalid('noTarget', spelled, 'matches no value');
    elements.push(implied);
  }
  resource[key] = elements.map((element) => {
    if (!selected(element) || !isObject(element)) return element;
    const copy = { ...element };
    if (!sub) return op === 'remove' ? copy : { ...copy, ...(typed(attribute, raw) as Json) };
    if (op === 'remove') delete copy[keyOf(copy, sub.name)];
    else copy[keyOf(copy, sub.name)] = typed(sub, raw);
    return copy;
  });
}

/** The attribute path a PATCH names, or null for one webmon does not keep (ignored). */
function resolve(spelled: string, attributes: readonly Attribute[], schemaId: string): AttributePath | null {
  const lower = spelled.toLowerCase();
  // Another schema's attribute (an extension webmon does not keep).
  if (lower.startsWith('urn:') && !lower.startsWith(`${schemaId.toLowerCase()}:`)) return null;
  const name =
    (lower.startsWith('urn:') ? spelled.slice(schemaId.length + 1) : spelled).split(/[.[]/)[0] ?? '';
  if (!attributeNamed(attributes, name)) return null;
  return parsePath(spelled, attributes);
}

/** The resource after the operations, or a SCIM 400 naming the attribute; `resource` is not changed. */
export function applyPatch(
  resource: Json,
  operations: readonly PatchOperation[],
  attributes: readonly Attribute[],
  schemaId: string,
): Json {
  const result = structuredClone(resource);
  for (const operation of operations) {
    if (operation.path === undefined) {
      if (operation.op === 'remove') throw scimInvalid('noTarget', 'path', 'required to remove');
      if (!isObject(operation.value))
        throw scimInvalid('invalidSyntax', 'value', 'without a path, the value is an object of attributes');
      for (const [name, value] of Object.entries(operation.value)) {
        // The resource's own schema URN holding attributes: `{"urn:…:User": {"active": false}}`.
        if (name.toLowerCase() === schemaId.toLowerCase() && isObject(value)) {
          for (const [inner, innerValue] of Object.entries(value)) {
            const path = resolve(inner, attributes, schemaId);
            if (path) applyAt(result, operation.op, path, innerValue, inner);
          }
          continue;
        }
        const path = resolve(name, attributes, schemaId);
        if (path) applyAt(result, operation.op, path, value, name);
      }
      continue;
    }
    const path = resolve(operation.path, attributes, schemaId);
    if (path) applyAt(result, operation.op, path, operation.value, operation.path);
  }
  return result;
}
