import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '../errors/index.js';
import type { EventPayload } from '../events/index.js';
import type { MailBudget } from '../fair-share/index.js';
import type { ChannelDocument, ChannelRepository } from '../notifications/index.js';
import {
  type Delivery,
  type DeliveryRecord,
  type DeliveryRepository,
  keyOf,
  withLog,
} from './delivery.repository.js';
import type { NotificationQueue } from './notification.queue.js';
import type { OwedAttempt, OwedAttempts } from './owed-attempts.js';

/** What the API asks of deliveries: test sends and redeliveries, queued for the notifier. */
export class DeliveryRequests {
  constructor(
    private readonly deps: {
      channels: ChannelRepository;
      deliveries: DeliveryRepository;
      owed: OwedAttempts;
      queue: NotificationQueue;
      /** An e-mail channel's test send is mail: one per address it sends to, within the organization's budgets. */
      mailBudget: MailBudget;
    },
  ) {}

  /**
   * The channel's delivery of the event (made once). A second enqueue starts nothing while the
   * delivery owes an attempt or was paid; otherwise (see `resumeSeries`) its log decides.
   */
  async enqueue(channel: ChannelDocument, payload: EventPayload): Promise<void> {
    const { record, created } = await this.made(channel, payload);
    if (created) await this.startSeries(record, 0);
    else await this.resumeSeries(record);
  }

  private made(channel: ChannelDocument, payload: EventPayload) {
    return this.deps.deliveries.createOnce({
      organizationId: channel.organizationId,
      channelId: channel.id,
      payload,
    });
  }

  /**
   * A delivery made before, owing nothing and not marked paid: its maker crashed before owing the
   * first attempt (or a redelivery's), or the mark is gone (expired, Redis lost), or its maker is
   * owing it right now or settled it just now (one event enqueued twice at once: a grouped window
   * closed by its job and by the sweep). An attempt is owed only if nothing is owed (never
   * replacing its maker's), then the log decides: a pending delivery's series goes on, anything else
   * takes the attempt back. Without this a second enqueue could send the message again.
   */
  private async resumeSeries(record: DeliveryRecord): Promise<void> {
    const owed = this.firstOf(record, 0);
    if (!(await this.deps.owed.oweIfNothing(owed))) return;
    const now = await this.deps.deliveries.reread(record);
    if (now.status !== 'pending') return this.deps.owed.withdraw(owed);
    // A redelivery whose maker died: its series is numbered by the attempts before it.
    const resumed = now.attempts.length === 0 ? owed : this.firstOf(record, now.attempts.length);
    if (resumed !== owed) await this.deps.owed.owe(resumed);
    await this.deps.queue.deliver(resumed);
  }

  /** Owes a first attempt now (MongoDB first, so that a lost job is found by the sweep) and queues it. */
  private async startSeries(delivery: DeliveryRecord, series: number): Promise<void> {
    const owed = this.firstOf(delivery, series);
    await this.deps.owed.owe(owed);
    await this.deps.queue.deliver(owed);
  }

  /** The first attempt of a series of the delivery, due now. */
  private firstOf(delivery: DeliveryRecord, series: number): OwedAttempt {
    return {
      deliveryKey: keyOf(delivery),
      organizationId: delivery.organizationId,
      deliveryId: delivery.id,
      series,
      number: 1,
      dueAt: new Date(),
    };
  }

  /** Sends a `test` event to one channel now (enabled or not). */
  async test(organizationId: number, channelId: number): Promise<Delivery> {
    const channel = await this.deps.channels.findById(organizationId, channelId);
    if (!channel) throw notFound(`No notification channel ${channelId}`);
    const { to } = channel.config;
    if (channel.type === 'email' && Array.isArray(to))
      await this.deps.mailBudget.take(organizationId, to.map(String), 'test send');
    // A new event: its delivery is always made here.
    const { record } = await this.made(channel, {
      id: randomUUID(),
      type: 'test',
      createdAt: new Date().toISOString(),
      organizationId,
      data: { website: null, previousStatus: null, status: null, incident: null, result: null },
    });
    await this.startSeries(record, 0);
    return withLog(record, []);
  }

  /** Starts a new series of attempts for a delivery, whatever became of the last one. */
  async redeliver(organizationId: number, channelId: number, deliveryId: number): Promise<Delivery> {
    const delivery = await this.deps.deliveries.findById(organizationId, deliveryId);
    if (!delivery || delivery.channelId !== channelId)
      throw notFound(`No delivery ${deliveryId} of channel ${channelId}`);
    if (delivery.status === 'pending')
      throw conflict('The delivery is still being attempted; redeliver it once it has succeeded or failed');
    await this.deps.owed.unpaid(keyOf(delivery));
    await this.deps.deliveries.reopen(delivery);
    // The attempt count makes a job id of its own, so a finished series does not block this one.
    await this.startSeries(delivery, delivery.attempts.length);
    return { ...delivery, status: 'pending', outcome: null };
  }
}
