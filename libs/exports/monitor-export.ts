import { z } from 'zod';
import {
  isProbeKind,
  kindSchemaName,
  MONITOR_CREATE_BODIES,
  type MonitorDocument,
  type MonitorKind,
  PROBE_KINDS,
  STORED_MONITOR_KINDS,
} from '../monitors/index.js';

/** A create body's fields (a DNS check's is a pipe that normalises its answers: its input's). */
export function createFieldsOf(kind: MonitorKind): z.ZodRawShape {
  const body: z.ZodType = MONITOR_CREATE_BODIES[kind];
  return (body instanceof z.ZodPipe ? (body.in as z.ZodObject) : (body as z.ZodObject)).shape;
}

/** The record fields whose credential entries the kind seals (a WebSocket's headers, gRPC metadata). */
export const sealedRecordsOf = (kind: MonitorKind): readonly string[] =>
  isProbeKind(kind) ? (PROBE_KINDS[kind].sealedRecords ?? []) : [];

/** A monitor as exported: its kind's create fields, its credentials by name only. */
export interface ExportedMonitor {
  id: number;
  websiteId: number;
  kind: MonitorKind;
  name: string;
  /** Per sealed record, the names of its credentials (write-only: their values are not exported). */
  secretNames?: Record<string, string[]>;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

const exportedOf = (kind: MonitorKind) => {
  const sealed = sealedRecordsOf(kind);
  return (
    z
      .object({
        ...createFieldsOf(kind),
        id: z.number().int(),
        websiteId: z.number().int(),
        kind: z.literal(kind),
        name: z.string(),
        ...(sealed.length > 0
          ? {
              secretNames: z
                .object(Object.fromEntries(sealed.map((field) => [field, z.array(z.string())])))
                .describe('The credentials of each record, by name: write-only, not exported'),
            }
          : {}),
        createdAt: z.iso.datetime(),
        updatedAt: z.iso.datetime(),
      })
      // Named per kind: generated clients name each kind's record fields after it (one model each).
      .meta({ id: `Exported${kindSchemaName(kind)}Monitor` })
  );
};

export const exportedMonitor = z
  .discriminatedUnion(
    'kind',
    STORED_MONITOR_KINDS.map(exportedOf) as unknown as [ReturnType<typeof exportedOf>],
  )
  .meta({
    id: 'ExportedMonitor',
    description:
      'A heartbeat, DNS, port or probe check of a website: the fields its create route takes; credentials (a WebSocket’s Authorization header, gRPC metadata keys) are named in `secretNames`, never exported; a heartbeat’s ping URL is not exported',
  }) as unknown as z.ZodType<ExportedMonitor>;

/** A stored monitor as the export shows it: the fields its kind's create body has, credentials by name. */
export function toExportedMonitor(monitor: MonitorDocument): ExportedMonitor {
  // A probe kind keeps its own fields in `settings`; the others at the top.
  const stored: Record<string, unknown> = { ...monitor, ...('settings' in monitor ? monitor.settings : {}) };
  // A kind whose schedule sets its interval and timeout (a crawl) takes neither in its create body.
  const scheduled = isProbeKind(monitor.kind) && PROBE_KINDS[monitor.kind].cadence !== undefined;
  const fields = Object.fromEntries(
    Object.keys(createFieldsOf(monitor.kind)).flatMap((field) =>
      stored[field] === undefined ||
      (scheduled && (field === 'intervalSeconds' || field === 'timeoutSeconds'))
        ? []
        : [[field, stored[field]]],
    ),
  );
  const sealed = sealedRecordsOf(monitor.kind);
  const entries = 'sealed' in monitor ? (monitor.sealed ?? []) : [];
  return {
    ...fields,
    id: monitor.id,
    websiteId: monitor.websiteId,
    kind: monitor.kind,
    name: monitor.name,
    ...(sealed.length > 0
      ? {
          secretNames: Object.fromEntries(
            sealed.map((field) => [
              field,
              entries.filter((entry) => entry.field === field).map((entry) => entry.name),
            ]),
          ),
        }
      : {}),
    createdAt: monitor.createdAt.toISOString(),
    updatedAt: monitor.updatedAt.toISOString(),
  };
}
