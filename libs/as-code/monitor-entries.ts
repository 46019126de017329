import { z } from 'zod';
import { createFieldsOf, type ExportedMonitor, sealedRecordsOf } from '../exports/index.js';
import {
  isProbeKind,
  MONITOR_CREATE_BODIES,
  type MonitorKind,
  PROBE_KINDS,
  SEALED_PLACEHOLDER,
  STORED_MONITOR_KINDS,
  sealsMonitorEntry,
} from '../monitors/index.js';
import { envReference } from './env-reference.js';

/** A monitor of a website in the file: its kind's create body, its name (the key within its website) required. */
export type DeclaredMonitor = { kind: MonitorKind; name: string } & Record<string, unknown>;

/**
 * A sealed record (a WebSocket's headers, gRPC metadata) as the file writes it: each value as the
 * kind takes it, a credential as `{env: NAME}`, or null to take a stored credential off.
 */
function sealedRecordField(kind: MonitorKind, field: string) {
  const record = (isProbeKind(kind) ? PROBE_KINDS[kind].fields[field] : undefined) as z.ZodRecord | undefined;
  if (!record) throw new Error(`${kind}.${field} is not a record`);
  return z
    .record(record.keyType as z.ZodString, z.union([record.valueType as z.ZodString, envReference, z.null()]))
    .optional()
    .describe(
      'Credential entries (authorization, tokens, API keys) as {env: NAME}: sealed by the API, compared by whether they are set, kept when not named; null takes one off',
    );
}

const declaredOf = (kind: MonitorKind) => {
  const fields = createFieldsOf(kind);
  const name = fields.name instanceof z.ZodOptional ? fields.name.unwrap() : fields.name;
  const object = z.strictObject({
    ...fields,
    ...Object.fromEntries(sealedRecordsOf(kind).map((field) => [field, sealedRecordField(kind, field)])),
    kind: z.literal(kind),
    name: (name as z.ZodString).describe('Its name: the key it is known by within its website'),
  });
  const body: z.ZodType = MONITOR_CREATE_BODIES[kind];
  if (!(body instanceof z.ZodPipe)) return object;
  // A body that normalises (a DNS check's expected answers) is read through it: compared as stored.
  return object.transform((declared, context) => {
    const read = body.safeParse(declared);
    if (read.success) return { ...(read.data as Record<string, unknown>), kind };
    for (const issue of read.error.issues)
      context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  });
};

export const declaredMonitor = z
  .discriminatedUnion('kind', STORED_MONITOR_KINDS.map(declaredOf) as unknown as [z.ZodObject])
  .meta({
    id: 'DeclaredMonitor',
    description:
      'A heartbeat, DNS, port or probe check, as its create route takes it (`kind` and its fields); known by its name within its website',
  }) as unknown as z.ZodType<DeclaredMonitor, DeclaredMonitor>;

interface FileWithMonitors {
  customers?: Array<{ websites?: Array<{ monitors?: DeclaredMonitor[] }> }>;
}

/** Credentials written as text: the file is code, reviewed and kept; a credential comes from the environment. */
export function literalCredentials(file: FileWithMonitors): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  for (const [i, customer] of (file.customers ?? []).entries())
    for (const [j, website] of (customer.websites ?? []).entries())
      for (const [k, monitor] of (website.monitors ?? []).entries())
        for (const field of sealedRecordsOf(monitor.kind))
          for (const [name, value] of Object.entries((monitor[field] ?? {}) as Record<string, unknown>))
            if (sealsMonitorEntry(monitor.kind, field, name) && typeof value === 'string')
              problems.push({
                path: `customers.${i}.websites.${j}.monitors.${k}.${field}.${name}`,
                message: 'a credential: give it as {env: NAME} (the API keeps it sealed)',
              });
  return problems;
}

type Entries = Record<string, unknown>;
const recordOf = (value: unknown): Entries =>
  typeof value === 'object' && value !== null ? (value as Entries) : {};

/**
 * A monitor as the plan compares and sends it. A credential of a sealed record is compared by
 * whether it is set (its name lowercase: names are told apart without case); one the organization
 * has and the file does not name is kept ("(set)" sent in its place), one the file sets to null is
 * taken off; a new value is sent with the record's next change.
 */
export function monitorSides(
  declared: DeclaredMonitor,
  found: ExportedMonitor | undefined,
): { compared: Entries; view: Entries; sent: Entries } {
  const { kind: _kind, ...fields } = declared;
  const compared: Entries = { ...fields };
  const sent: Entries = { ...fields };
  const view: Entries = { ...found };
  for (const field of sealedRecordsOf(declared.kind)) {
    if (declared[field] === undefined) continue;
    const given = Object.entries(recordOf(declared[field]));
    const named = new Set(given.map(([name]) => name.toLowerCase()));
    const stored = found?.secretNames?.[field] ?? [];
    const set = (name: string) => [name.toLowerCase(), SEALED_PLACEHOLDER] as const;
    compared[field] = Object.fromEntries(
      given.flatMap(([name, value]) =>
        value === null ? [] : [sealsMonitorEntry(declared.kind, field, name) ? set(name) : [name, value]],
      ),
    );
    view[field] = {
      ...recordOf(found?.[field]),
      ...Object.fromEntries(stored.filter((name) => named.has(name.toLowerCase())).map(set)),
    };
    sent[field] = {
      ...Object.fromEntries(given.filter(([, value]) => value !== null)),
      ...Object.fromEntries(
        stored.filter((name) => !named.has(name.toLowerCase())).map((name) => [name, SEALED_PLACEHOLDER]),
      ),
    };
  }
  return { compared, view, sent };
}
