import { z } from 'zod';
import { hasScope, idParams, resourceId } from '../../../libs/contract/index.js';
import { invalidInput, notFound } from '../../../libs/errors/index.js';
import { type ExportDocument, exportDocument } from '../../../libs/exports/index.js';
import type { OrganizationShare } from '../../../libs/fair-share/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import {
  IMPORT_FORMATS,
  type ImportJobDocument,
  type ImportJobs,
  importReportSchema,
  parseSource,
} from '../../../libs/imports/index.js';

/** An export's text as an export (400 naming `content.<field>` when it is not one of ours). */
function parseExport(content: string): ExportDocument {
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    throw invalidInput('The content is not JSON', [
      { path: 'content', message: 'webmon-json: the file GET /api/exports?format=webmon-json gives' },
    ]);
  }
  const parsed = exportDocument.safeParse(json);
  if (!parsed.success)
    throw invalidInput(
      'The content is not a webmon export',
      parsed.error.issues.slice(0, 20).map((issue) => ({
        path: ['content', ...issue.path].join('.'),
        message: issue.message,
      })),
    );
  return parsed.data;
}

/** An import's file travels in its JSON body: larger than the API's 1 MiB (an export of thousands of websites). */
export const IMPORT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Monitors one import takes at most (five batches of 1,000 websites). */
export const IMPORT_MAX_MONITORS = 5000;

