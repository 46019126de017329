import { z } from 'zod';
import { emailAddress, resourceId, uniqueArray } from '../contract/index.js';

export const subscribeBody = z
  .strictObject({
    email: emailAddress().describe('Where the confirmation link, then the page’s news, are mailed'),
    components: uniqueArray(resourceId())
      .max(500)
      .optional()
      .describe('Only these websites of the page (their ids); absent or empty: the whole page'),
  })
  .meta({ id: 'StatusPageSubscribe' });

export const subscribeAnswer = z
  .object({
    message: z.string().describe('The same words whether the address was new, pending or subscribed'),
  })
  .meta({ id: 'StatusPageSubscribeAnswer' });

export const subscriberView = z
  .object({
    id: z.string().describe('Stable per page and address; names no address'),
    email: z.string(),
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
