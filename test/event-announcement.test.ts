import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Db } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { carriedEvent, NotificationQueue } from '../libs/alerts/index.js';
import { type EventDocument, EventOutbox } from '../libs/events/index.js';
import { queueName } from '../libs/redis/index.js';
import { useStores } from './support/stores.js';

const downEvent = (): EventDocument => ({
  id: randomUUID(),
  organizationId: 1,
  websiteId: 7,
  type: 'website.down',
  createdAt: new Date('2026-11-30T21:00:00.123Z'),
  data: {
    website: { id: 7, publicId: 'w7', name: 'Shop', url: 'https://shop.example.com/', customerId: 3 },
    previousStatus: 'up',
    status: 'down',
    incident: randomUUID(),
    result: {
      region: 'eu-west',
      startedAt: new Date('2026-11-30T20:59:58.5Z'),
      httpStatus: 503,
      error: null,
      checks: [{ name: 'status', outcome: 'fail', message: 'HTTP 503', value: 503 }],
    },
  },
  deliveredAt: null,
});

// A new event travels with its announcement, so the notifier's dispatch does not read it back
// (a MongoDB request per event at 10,000 events a minute); a replay's or the sweep's announcement
// carries only the id, and the stored copy (with its dispatch mark) decides.
describe('an event carried by its announcement', () => {
  const stores = useStores();
  let db: Db;
  const prefix = `carry-${randomUUID().slice(0, 8)}`;

  beforeAll(() => {
    db = stores.client.db();
  });

  it('the outbox announces an event it wrote with the event, and one already stored by id only', async () => {
    const announced: Array<{ eventId: string; event?: EventDocument }> = [];
    const outbox = new EventOutbox(db, {
      announce: async (eventId, event) => {
        announced.push(event ? { eventId, event } : { eventId });
      },
    });
    const event = downEvent();
    await outbox.append([event]);
    await outbox.append([event]);
    expect(announced).toEqual([{ eventId: event.id, event }, { eventId: event.id }]);
  });

  it('the queued job gives the notifier the event as written, dates and all', async () => {
    const queue = new NotificationQueue(stores.redis, prefix);
    const event = downEvent();
    await queue.announce(event.id, event);
    await queue.announce(event.id);
    const jobs = new Queue(queueName(stores.redis, 'notify-events'), { connection: stores.redis, prefix });
    try {
      const job = await jobs.getJob(`event-${event.id}`);
      expect(job).toBeDefined();
      const carried = carriedEvent(job?.data);
      expect(carried).toEqual(event);
      expect(carried?.data.result?.startedAt).toBeInstanceOf(Date);
    } finally {
      await jobs.close();
      await queue.close();
    }
  });

  it('counts the events waiting for a notifier (the backlog a sweep waits out)', async () => {
    const queue = new NotificationQueue(stores.redis, `${prefix}-backlog`);
    try {
      expect(await queue.waitingEvents()).toBe(0);
      for (const event of [downEvent(), downEvent()]) await queue.announce(event.id, event);
      expect(await queue.waitingEvents()).toBe(2);
    } finally {
      await queue.close();
    }
  });

  it('a job carrying nothing, another event, or one breaking the contract gives none (the stored copy is read)', () => {
    const event = downEvent();
    const encoded = (value: unknown) => JSON.stringify(value);
    expect(carriedEvent({ eventId: event.id })).toBeNull();
    expect(carriedEvent({ eventId: randomUUID(), event: encoded(event) })).toBeNull();
    expect(carriedEvent({ eventId: event.id, event: '{not json' })).toBeNull();
    // Plain JSON loses the dates: the contract refuses strings where it wants dates.
    expect(carriedEvent({ eventId: event.id, event: encoded(event) })).toBeNull();
    expect(
      carriedEvent({ eventId: event.id, event: encoded({ ...event, type: 'website.exploded' }) }),
    ).toBeNull();
  });
});
