import { z } from 'zod';
import type { Delivery, DeliveryRepository, DeliveryRequests } from '../../../libs/alerts/index.js';
import { decimalId, decimalInteger } from '../../../libs/contract/index.js';
import { notFound } from '../../../libs/errors/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import { EVENT_KINDS } from '../../../libs/notifications/index.js';

const TAGS = ['Notification channels'];
const channelParams = z.object({ id: decimalId() });

const deliveryView = z
  .object({
    id: z.number().int(),
    channelId: z.number().int(),
    eventId: z.string(),
    eventType: z.enum(EVENT_KINDS),
    status: z
      .enum(['pending', 'succeeded', 'failed', 'skipped'])
      .describe(
        'pending: attempts go on (retries on SPEC’s schedule); skipped: the event means nothing to this channel',
      ),
    outcome: z.string().nullable().describe('Why it failed or was skipped'),
    externalRef: z
      .string()
      .nullable()
      .describe('What the tool made of it (the Jira issue a down event opened)'),
    attempts: z.array(
      z.object({
        at: z.iso.datetime(),
        durationMs: z.number().int(),
        httpStatus: z.number().int().nullable(),
        error: z.string().nullable(),
        responseExcerpt: z.string().nullable().describe('The first 2 KiB of the answer'),
      }),
    ),
    payload: z
      .record(z.string(), z.unknown())
      .describe('The event as sent (webhooks) or formatted (connectors)'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Delivery' });

function toDeliveryView(delivery: Delivery): z.input<typeof deliveryView> {
  return {
    id: delivery.id,
    channelId: delivery.channelId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    outcome: delivery.outcome,
    externalRef: delivery.externalRef,
    attempts: delivery.attempts.map((attempt) => ({ ...attempt, at: attempt.at.toISOString() })),
    payload: { ...delivery.payload },
    createdAt: delivery.createdAt.toISOString(),
    updatedAt: delivery.updatedAt.toISOString(),
  };
}

/** Test sends, the delivery log and redelivery of `/api/notification-channels/:id`. */
export function deliveryRoutes(deps: {
  requests: DeliveryRequests;
  deliveries: DeliveryRepository;
  /** Throws 404 unless the channel is the organization's. */
  requireChannel(organizationId: number, channelId: number): Promise<void>;
}): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/notification-channels/:id/test',
      operationId: 'testNotificationChannel',
      summary: 'Send a test event to the channel now',
      description: 'Answers at once with the delivery; follow it in the delivery log.',
      tags: TAGS,
      access: 'write',
      params: channelParams,
      success: {
        status: 202,
        description: 'The delivery, pending',
        schema: deliveryView,
        headers: ['Location'],
      },
      handle: async ({ auth, params, ctx }) => {
        const delivery = await deps.requests.test(auth.organizationId, params.id);
        ctx.set('Location', `/api/notification-channels/${params.id}/deliveries/${delivery.id}`);
        return toDeliveryView(delivery);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/notification-channels/:id/deliveries',
      operationId: 'listNotificationDeliveries',
      summary: 'The channel’s deliveries with every attempt, newest first, in pages',
      tags: TAGS,
      access: 'read',
      params: channelParams,
      query: z.strictObject({
        limit: decimalInteger({ min: 1, max: 200 }).default(50),
        cursor: decimalId().optional().describe('nextCursor of the previous page'),
      }),
      success: {
        status: 200,
        description: 'A page of deliveries; nextCursor is null on the last page',
        schema: z.object({ items: z.array(deliveryView), nextCursor: z.number().int().nullable() }),
      },
      handle: async ({ auth, params, query }) => {
        await deps.requireChannel(auth.organizationId, params.id);
        const page = await deps.deliveries.page(
          auth.organizationId,
          params.id,
          query.limit + 1,
          query.cursor,
        );
        const items = page.slice(0, query.limit);
        return {
          items: items.map(toDeliveryView),
          nextCursor: page.length > query.limit ? (items.at(-1)?.id ?? null) : null,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/notification-channels/:id/deliveries/:deliveryId',
      operationId: 'getNotificationDelivery',
      summary: 'One delivery with every attempt',
      tags: TAGS,
      access: 'read',
      params: channelParams.extend({ deliveryId: decimalId() }),
      success: { status: 200, description: 'The delivery', schema: deliveryView },
      handle: async ({ auth, params }) => {
        const delivery = await deps.deliveries.findById(auth.organizationId, params.deliveryId);
        if (!delivery || delivery.channelId !== params.id) {
          await deps.requireChannel(auth.organizationId, params.id);
          throw notFound(`No delivery ${params.deliveryId} of channel ${params.id}`);
        }
        return toDeliveryView(delivery);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/notification-channels/:id/deliveries/:deliveryId/redeliver',
      operationId: 'redeliverNotification',
      problems: [409],
      summary: 'Send a delivery again (a new series of attempts)',
      tags: TAGS,
      access: 'write',
      params: channelParams.extend({ deliveryId: decimalId() }),
      success: { status: 202, description: 'The delivery, pending again', schema: deliveryView },
      handle: async ({ auth, params }) =>
        toDeliveryView(await deps.requests.redeliver(auth.organizationId, params.id, params.deliveryId)),
    }),
  ];
}
