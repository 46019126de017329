import { randomUUID } from 'node:crypto';
import { notFound } from '../http/index.js';
import type { Logger } from '../logging/index.js';
import type { EventDocument, EventOutbox } from '../monitoring/index.js';
import {
  type ChannelDocument,
  type ChannelRepository,
  channelSecretContext,
  type EventKind,
} from '../notifications/index.js';
import { SERVICE_VERSION } from '../runtime/index.js';
import type { SecretBox } from '../secrets/index.js';
import type { WebsiteRepository } from '../websites/index.js';
import { channelsForEvent } from './channel-matching.js';
import { httpRequestFor, type OpenedChannel } from './connectors.js';
import type { DeliveryDocument, DeliveryRepository } from './delivery.repository.js';
import type { EventPayload } from './event-payload.js';
import { BlockedDestinationError, type GuardedPoster, type PostOutcome } from './guarded-post.js';
import type { NotificationQueue } from './notification.queue.js';

const USER_AGENT = `webmon-notifier/${SERVICE_VERSION}`;

export function payloadOf(event: EventDocument): EventPayload {
  const data = event.data as Partial<EventPayload['data']>;
  return {
    id: event.id,
    type: event.type as EventKind,
    createdAt: event.createdAt.toISOString(),
    organizationId: event.organizationId,
    data: {
      ...data,
      website: data.website ?? null,
      previousStatus: data.previousStatus ?? null,
      status: data.status ?? null,
      incident: data.incident ?? null,
    },
  };
}

/** What the API asks of deliveries: test sends and redeliveries, queued for the notifier. */
export class DeliveryRequests {
  constructor(
    private readonly deps: {
      channels: ChannelRepository;
      deliveries: DeliveryRepository;
      queue: NotificationQueue;
    },
  ) {}

  /** The channel's delivery of the event (made once), queued while pending. */
  async enqueue(channel: ChannelDocument, payload: EventPayload): Promise<DeliveryDocument> {
    const delivery = await this.deps.deliveries.createOnce({
      organizationId: channel.organizationId,
      channelId: channel.id,
      payload,
    });
    if (delivery.status === 'pending') await this.deps.queue.deliver(delivery.organizationId, delivery.id);
    return delivery;
  }

  /** Sends a `test` event to one channel now (enabled or not). */
  async test(organizationId: number, channelId: number): Promise<DeliveryDocument> {
    const channel = await this.deps.channels.findById(organizationId, channelId);
    if (!channel) throw notFound(`No notification channel ${channelId}`);
    return this.enqueue(channel, {
      id: randomUUID(),
      type: 'test',
      createdAt: new Date().toISOString(),
      organizationId,
      data: { website: null, previousStatus: null, status: null, incident: null, result: null },
    });
  }

  /** Starts a new series of attempts for a delivery, whatever became of the last one. */
  async redeliver(organizationId: number, channelId: number, deliveryId: number): Promise<DeliveryDocument> {
    const delivery = await this.deps.deliveries.findById(organizationId, deliveryId);
    if (!delivery || delivery.channelId !== channelId)
      throw notFound(`No delivery ${deliveryId} of channel ${channelId}`);
    await this.deps.deliveries.settle(organizationId, deliveryId, 'pending', null);
    // The attempt count makes a job id of its own, so a finished series does not block this one.
    await this.deps.queue.deliver(organizationId, deliveryId, delivery.attempts.length);
    return { ...delivery, status: 'pending', outcome: null };
  }
}

/** The notifier's side: turns outbox events into deliveries and carries out their attempts. */
export class DeliveryRunner {
  constructor(
    private readonly deps: {
      outbox: EventOutbox;
      channels: ChannelRepository;
      websites: WebsiteRepository;
      deliveries: DeliveryRepository;
      requests: DeliveryRequests;
      queue: NotificationQueue;
      secrets: SecretBox;
      poster: GuardedPoster;
      logger: Logger;
    },
  ) {}

