import { z } from 'zod';
import { nameText, patchBody, proseText, resourceId, uniqueArray } from '../contract/index.js';
import { EVENT_KINDS } from '../events/event-kinds.js';
import { TEMPLATE_MAX_CHARS } from '../templates/variables.js';

/**
 * A channel's fields that every type shares, and the PATCH body: pure (zod and constants), so that
 * the app checks a form with them too. A type's config is its connector's (channel.schema.ts).
 */

/** Enums named once: one class in generated clients, not one per field that holds them. */
export const eventKind = z.enum(EVENT_KINDS).meta({ id: 'EventKind' });

export const eventsSchema = uniqueArray(eventKind)
  .min(1)
  .describe('The event kinds this channel receives (default: all)');

export const scopeSchema = z
  .strictObject({
    customerId: resourceId().optional().describe('Only the websites of this customer'),
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
  )
  .meta({ id: 'ChannelScope' });

/** A message template's text (the API parses it too: a syntax error is a 400 naming `template`). */
export const templateText = proseText(TEMPLATE_MAX_CHARS);

const channelTemplate = templateText
  .nullable()
  .optional()
  .describe(
    'The message’s text as a Liquid template over the event’s fields (docs/templates.md); null or empty: the default message',
  );

/** How a channel groups failures: those of one customer (or the organization) within a window become one message. */
export const groupingSchema = z
  .strictObject({
    windowSeconds: z
      .number()
      .int()
      .min(5)
      .max(900)
      .describe('Failures within this many seconds of the first become one message listing them'),
    by: z
      .enum(['customer', 'organization'])
      .describe('customer: one message per customer’s failures; organization: one for all'),
  })
  .meta({ id: 'ChannelGrouping' });
export type ChannelGrouping = z.output<typeof groupingSchema>;

const channelGrouping = groupingSchema
  .nullable()
  .optional()
  .describe(
    'Group down alerts: the first failure opens a window, every failure in it (of one customer, or the organization) goes out as one message, then each website’s updates one by one; null: each alone',
  );

/** The fields of every type's create body besides `type` and `config`. */
export const sharedFields = {
  name: nameText(200),
  enabled: z.boolean().optional(),
  events: eventsSchema.optional(),
  scope: scopeSchema.optional(),
  template: channelTemplate,
  grouping: channelGrouping,
};

/**
 * A create body's shared fields as the API checks them (`type` and `config` pass): the app checks a
 * new channel's form with it; the config, its connector's, is checked by the API.
 */
export const channelFields = z.object(sharedFields);

export const patchChannelBody = patchBody(
  z.strictObject({
    name: sharedFields.name.optional(),
    enabled: z.boolean().optional(),
    events: eventsSchema.optional(),
    scope: scopeSchema.optional(),
    template: channelTemplate,
    grouping: channelGrouping,
    config: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'Fields of the channel type’s config to change (as in the create body); write-only fields omitted are kept',
      ),
  }),
).meta({ id: 'ChannelUpdate' });
export type ChannelPatch = z.output<typeof patchChannelBody>;
