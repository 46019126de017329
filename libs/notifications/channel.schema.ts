import { z } from 'zod';
import { CHANNEL_TYPES, type ChannelType, connectorOf } from '../connectors/index.js';
import { decimalId } from '../contract/index.js';
import { eventKind, groupingSchema, sharedFields, templateText } from './channel-fields.schema.js';

export { CHANNEL_TYPES, type ChannelType, type ConfigValue } from '../connectors/index.js';
export { EVENT_KINDS, type EventKind } from '../events/index.js';

export const secretFieldsOf = (type: ChannelType): readonly string[] => connectorOf(type).secrets;

/** The config fields of a type a PATCH may send (all optional, no defaults), strict. */
export function configPatchSchema(type: ChannelType) {
  return z.strictObject(connectorOf(type).shape).partial();
}

/** Enums named once: one class in generated clients, not one per field that holds them. */
const channelType = z.enum(CHANNEL_TYPES).meta({ id: 'ChannelType' });

/** `pagerduty` → `Pagerduty`: the stem of a type's component names. */
const pascalCase = (type: ChannelType) => `${type.charAt(0).toUpperCase()}${type.slice(1)}`;

/**
 * A type's create body: its config with the fields that have defaults optional. Each is a named
 * component (`SlackChannelCreate`, its config `SlackChannelConfig`): openapi-python-client drops
 * inline union members' nested objects as duplicate models.
 */
function createVariant(type: ChannelType) {
  const { shape, defaults } = connectorOf(type);
  const optional = new Set(Object.keys(defaults));
  const config = z
    .strictObject(
      Object.fromEntries(
        Object.entries(shape).map(([key, schema]) => [key, optional.has(key) ? schema.optional() : schema]),
      ),
    )
    .meta({ id: `${pascalCase(type)}ChannelConfig` });
  return z
    .strictObject({ type: z.literal(type), ...sharedFields, config })
    .meta({ id: `${pascalCase(type)}ChannelCreate` });
}

const [firstType, ...otherTypes] = CHANNEL_TYPES;
export const createChannelBody = z
  .discriminatedUnion('type', [createVariant(firstType), ...otherTypes.map(createVariant)])
  .meta({ id: 'ChannelCreate' });
export type CreateChannelInput = z.output<typeof createChannelBody>;

const configValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);

const templateProblemFields = {
  message: z.string().describe('What is wrong, with the line and column Liquid points at'),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
};

/** Why the channel's template was not used for its last message (the default message went instead). */
const lastTemplateProblem = z
  .object({
    ...templateProblemFields,
    at: z.iso.datetime(),
    eventType: eventKind.describe('The event the template was rendered for'),
  })
  .meta({ id: 'ChannelTemplateProblem' });

/** What the channel's last failed delivery attempt met (it is retried on the usual schedule). */
const lastDeliveryProblem = z
  .object({
    since: z.iso.datetime().describe('The first failed attempt after the last delivery that got through'),
    at: z.iso.datetime().describe('The last failed attempt noted'),
    message: z
      .string()
      .describe('What the receiver answered or what the request met: "HTTP 500: …", a network error'),
    eventType: eventKind.describe('The event the attempt carried'),
  })
  .meta({ id: 'ChannelDeliveryProblem' });

export const channelView = z
  .object({
    id: z.number().int(),
    organizationId: z.number().int(),
    type: channelType,
    name: z.string(),
    enabled: z.boolean(),
    events: z.array(eventKind),
    scope: z
      .object({ customerId: z.number().int().optional(), listedOnly: z.boolean() })
      .meta({ id: 'ChannelScope' }),
    config: z
      .record(z.string(), configValue)
      .describe('The type’s config; each write-only field shows as <field>Set: true|false instead'),
    // Optional: exports made before templates (read back by imports) have neither; the API always answers both.
    template: z
      .string()
      .nullable()
      .optional()
      .describe('The message template (docs/templates.md); null: the default message'),
    templateProblem: lastTemplateProblem
      .nullable()
      .optional()
      .describe(
        'The last time the template could not be rendered for a delivery (the default message was sent); cleared by a rendering that works or a template change',
      ),
    deliveryProblem: lastDeliveryProblem
      .nullable()
      .optional()
      .describe(
        'Deliveries failing: since when, and the last failed attempt noted (at most every 5 minutes); cleared once a delivery gets through',
      ),
    grouping: groupingSchema.nullable().optional().describe('How down alerts are grouped (null: each alone)'),
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

export const templatePreviewBody = z
  .strictObject({
    type: channelType.describe('The channel’s type'),
    template: templateText.describe('The Liquid template to render (docs/templates.md)'),
    eventType: eventKind.optional().describe('The kind of sample event to render (default website.down)'),
    grouped: z
      .boolean()
      .optional()
      .describe('The sample carries a grouped message’s list of websites (group)'),
  })
  .meta({ id: 'TemplatePreviewRequest' });

export const templatePreviewView = z
  .object({
    text: z
      .string()
      .nullable()
      .describe(
        'The message the template renders for the sample event; null when it cannot (the default is sent)',
      ),
    problem: z.object(templateProblemFields).optional().meta({ id: 'TemplateProblem' }),
    unknownVariables: z
      .array(z.string())
      .describe('Variables the template reads that no event has (they render empty): misspelt, most often'),
  })
  .meta({ id: 'TemplatePreview' });

export const listChannelsQuery = z.strictObject({
  customerId: decimalId().optional().describe('Only channels scoped to this customer'),
});
