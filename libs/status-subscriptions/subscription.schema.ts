import { z } from 'zod';
import { absoluteHttpUrl, emailAddress, resourceId, uniqueArray } from '../contract/index.js';

export const subscribeBody = z
  .strictObject({
    email: emailAddress()
      .optional()
      .describe('Where the confirmation link, then the page’s news, are mailed (or `webhookUrl`)'),
    webhookUrl: absoluteHttpUrl('put a secret in a header-less path, or verify our signature')
      .optional()
      .describe(
        'Where the page’s news are posted, signed (Standard Webhooks); it must answer the challenge posted at once with {"challenge": "<it>"}',
      ),
    components: uniqueArray(resourceId())
      .max(500)
      .optional()
      .describe('Only these websites of the page (their ids); absent or empty: the whole page'),
  })
  .superRefine((body, ctx) => {
    if ((body.email === undefined) === (body.webhookUrl === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [body.email === undefined ? 'email' : 'webhookUrl'],
        message: 'send either an e-mail address or a webhook URL',
      });
  })
  .meta({ id: 'StatusPageSubscribe' });

export const webhookSubscribedAnswer = z
  .object({
    id: z.string(),
    secret: z.string().describe('The signing secret (whsec_…) of the deliveries, shown this once'),
    unsubscribeUrl: z.string().describe('POST to it to unsubscribe (each delivery carries it too)'),
  })
  .meta({ id: 'StatusPageWebhookSubscription' });

export const subscribeAnswer = z
  .object({
    message: z.string().describe('The same words whether the address was new, pending or subscribed'),
  })
  .meta({ id: 'StatusPageSubscribeAnswer' });

export const subscriberView = z
  .object({
    id: z.string().describe('Stable per page and address; names no address'),
    email: z.string().describe('Empty for a webhook'),
    channel: z.enum(['email', 'webhook']),
    webhookUrl: z.string().nullable(),
    state: z.enum(['pending', 'confirmed']).describe('pending: the confirmation link was not followed yet'),
    components: z.array(z.number().int()).nullable().describe('The websites they are told about; null: all'),
    createdAt: z.iso.datetime(),
    confirmedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'StatusPageSubscriber' });

export const SUBSCRIBERS_PAGE_SIZE = 200;

export const subscribersQuery = z.strictObject({
  state: z.enum(['pending', 'confirmed']).optional(),
  after: z.string().max(100).optional().describe('The last id of the previous page (`nextAfter`)'),
  limit: z.coerce.number().int().min(1).max(1000).default(SUBSCRIBERS_PAGE_SIZE),
  format: z.enum(['json', 'csv']).default('json').describe('csv: every subscriber at once, as a file'),
});

export const subscribersAnswer = z
  .object({
    subscribers: z.array(subscriberView),
    counts: z.object({ pending: z.number().int(), confirmed: z.number().int() }),
    nextAfter: z.string().nullable().describe('Pass as `after` for the next page; null: this was the last'),
  })
  .meta({ id: 'StatusPageSubscribers' });

export const removeSubscriberQuery = z.strictObject({
  email: emailAddress().describe('The address to remove from the page'),
});

export const linkQuery = z.strictObject({
  token: z.string().min(1).max(100).describe('The link’s secret, as mailed'),
});
