import { z } from 'zod';
import { absoluteHttpUrl, decimalId, patchBody } from '../contract/index.js';
import { EVENT_KINDS } from '../events/index.js';

export { EVENT_KINDS, type EventKind } from '../events/index.js';

export const CHANNEL_TYPES = [
  'webhook',
  'slack',
  'teams',
  'discord',
  'pagerduty',
  'opsgenie',
  'jira',
  'email',
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export type ConfigValue = string | number | boolean | string[] | null;

const endpoint = absoluteHttpUrl('a connector’s token goes in its own write-only field');
/** Incoming-webhook URLs of chat tools carry their credential in the path: they are secrets. */
const secretEndpoint = endpoint.describe('Write-only (the URL is the credential): never returned');
const email = z.email().max(254);

/**
 * Each type's `config` fields, without defaults (a PATCH sends some of them). `secrets` are
 * write-only and sealed at rest; `defaults` fill what a create omits.
 */
const CHANNEL_KINDS = {
  webhook: {
    shape: { url: endpoint.describe('Receives Standard Webhooks POSTs, signed with the channel’s secret') },
    secrets: [],
    defaults: {},
  },
  slack: { shape: { webhookUrl: secretEndpoint }, secrets: ['webhookUrl'], defaults: {} },
  discord: { shape: { webhookUrl: secretEndpoint }, secrets: ['webhookUrl'], defaults: {} },
  teams: {
    shape: { webhookUrl: secretEndpoint.describe('A Workflows (Power Automate) webhook URL; write-only') },
    secrets: ['webhookUrl'],
    defaults: {},
  },
  pagerduty: {
    shape: {
      routingKey: z
        .string()
        .regex(/^[A-Za-z0-9]{32}$/, 'must be a 32-character Events API v2 integration key')
        .describe('Write-only'),
      eventsUrl: endpoint.describe('Events API v2 endpoint'),
    },
    secrets: ['routingKey'],
    defaults: { eventsUrl: 'https://events.pagerduty.com/v2/enqueue' },
  },
  opsgenie: {
    shape: {
      apiKey: z
        .string()
        .regex(
          /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
          'must be an Opsgenie API key',
        )
        .describe('Write-only'),
      apiUrl: endpoint.describe('https://api.opsgenie.com, or https://api.eu.opsgenie.com'),
    },
    secrets: ['apiKey'],
    defaults: { apiUrl: 'https://api.opsgenie.com' },
  },
  jira: {
    shape: {
      baseUrl: endpoint.describe('The Jira Cloud site, e.g. https://agency.atlassian.net'),
      email: email.describe('The Atlassian account the API token belongs to'),
      apiToken: z.string().trim().min(1).max(1024).describe('Write-only'),
      projectKey: z.string().regex(/^[A-Z][A-Z0-9_]{1,9}$/, 'must be a Jira project key such as OPS'),
      issueType: z.string().trim().min(1).max(100),
      doneTransition: z.string().trim().min(1).max(100).describe('Transition applied when the website is up'),
    },
    secrets: ['apiToken'],
    defaults: { issueType: 'Bug', doneTransition: 'Done' },
  },
  email: {
    shape: {
      host: z
        .string()
        .regex(/^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/, 'must be a host name or IPv4 address')
        .describe('SMTP server'),
      port: z.number().int().min(1).max(65_535),
      secure: z.boolean().describe('true: TLS from the first byte (port 465); false: STARTTLS when offered'),
      username: z.string().min(1).max(256).nullable(),
      password: z.string().min(1).max(1024).nullable().describe('Write-only; null clears it'),
      from: email,
      to: z
        .array(email)
        .min(1)
        .max(50)
        .refine(
          (to) => new Set(to.map((a) => a.toLowerCase())).size === to.length,
          'addresses must not repeat',
        ),
    },
    secrets: ['password'],
    defaults: { port: 587, secure: false, username: null, password: null },
  },
} as const satisfies Record<
  ChannelType,
  { shape: z.ZodRawShape; secrets: readonly string[]; defaults: Record<string, ConfigValue> }
>;

export const secretFieldsOf = (type: ChannelType): readonly string[] => CHANNEL_KINDS[type].secrets;
export const configDefaultsOf = (type: ChannelType): Readonly<Record<string, ConfigValue>> =>
  CHANNEL_KINDS[type].defaults;

/** The config fields of a type a PATCH may send (all optional, no defaults), strict. */
export function configPatchSchema(type: ChannelType) {
  return z.strictObject(CHANNEL_KINDS[type].shape).partial();
}

/** The config of a type as stored after defaults, for checks that span fields. */
export function configProblems(type: ChannelType, config: Record<string, unknown>) {
  if (type === 'email' && config.password !== null && config.username === null)
    return [{ path: 'config.username', message: 'is required when a password is set' }];
  return [];
}

export const eventsSchema = z
  .array(z.enum(EVENT_KINDS))
  .min(1)
  .refine((events) => new Set(events).size === events.length, 'events must not repeat')
  .describe('The event kinds this channel receives (default: all)');

export const scopeSchema = z
  .strictObject({
    customerId: z.number().int().positive().optional().describe('Only the websites of this customer'),
    listedOnly: z
      .boolean()
      .optional()
      .describe('Only the websites that list this channel in their notificationChannelIds'),
  })
  .refine((scope) => !(scope.customerId !== undefined && scope.listedOnly), {
    message: 'choose customerId or listedOnly, not both',
    path: ['listedOnly'],
  })
  .describe(
    'Which websites’ events the channel receives besides those that list it: {} all of the organization, {customerId} one customer’s, {listedOnly: true} none',
  );

const common = {
  name: z.string().trim().min(1).max(200),
  enabled: z.boolean().optional(),
  events: eventsSchema.optional(),
  scope: scopeSchema.optional(),
};

function createVariant<T extends ChannelType>(type: T) {
  const { shape, defaults } = CHANNEL_KINDS[type];
  const optional = new Set(Object.keys(defaults));
  const config = z.strictObject(
    Object.fromEntries(
      Object.entries(shape).map(([key, schema]) => [key, optional.has(key) ? schema.optional() : schema]),
    ) as { [K in keyof (typeof CHANNEL_KINDS)[T]['shape']]: z.ZodType },
  );
  return z.strictObject({ type: z.literal(type), ...common, config });
}

export const createChannelBody = z
  .discriminatedUnion('type', [
    createVariant('webhook'),
    createVariant('slack'),
    createVariant('teams'),
    createVariant('discord'),
    createVariant('pagerduty'),
    createVariant('opsgenie'),
    createVariant('jira'),
    createVariant('email'),
  ])
  .meta({ id: 'ChannelCreate' });
export type CreateChannelInput = z.output<typeof createChannelBody>;

export const patchChannelBody = patchBody(
  z.strictObject({
    name: common.name.optional(),
    enabled: z.boolean().optional(),
    events: eventsSchema.optional(),
    scope: scopeSchema.optional(),
    config: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'Fields of the channel type’s config to change (as in the create body); write-only fields omitted are kept',
      ),
  }),
).meta({ id: 'ChannelUpdate' });
export type ChannelPatch = z.output<typeof patchChannelBody>;

const configValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);

export const channelView = z
  .object({
    id: z.number().int(),
    organizationId: z.number().int(),
    type: z.enum(CHANNEL_TYPES),
    name: z.string(),
    enabled: z.boolean(),
    events: z.array(z.enum(EVENT_KINDS)),
    scope: z.object({ customerId: z.number().int().optional(), listedOnly: z.boolean() }),
    config: z
      .record(z.string(), configValue)
      .describe('The type’s config; each write-only field shows as <field>Set: true|false instead'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Channel' });

export const createdChannelView = channelView
  .extend({
    secret: z
      .string()
      .optional()
      .describe('Webhook channels only: the signing secret (whsec_…), shown this once'),
  })
  .meta({ id: 'CreatedChannel' });

export const rotatedSecretView = z
  .object({
    secret: z.string().describe('The new signing secret (whsec_…), shown this once'),
    previousSecretValidUntil: z.iso.datetime().describe('Until then the old secret signs too'),
  })
  .meta({ id: 'RotatedSecret' });

export const listChannelsQuery = z.strictObject({
  customerId: decimalId().optional().describe('Only channels scoped to this customer'),
});
