import { z } from 'zod';
import { nameText } from '../contract/index.js';
import { createCustomerBody } from '../customers/index.js';
import { createWindowBody } from '../maintenance/index.js';
import { CHANNEL_TYPES, EVENT_KINDS, groupingSchema, templateText } from '../notifications/index.js';
import { createPackageBody } from '../packages/index.js';
import { createStatusPageBody } from '../status-pages/index.js';
import { createWebsiteBody, patchCheckConfigBody } from '../websites/index.js';
import { envReference } from './env-reference.js';
import { declaredMonitor } from './monitor-entries.js';

const secretText = z.union([z.string(), envReference]);

/** Headers the API keeps sealed even among customHeaders. */
const SEALED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** The maintenance windows of a website: as POST /api/maintenance-windows takes them, without `websiteId`. */
const maintenanceWindow = createWindowBody.omit({ websiteId: true });

/** A website: as POST /api/websites takes it, its customer given by nesting, channels and checks by name. */
const website = createWebsiteBody
  .omit({
    customerId: true,
    notificationChannelIds: true,
    escalationPolicyId: true,
    secretHeaders: true,
    mtlsClientKey: true,
    requestBody: true,
  })
  .extend({
    requestBody: z.union([z.string(), envReference]).nullable().optional(),
    secretHeaders: z
      .record(z.string(), secretText)
      .optional()
      .describe('Headers whose values are credentials: give each as {env: NAME}; the API keeps them sealed'),
    mtlsClientKey: secretText.nullable().optional().describe('The PEM key, as {env: NAME}'),
    notificationChannels: z
      .array(z.string().min(1))
      .max(20)
      .optional()
      .describe('Channels (by name) that receive this website’s events besides those whose scope covers it'),
    checkConfig: patchCheckConfigBody
      .optional()
      .describe('As PATCH /api/websites/{ref}/check-config takes it'),
    maintenance: z
      .array(maintenanceWindow)
      .max(50)
      .optional()
      .describe('Its maintenance windows, each known by its title'),
    monitors: z
      .array(declaredMonitor)
      .max(1000)
      .optional()
      .describe(
        'Its heartbeats, DNS, port and probe checks, each known by its name; left out: those it has are left as they are',
      ),
  })
  .superRefine((site, ctx) => {
    // The API seals these and never shows them: in the file they would be plain text, and never compared.
    for (const name of Object.keys(site.customHeaders ?? {}))
      if (SEALED_HEADERS.has(name.toLowerCase()))
        ctx.addIssue({
          code: 'custom',
          path: ['customHeaders', name],
          message: `a credential: give it in secretHeaders as {env: NAME}`,
        });
    if (typeof site.requestBody === 'object' && site.requestBody !== null && site.requestBodySecret !== true)
      ctx.addIssue({
        code: 'custom',
        path: ['requestBodySecret'],
        message: 'a body from the environment is a credential: set requestBodySecret: true',
      });
  });

const customer = createCustomerBody.omit({ packageId: true, escalationPolicyId: true }).extend({
  package: z.string().min(1).describe('The package, by its key'),
  websites: z.array(website).max(10_000).optional().describe('Each website is known by its URL'),
});

const configValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.string()),
  z.null(),
  envReference,
]);

const channel = z.strictObject({
  type: z.enum(CHANNEL_TYPES),
  name: nameText(200).describe('Its name: the key it is known by'),
  enabled: z.boolean().optional(),
  events: z.array(z.enum(EVENT_KINDS)).min(1).optional(),
  scope: z
    .strictObject({
      customer: z.string().min(1).optional().describe('Only this customer’s websites (by name)'),
      listedOnly: z.boolean().optional(),
    })
    .optional()
    .describe('{} every website of the organization, {customer} one customer’s, {listedOnly: true} none'),
  config: z
    .record(z.string(), configValue)
    .describe(
      'The type’s config as POST /api/notification-channels takes it; write-only fields (webhook URLs with tokens, API keys) as {env: NAME}',
    ),
  template: templateText.nullable().optional().describe('Its message template (Liquid, docs/templates.md)'),
  grouping: groupingSchema
    .nullable()
    .optional()
    .describe('A burst of failures in one message (docs/escalation.md)'),
});

const statusPage = createStatusPageBody.omit({ customerId: true, websiteIds: true }).extend({
  customer: z.string().min(1).describe('The customer whose websites it shows (by name)'),
  websites: z
    .array(z.string().min(1))
    .max(500)
    .nullable()
    .optional()
    .describe('The websites shown, by URL or name; null or omitted: all of the customer’s'),
});

/**
 * Monitoring as code: what an organization should have. Each thing is known by its key (a
 * package's `key`, a customer's `name`, a website's `url` within its customer, a window's `title`
 * within its website, a channel's `name`, a status page's `slug`); fields left out are left as
 * they are (a new thing gets the API's defaults).
 */
export const monitoringFile = z
  .strictObject({
    $schema: z.string().optional(),
    version: z.literal(1).describe('The file format’s version'),
    packages: z.array(createPackageBody).max(200).optional(),
    customers: z.array(customer).max(10_000).optional(),
    channels: z.array(channel).max(500).optional(),
    statusPages: z.array(statusPage).max(1_000).optional(),
  })
  .meta({
    id: 'MonitoringFile',
    title: 'webmon monitoring file',
    description: 'Customers, websites, checks, maintenance, channels and status pages, as code',
  });

export type MonitoringFile = z.infer<typeof monitoringFile>;
export type DeclaredCustomer = z.infer<typeof customer>;
export type DeclaredWebsite = z.infer<typeof website>;
export type DeclaredWindow = z.infer<typeof maintenanceWindow>;
export type { DeclaredMonitor } from './monitor-entries.js';
export type DeclaredChannel = z.infer<typeof channel>;
export type DeclaredStatusPage = z.infer<typeof statusPage>;
export type DeclaredPackage = z.infer<typeof createPackageBody>;

/** The file's JSON Schema (draft 2020-12): editors validate and complete with it. */
export function monitoringFileJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(monitoringFile, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}
