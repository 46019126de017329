import { z } from 'zod';
import { RESOURCE_KINDS } from '../as-code/index.js';
import { OTHER_MONITOR_KINDS } from '../events/index.js';

const sourced = { source: z.string(), name: z.string(), url: z.string() };

/** What an import did with each monitor of the source. */
export const importReportSchema = z.object({
  created: z.array(z.object({ ...sourced, websiteId: z.number().int(), publicId: z.string() })),
  wouldCreate: z.array(z.object(sourced)).describe('A dry run: what would be created'),
  duplicates: z
    .array(z.object({ ...sourced, websiteId: z.number().int().nullable() }))
    .describe('The customer has a website with this URL already (null: twice in this source)'),
  unsupported: z.array(z.object({ ...sourced, sourceType: z.string(), reason: z.string() })),
  invalid: z.array(
    z.object({ ...sourced, errors: z.array(z.object({ path: z.string(), message: z.string() })) }),
  ),
  adjusted: z.array(z.object({ ...sourced, changes: z.array(z.string()) })),
  monitors: z
    .array(
      z.object({
        ...sourced,
        kind: z.enum(OTHER_MONITOR_KINDS).describe('The kind of check it became'),
        status: z.enum(['created', 'would-create', 'exists']),
        monitorId: z.number().int().nullable().describe('null: a dry run'),
        website: z
          .object({
            id: z.number().int().nullable(),
            publicId: z.string().nullable(),
            name: z.string(),
          })
          .describe('Where it went (id null: a website this dry run would make)'),
        via: z
          .enum(['host', 'attachTo', 'name'])
          .describe('the website of its host, the one attachTo names, or (a heartbeat) the one of its name'),
      }),
    )
    // Imports stored before checks were imported have none.
    .default([])
    .describe(
      'Each monitor of another kind than HTTP (ping, port, DNS, push, gRPC, WebSocket, mail) as a check of a website: its kind, where it went and what became of it (exists: the website watches that target already)',
    ),
  resources: z
    .array(
      z.object({
        kind: z.enum(RESOURCE_KINDS),
        name: z.string(),
        status: z.enum(['created', 'would-create', 'exists', 'failed', 'skipped']),
        id: z.number().int().nullable(),
        errors: z.array(z.object({ path: z.string(), message: z.string() })),
      }),
    )
    .describe(
      '`webmon-json`: each thing of the export and what became of it (exists: the organization has one by that key, left as it is; skipped: a thing it needs was not made)',
    ),
});
export type ImportReport = z.infer<typeof importReportSchema>;

export const emptyReport = (): ImportReport => ({
  created: [],
  wouldCreate: [],
  duplicates: [],
  unsupported: [],
  invalid: [],
  adjusted: [],
  monitors: [],
  resources: [],
});
