import {
  BlockedDestinationError,
  connectorOf,
  EXCERPT_BYTES,
  type GuardedHttp,
  type Verdict,
} from '../connectors/index.js';
import { errorMessage } from '../errors/index.js';
import {
  dependentsToldTo,
  type EventDocument,
  type EventOutbox,
  type EventPayload,
  toPayload,
} from '../events/index.js';
import type { Logger } from '../logging/index.js';
import {
  type ChannelDocument,
  type ChannelRepository,
  channelMessage,
  type EventKind,
  openChannel,
} from '../notifications/index.js';
import type { SecretBox } from '../secrets/index.js';
import type { WebsiteCache } from '../websites/index.js';
import { channelsForEvent } from './channel-matching.js';
import {
  type DeliveryAttempt,
  type DeliveryRecord,
  type DeliveryRepository,
  type DeliveryStatus,
  keyOf,
} from './delivery.repository.js';
import type { DeliveryRequests } from './delivery-requests.js';
import {
  ATTEMPTS_PER_SERIES,
  type DeliveryJobData,
  type NotificationQueue,
  RETRY_DELAYS_MS,
} from './notification.queue.js';
import type { OwedAttempt, OwedAttempts } from './owed-attempts.js';

/** A channel failing every attempt has what they met written down at most this often. */
const HEALTH_NOTE_EVERY_MS = 300_000;

/** How an attempt ended, for metrics: by channel type, never by channel or organization. */
export interface AttemptOutcome {
  channelType: string;
  outcome: 'succeeded' | 'failed' | 'retrying' | 'skipped';
  durationMs: number | null;
}

/** A delivery of an incident's event that ended: the incident's timeline lists it. */
export interface SettledAlert {
  incident: string;
  deliveryKey: string;
  at: Date;
  channel: { id: number; name: string; type: string };
  eventType: string;
  status: 'succeeded' | 'failed';
  outcome: string | null;
}

type Settlement = {
  status: Exclude<DeliveryStatus, 'pending'>;
  outcome: string | null;
  externalRef?: string;
};

/** What happens to an event besides its channels' deliveries. */
export interface EventRouting {
  /** The payload to deliver (maybe with more said, a parent's dependents), or null: held, nothing sent now. */
  admit(payload: EventPayload, websiteId: number): Promise<EventPayload | null>;
  /** After its channels' deliveries are queued (an escalation starts, or stops). */
  dispatched(payload: EventPayload, websiteId: number): Promise<void>;
  /** Takes a channel's delivery into a grouping window (true: it is sent later, with others). */
  buffer?(channel: ChannelDocument, payload: EventPayload): Promise<boolean>;
}

/** The notifier's side: turns outbox events into deliveries and carries out their attempts. */
export class DeliveryRunner {
  constructor(
    private readonly deps: {
      outbox: EventOutbox;
      channels: ChannelRepository;
      /** Websites as stored now (the notifier's are kept while their revision holds). */
      websites: Pick<WebsiteCache, 'get'>;
      deliveries: DeliveryRepository;
      requests: DeliveryRequests;
      owed: OwedAttempts;
      queue: NotificationQueue;
      secrets: SecretBox;
      http: GuardedHttp;
      logger: Logger;
      /** Multiplies SPEC's retry delays (tests shrink them). */
      retryScale: number;
      /** Told of each attempt's outcome (metrics); `durationMs` null when nothing was sent. */
      onOutcome?: (outcome: AttemptOutcome) => void;
      /** Told when a delivery of an incident's event succeeds or fails for good. */
      onAlertSettled?: (alert: SettledAlert) => Promise<void>;
      /** What happens to events besides their channels: dependencies hold them, escalations page. */
      routing?: EventRouting;
    },
  ) {}

  /**
   * One delivery per channel the event goes to; safe to run again for the same event. `carried`:
   * the event as its announcement carried it (written just now), else the stored copy is read.
   */
  async dispatch(eventId: string, carried: EventDocument | null = null): Promise<void> {
    const { outbox } = this.deps;
    if (outbox.dispatchedHere(eventId)) return;
    const found = carried ? { event: carried } : await outbox.find(eventId);
    if (!found) return;
    if ('invalid' in found) {
      // Written by a producer that breaks the contract: retrying will not mend it.
      this.deps.logger.error(
        { eventId, problem: found.invalid },
        'event does not match the events contract: not sent',
      );
      return outbox.markDispatched(eventId);
    }
    const { event } = found;
    if (event.deliveredAt) return;
    const admitted = await this.admitted(toPayload(event), event.websiteId);
    if (admitted) await this.deliverEvent(admitted, event.websiteId);
    outbox.markDispatched(eventId);
  }

  private async admitted(payload: EventPayload, websiteId: number): Promise<EventPayload | null> {
    return this.deps.routing ? this.deps.routing.admit(payload, websiteId) : payload;
  }

