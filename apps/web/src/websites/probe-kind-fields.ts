import { openApiSchemas } from '../api/openapi.js';
import { PROBE_KINDS, type ProbeKind } from './probe-kinds.js';

/** One field of a kind, as its create schema in /openapi.json describes it. */
export interface KindField {
  key: string;
  kind: 'text' | 'number' | 'boolean' | 'choice' | 'expect' | 'pairs';
  required: boolean;
  nullable: boolean;
  description: string | undefined;
  options: string[];
  fallback: unknown;
}

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  enum?: string[];
  default?: unknown;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  required?: string[];
};

/** Asked by every kind, shown by the form's own fields. */
const COMMON = new Set(['kind', 'name', 'intervalSeconds', 'timeoutSeconds']);

function fieldOf(
  key: string,
  schema: JsonSchema,
  required: boolean,
  named: Record<string, JsonSchema>,
): KindField {
  // A nullable union is anyOf [anyOf [...], null]: its variants, flattened; a named one read where it is named.
  const flat = (node: JsonSchema): JsonSchema[] =>
    node.$ref
      ? flat(named[node.$ref.replace('#/components/schemas/', '')] ?? {})
      : node.anyOf
        ? node.anyOf.flatMap(flat)
        : [node];
  const variants = flat(schema);
  const value = variants.filter((v) => v.type !== 'null');
  const first = value[0] ?? schema;
  const kind: KindField['kind'] = value.some((v) => v.properties?.contains || v.properties?.matches)
    ? 'expect'
    : first.type === 'object'
      ? 'pairs'
      : first.enum
        ? 'choice'
        : first.type === 'boolean'
          ? 'boolean'
          : first.type === 'integer' || first.type === 'number'
            ? 'number'
            : 'text';
  return {
    key,
    kind,
    required: required && schema.default === undefined,
    nullable: variants.some((v) => v.type === 'null'),
    description: schema.description ?? first.description,
    options: first.enum ?? [],
    fallback: schema.default,
  };
}

/** Each probe kind's own fields, read from the API's /openapi.json (`IcmpCheckCreate` …): a new field shows by itself. */
export async function kindFields(): Promise<Record<ProbeKind, KindField[]>> {
  const schemas = await openApiSchemas<JsonSchema>();
  const fields = {} as Record<ProbeKind, KindField[]>;
  for (const kind of PROBE_KINDS) {
    const schema = schemas[`${kind.charAt(0).toUpperCase()}${kind.slice(1)}CheckCreate`];
    const required = new Set(schema?.required ?? []);
    fields[kind] = Object.entries(schema?.properties ?? {})
      .filter(([key]) => !COMMON.has(key))
      .map(([key, property]) => fieldOf(key, property, required.has(key), schemas));
  }
  return fields;
}

/** A field's value as the form holds it: text for inputs, "Name: value" lines for pairs. */
export function initialText(field: KindField, stored: unknown): string {
  const value = stored === undefined ? field.fallback : stored;
  if (value === null || value === undefined) return '';
  if (field.kind === 'pairs')
    return Object.entries(value as Record<string, string>)
      .map(([name, text]) => `${name}: ${text}`)
      .join('\n');
  if (field.kind === 'expect') {
    const expect = value as { contains?: string; matches?: string };
    return expect.contains !== undefined ? `contains:${expect.contains}` : `matches:${expect.matches ?? ''}`;
  }
  return String(value);
}

/** The form's text as the API takes it; undefined leaves a default (or the stored value) as it is. */
export function sentValue(field: KindField, text: string): unknown {
  const empty = text.trim() === '';
  switch (field.kind) {
    case 'number':
      return empty ? (field.nullable ? null : undefined) : Number(text);
    case 'boolean':
      return text === 'true';
    case 'pairs':
      return Object.fromEntries(
        text
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => {
            const colon = line.indexOf(':');
            return colon < 0
              ? [line.trim(), '']
              : [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
          }),
      );
    case 'expect': {
      const [how, ...rest] = text.split(':');
      const wanted = rest.join(':');
      return wanted === '' ? null : how === 'matches' ? { matches: wanted } : { contains: wanted };
    }
    default:
      return empty ? (field.nullable ? null : undefined) : text;
  }
}