  /** One delivery per channel the event goes to; safe to run again for the same event. */
  async dispatch(eventId: string): Promise<void> {
    const { outbox, channels, websites } = this.deps;
    const event = await outbox.find(eventId);
    if (!event || event.deliveredAt) return;
    const payload = payloadOf(event);
    const website = await websites.findByRef(event.organizationId, { id: event.websiteId });
    const targets = channelsForEvent(
      {
        type: payload.type,
        customerId: payload.data.website?.customerId ?? null,
        listedChannelIds: website?.notificationChannelIds ?? [],
      },
      await channels.list(event.organizationId),
    );
    for (const channel of targets) await this.deps.requests.enqueue(channel, payload);
    await outbox.markDispatched(eventId, new Date());
    if (targets.length > 0)
      this.deps.logger.info({ eventId, type: payload.type, channels: targets.length }, 'event dispatched');
  }

  /** Announces again events whose announcement was lost (Redis flushed, a worker died in between). */
  async sweep(olderThanMs: number): Promise<number> {
    const ids = await this.deps.outbox.undispatched(new Date(Date.now() - olderThanMs), 1000);
    for (const id of ids) await this.deps.queue.announce(id);
    return ids.length;
  }

  /** One attempt of a delivery; a thrown error retries it on the retry schedule. */
  async attempt(
    job: { organizationId: number; deliveryId: number },
    attempt: { last: boolean },
  ): Promise<void> {
    const { deliveries, channels, logger } = this.deps;
    const delivery = await deliveries.findById(job.organizationId, job.deliveryId);
    if (!delivery || delivery.status !== 'pending') return;
    const channel = await channels.findById(delivery.organizationId, delivery.channelId);
    if (!channel)
      return deliveries.settle(delivery.organizationId, delivery.id, 'failed', 'the channel was deleted');
    if (!channel.enabled && delivery.eventType !== 'test')
      return deliveries.settle(delivery.organizationId, delivery.id, 'skipped', 'the channel is disabled');

    const request = httpRequestFor(this.open(channel), delivery.payload, new Date());
    if (!request)
      return deliveries.settle(
        delivery.organizationId,
        delivery.id,
        'skipped',
        `${delivery.eventType} is not sent to ${channel.type} channels`,
      );
    const at = new Date();
    const log = {
      deliveryId: delivery.id,
      channelId: channel.id,
      type: channel.type,
      event: delivery.eventType,
    };
    let answer: PostOutcome;
    try {
      answer = await this.deps.poster.post(request, { 'user-agent': USER_AGENT });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await deliveries.recordAttempt(delivery, {
        at,
        durationMs: Date.now() - at.getTime(),
        httpStatus: null,
        error: message,
        responseExcerpt: null,
      });
      // A refused destination stays refused: no point retrying it.
      return this.retryOrFail(
        delivery,
        log,
        message,
        attempt.last || error instanceof BlockedDestinationError,
      );
    }
    await deliveries.recordAttempt(delivery, {
      at,
      durationMs: answer.durationMs,
      httpStatus: answer.status,
      error: null,
      responseExcerpt: answer.responseExcerpt,
    });
    if (answer.status >= 200 && answer.status < 300) {
      logger.info({ ...log, status: answer.status }, 'delivered');
      return deliveries.settle(delivery.organizationId, delivery.id, 'succeeded', null);
    }
    if (answer.status === 410) {
      // The receiver says it is gone for good: stop sending it anything.
      await channels.replace({ ...channel, enabled: false, updatedAt: new Date() });
      logger.warn(log, 'receiver answered 410 Gone: channel disabled');
      return deliveries.settle(
        delivery.organizationId,
        delivery.id,
        'failed',
        '410 Gone: the channel was disabled',
      );
    }
    return this.retryOrFail(delivery, log, `the receiver answered HTTP ${answer.status}`, attempt.last);
  }

  /** Throws to have the attempt retried, or settles the delivery as failed after the last one. */
  private async retryOrFail(
    delivery: DeliveryDocument,
    log: Record<string, unknown>,
    reason: string,
    final: boolean,
  ): Promise<void> {
    this.deps.logger.warn({ ...log, err: reason, final }, 'delivery attempt failed');
    if (!final) throw new Error(reason);
    await this.deps.deliveries.settle(delivery.organizationId, delivery.id, 'failed', reason);
  }

  /** The channel with its write-only fields opened (only here, for the request). */
  private open(channel: ChannelDocument): OpenedChannel {
    const secrets = Object.fromEntries(
      Object.entries(channel.secrets).map(([field, sealed]) => [
        field,
        this.deps.secrets.open(sealed, channelSecretContext(channel.id, field)),
      ]),
    );
    return { type: channel.type, config: channel.config, secrets };
  }
}