const importView = z
  .object({
    id: z.number().int(),
    format: z.enum(IMPORT_FORMATS),
    dryRun: z.boolean(),
    status: z.enum(['running', 'succeeded', 'failed']),
    progress: z.object({ done: z.number().int(), total: z.number().int() }).describe('Monitors gone through'),
    report: importReportSchema,
    error: z.string().nullable(),
    createdAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Import' });

function toImportView(job: ImportJobDocument): z.input<typeof importView> {
  return {
    id: job.id,
    format: job.format,
    dryRun: job.dryRun,
    status: job.status,
    progress: job.progress,
    report: job.report,
    error: job.error,
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}

export function importRoutes(deps: {
  jobs: ImportJobs;
  /** IMPORTS_PER_ORGANIZATION: import requests read at once per organization (their files are large). */
  share: OrganizationShare;
  /** Whether the organization has this customer. */
  hasCustomer(organizationId: number, customerId: number): Promise<boolean>;
}): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/imports',
      operationId: 'startImport',
      summary: 'Import monitors of another tool (or a CSV) as websites: a job with progress',
      description:
        'One import runs at a time per organization (429 with Retry-After and `reason: imports-per-organization` while one runs, or while IMPORTS_PER_ORGANIZATION of its requests are being read, before this one’s body is). Formats: `webmon-json` (our export, GET /api/exports: packages, customers, websites with their checks and maintenance windows, channels without their write-only values, status pages; what the organization has by the same key is left as it is, each thing’s outcome in `report.resources`), `csv` (ours: name, url, customer, intervalSeconds, timeoutSeconds, method, keyword, keywordMode, expectedStatusCodes, paused), `uptimerobot-csv` (UptimeRobot’s export), `uptimerobot-json` (its getMonitors answer), `uptime-kuma` (its backup JSON). HTTP and keyword monitors become websites with their check configuration; ping, port, DNS, push/heartbeat, gRPC, WebSocket and mail-server monitors become checks of the website of their host (one the customer has or this import makes; else the `attachTo` website; a heartbeat: `attachTo`, else the website of its name), each in `report.monitors`; the others are listed with the reason. A website the customer has at the same URL, or a check of the same kind and target on its website, is not made again, so an import can be run again. Answers 202 with the job: poll GET /api/imports/{id}. The body may be up to 16 MiB here.',
      tags: ['Websites'],
      access: 'write',
      maxBodyBytes: IMPORT_MAX_BODY_BYTES,
      // Before the file is read: a request turned away costs no parse of up to 16 MiB.
      admit: async (auth) => {
        const slot = await deps.share.enter(auth.organizationId);
        try {
          await deps.jobs.assertNoneRunning(auth.organizationId);
          return slot;
        } catch (error) {
          slot.release();
          throw error;
        }
      },
      body: z
        .strictObject({
          format: z.enum(IMPORT_FORMATS),
          content: z.string().min(1).describe('The file, as text'),
          customerId: resourceId().optional().describe('Every monitor goes to this customer'),
          customerColumn: z
            .string()
            .trim()
            .min(1)
            .max(100)
            .optional()
            .describe('CSV formats: the column naming each monitor’s customer (its name or id)'),
          attachTo: z
            .string()
            .trim()
            .min(1)
            .max(100)
            .optional()
            .describe(
              'A website of the customer (id or public id): checks (ping, port, DNS, push, gRPC, WebSocket …) whose host has no website of the customer go to it',
            ),
          dryRun: z.boolean().default(false).describe('Say what would be created; write nothing'),
        })
        .meta({ id: 'ImportRequest' }),
      success: { status: 202, description: 'The import, started', schema: importView },
      problems: [429],
      handle: async ({ auth, body, ctx }) => {
        const { organizationId } = auth;
        if (body.format === 'webmon-json') {
          const given = (['customerId', 'customerColumn', 'attachTo'] as const).find(
            (field) => body[field] !== undefined,
          );
          if (given)
            throw invalidInput('An export names its own customers', [
              {
                path: given,
                message: 'webmon-json brings its customers and websites (by name): leave this out',
              },
            ]);
          const { job } = await deps.jobs.startConfiguration(organizationId, {
            exported: parseExport(body.content),
            dryRun: body.dryRun,
            mayCreatePackages: hasScope(auth.scopes, 'admin'),
          });
          ctx.set('Location', `/api/imports/${job.id}`);
          return toImportView(job);
        }
        if ((body.customerId === undefined) === (body.customerColumn === undefined))
          throw invalidInput('Say where the monitors go', [
            { path: 'customerId', message: 'give customerId, or customerColumn for a CSV (not both)' },
          ]);
        if (body.customerColumn !== undefined && !body.format.endsWith('csv'))
          throw invalidInput('customerColumn is for CSV formats', [
            { path: 'customerColumn', message: `${body.format} has no columns: give customerId` },
          ]);
        if (body.customerId !== undefined && !(await deps.hasCustomer(organizationId, body.customerId)))
          throw invalidInput(`Unknown customer ${body.customerId}`, [
            { path: 'customerId', message: `No customer ${body.customerId} in your organization` },
          ]);
        if (body.attachTo !== undefined && body.customerId === undefined)
          throw invalidInput('attachTo needs customerId', [
            {
              path: 'attachTo',
              message: 'a website of one customer: give customerId rather than customerColumn',
            },
          ]);
        const attachTo =
          body.attachTo === undefined || body.customerId === undefined
            ? null
            : await deps.jobs.attachSite(organizationId, body.attachTo, body.customerId);
        const monitors = await parseSource(body.format, body.content, body.customerColumn ?? null);
        if (monitors.length === 0)
          throw invalidInput('Nothing to import', [
            { path: 'content', message: 'the file holds no monitors' },
          ]);
        if (monitors.length > IMPORT_MAX_MONITORS)
          throw invalidInput('Too many monitors', [
            {
              path: 'content',
              message: `${monitors.length} monitors: at most ${IMPORT_MAX_MONITORS} an import`,
            },
          ]);
        const { job } = await deps.jobs.start(organizationId, {
          format: body.format,
          monitors,
          target:
            body.customerId !== undefined ? { customerId: body.customerId, attachTo } : { byMonitor: true },
          dryRun: body.dryRun,
        });
        ctx.set('Location', `/api/imports/${job.id}`);
        return toImportView(job);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/imports/:id',
      operationId: 'getImport',
      summary: 'An import: where it stands, and what it did with each monitor',
      tags: ['Websites'],
      access: 'read',
      params: idParams,
      success: { status: 200, description: 'The import', schema: importView },
      problems: [404],
      handle: async ({ auth, params }) => {
        const job = await deps.jobs.get(auth.organizationId, params.id);
        if (!job) throw notFound(`No import ${params.id} in your organization`);
        return toImportView(job);
      },
    }),
  ];
}