  /**
   * Queues the event's delivery to each channel it goes to, then tells the routing (an escalation
   * starts or stops); each part safe to run again. An event held and released later comes here too.
   */
  async deliverEvent(payload: EventPayload, websiteId: number): Promise<void> {
    const { channels, websites } = this.deps;
    const all = await channels.list(payload.organizationId);
    const select = (listedChannelIds: readonly number[]) =>
      channelsForEvent(
        { type: payload.type, customerId: payload.data.website?.customerId ?? null, listedChannelIds },
        all,
      );
    // The website's own list matters only if it could add a channel its scope does not cover.
    const byScope = select([]);
    const listable = select(all.map((channel) => channel.id));
    const targets =
      listable.length === byScope.length
        ? byScope
        : select((await websites.get(payload.organizationId, websiteId))?.notificationChannelIds ?? []);
    for (const channel of targets) {
      const told = dependentsToldTo(payload, channel.scope.customerId);
      if (!(await this.deps.routing?.buffer?.(channel, told)))
        await this.deps.requests.enqueue(channel, told);
    }
    await this.deps.routing?.dispatched(dependentsToldTo(payload, null), websiteId);
    if (targets.length > 0)
      this.deps.logger.info(
        { eventId: payload.id, type: payload.type, channels: targets.length },
        'event dispatched',
      );
  }

  /**
   * Announces again events whose announcement was lost (Redis flushed, a worker died in between),
   * and queues again every owed attempt due by `attemptsDueBy` (its job lost with Redis, or a crash
   * between owing and queueing it; one still queued or running is left alone).
   */
  async sweep(options: {
    eventsOlderThanMs: number;
    attemptsDueBy: Date;
  }): Promise<{ events: number; attempts: number }> {
    const { outbox } = this.deps;
    const found = await outbox.undispatched(new Date(Date.now() - options.eventsOlderThanMs), 1000);
    // Those dispatched here whose marks are on their way are not lost.
    const ids = found.filter((id) => !outbox.dispatchedHere(id));
    for (const id of ids) await this.deps.queue.announce(id);
    const due = await this.deps.owed.dueBy(options.attemptsDueBy, 1000);
    for (const owed of due) await this.deps.queue.deliver(owed);
    return { events: ids.length, attempts: due.length };
  }

  /** Retention: dispatched events and finished deliveries older than `days`. */
  async removeExpired(days: number): Promise<{ events: number; deliveries: number }> {
    const before = new Date(Date.now() - days * 86_400_000);
    return {
      events: await this.deps.outbox.deleteDispatchedBefore(before),
      deliveries: await this.deps.deliveries.deleteBefore(before),
    };
  }

  /**
   * One attempt of a delivery, if it is the one the delivery owes (a job left from before a
   * redelivery, or queued twice, does nothing). A failed attempt owes the next one after SPEC's
   * delay, until the series' last.
   */
  async attempt(job: DeliveryJobData): Promise<void> {
    const { deliveries, channels, logger, owed } = this.deps;
    const owing = await owed.find(job.deliveryKey, job);
    if (!owing || owing.series !== job.series || owing.number !== job.number) return;
    const delivery = await deliveries.findByKey(job.organizationId, job.deliveryKey);
    // Gone with retention, or its event was deleted with its organization.
    if (!delivery) return owed.paid(job.deliveryKey);
    const channel = await channels.findById(delivery.organizationId, delivery.channelId);
    const settleWithout = async (status: 'failed' | 'skipped', outcome: string) => {
      await deliveries.settle(delivery, status, outcome);
      await owed.paid(job.deliveryKey);
      this.deps.onOutcome?.({ channelType: channel?.type ?? 'deleted', outcome: status, durationMs: null });
    };
    if (!channel) return settleWithout('failed', 'the channel was deleted');
    if (!channel.enabled && delivery.eventType !== 'test')
      return settleWithout('skipped', 'the channel is disabled');

    const last = job.number >= ATTEMPTS_PER_SERIES;
    const at = new Date();
    const log = {
      deliveryId: delivery.id,
      channelId: channel.id,
      type: channel.type,
      event: delivery.eventType,
      attempt: job.number,
    };
    const recorded = async (
      attempt: Omit<DeliveryAttempt, 'at' | 'durationMs'>,
      settlement: Settlement | null,
    ) => {
      const durationMs = Date.now() - at.getTime();
      await this.concluded(delivery, owing, { at, durationMs, ...attempt }, settlement);
      await this.noteHealth(channel, delivery.eventType, at, attempt, settlement).catch((error: unknown) =>
        logger.warn({ ...log, err: errorMessage(error) }, 'channel delivery problem not noted'),
      );
      if (settlement) await this.alertSettled(delivery, channel, at, settlement);
      const outcome = settlement ? (settlement.status as AttemptOutcome['outcome']) : 'retrying';
      this.deps.onOutcome?.({ channelType: channel.type, outcome, durationMs });
    };
    // The channel's template's text; when it fails, the default message (the channel keeps why).
    const { message, problem } = await channelMessage(channels, channel, delivery.payload, at);
    if (problem)
      logger.warn({ ...log, problem: problem.message }, 'template not rendered: default message sent');
    let outcome: Verdict;
    try {
      outcome = await connectorOf(channel.type).deliver(
        { ...openChannel(channel, this.deps.secrets), ...(message === undefined ? {} : { message }) },
        delivery.payload,
        {
          send: (call, maxBytes) => this.deps.http.send(call, maxBytes),
          guard: this.deps.http.guard,
          timeoutMs: this.deps.http.timeoutMs,
          externalRefOf: (incident) =>
            this.deps.deliveries.externalRefOf(delivery.organizationId, delivery.channelId, incident),
          at,
        },
      );
    } catch (error) {
      const message = errorMessage(error);
      // A refused destination stays refused: no point retrying it.
      const final = last || error instanceof BlockedDestinationError;
      logger.warn({ ...log, err: message, final }, 'delivery attempt failed');
      return recorded(
        { httpStatus: null, error: message, responseExcerpt: null },
        final ? { status: 'failed', outcome: message } : null,
      );
    }
    if (outcome.verdict === 'skipped') return settleWithout('skipped', outcome.reason);
    const attempt = {
      httpStatus: outcome.httpStatus,
      error: outcome.verdict === 'done' ? null : outcome.problem,
      responseExcerpt: outcome.excerpt.slice(0, EXCERPT_BYTES),
    };
    if (outcome.verdict === 'done') {
      logger.info({ ...log, status: outcome.httpStatus }, 'delivered');
      return recorded(attempt, { status: 'succeeded', outcome: null, externalRef: outcome.externalRef });
    }
    if (outcome.verdict === 'gone') {
      // The receiver says it is gone for good: stop sending it anything (this field alone: the copy
      // in hand was read before the call, and the channel may have been changed since).
      await channels.disable(channel.organizationId, channel.id, new Date());
      logger.warn(log, 'receiver answered 410 Gone: channel disabled');
      return recorded(attempt, { status: 'failed', outcome: '410 Gone: the channel was disabled' });
    }
    logger.warn({ ...log, err: outcome.problem, final: last }, 'delivery attempt failed');
    return recorded(attempt, last ? { status: 'failed', outcome: outcome.problem } : null);
  }

  /**
   * Keeps on the channel what its failed attempts met, for its list and page (noted at most every
   * 5 minutes while it keeps failing), and forgets it once a delivery gets through. The copy in
   * hand spares the writes when it shows nothing to change; the stores' filters decide the rest.
   */
  private async noteHealth(
    channel: ChannelDocument,
    eventType: EventKind,
    at: Date,
    attempt: Pick<DeliveryAttempt, 'httpStatus' | 'error'>,
    settlement: Settlement | null,
  ): Promise<void> {
    const known = channel.deliveryProblem;
    if (settlement?.status === 'succeeded') {
      if (known) await this.deps.channels.clearDeliveryProblem(channel);
      return;
    }
    if (!attempt.error && !attempt.httpStatus) return;
    if (known && at.getTime() - known.at.getTime() < HEALTH_NOTE_EVERY_MS) return;
    const said = [attempt.httpStatus ? `HTTP ${attempt.httpStatus}` : null, attempt.error].filter(Boolean);
    await this.deps.channels.noteDeliveryProblem(
      channel,
      { at, message: said.join(': '), eventType },
      HEALTH_NOTE_EVERY_MS,
    );
  }

  /** Tells the incident's timeline (a trouble there is logged: the delivery is recorded all the same). */
  private async alertSettled(
    delivery: DeliveryRecord,
    channel: ChannelDocument,
    at: Date,
    settlement: Settlement,
  ): Promise<void> {
    const incident = delivery.payload.data.incident;
    const { status } = settlement;
    if (!incident || !this.deps.onAlertSettled || status === 'skipped') return;
    await this.deps
      .onAlertSettled({
        incident,
        deliveryKey: keyOf(delivery),
        at,
        channel: { id: channel.id, name: channel.name, type: channel.type },
        eventType: delivery.eventType,
        status,
        outcome: settlement.outcome,
      })
      .catch((error: unknown) =>
        this.deps.logger.warn(
          { incident, deliveryId: delivery.id, err: errorMessage(error) },
          'the incident timeline did not get this delivery',
        ),
      );
  }

  /** Logs the attempt; a settled delivery owes nothing more, else it owes the next attempt after its delay. */
  private async concluded(
    delivery: DeliveryRecord,
    owing: OwedAttempt,
    attempt: DeliveryAttempt,
    settlement: Settlement | null,
  ): Promise<void> {
    await this.deps.deliveries.recordAttempt(delivery, attempt, settlement);
    if (settlement) return this.deps.owed.paid(owing.deliveryKey);
    const delayMs = (RETRY_DELAYS_MS[owing.number - 1] ?? 0) * this.deps.retryScale;
    const next = { ...owing, number: owing.number + 1, dueAt: new Date(attempt.at.getTime() + delayMs) };
    await this.deps.owed.owe(next);
    await this.deps.queue.deliver(next);
  }
}
