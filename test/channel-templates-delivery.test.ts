import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { NotificationQueue } from '../libs/alerts/index.js';
import { type EventKind, EventOutbox } from '../libs/events/index.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { channelsWrittenStraight, createCustomer, createPackage, TestApi } from './support/harness.js';
import { type Receiver, startReceiver } from './support/receiver.js';

type Channel = {
  id: number;
  template: string | null;
  templateProblem: {
    message: string;
    line: number | null;
    column: number | null;
    at: string;
    eventType: string;
  } | null;
};
type Website = { id: number; publicId: string; name: string; url: string; customerId: number };
type Delivery = { status: string; attempts: Array<{ httpStatus: number | null }> };
type SlackMessage = { text: string; blocks: Array<{ text: { text: string } }> };

/** Retry delays of 5 s … 10 h shrunk to 0.25 ms … 0.5 s. */
const RETRY_SCALE = '0.00005';

describe('templates at send time: a real notifier to a local Slack-format receiver', () => {
  let api: TestApi;
  let token: string;
  let organizationId: number;
  let customerId: number;
  let notifier: RunningService;
  let receiver: Receiver;
  let redis: Redis;
  let outbox: EventOutbox;

  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true', DELIVERY_RETRY_SCALE: RETRY_SCALE });
    ({ token, organizationId } = await api.createOrganization(['admin']));
    customerId = await createCustomer(api, token, (await createPackage(api, token)).id, 'Globex');
    notifier = await startNotifier(api.config, createLogger('notifier', 'silent'));
    receiver = await startReceiver();
    redis = new Redis(api.config.REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new NotificationQueue(redis, api.config.REDIS_KEY_PREFIX);
    // Events written and announced as the worker writes them.
    outbox = new EventOutbox(api.db, { announce: (id, event) => queue.announce(id, event) });
  });
  afterAll(async () => {
    await notifier.stop();
    await receiver.close();
    redis.disconnect();
    await api.stop();
  });

  /** A Slack channel with the template, and a website whose events go to it alone. */
  const slackWithWebsite = async (path: string, template: string) => {
    const channel = await api.request<Channel>('POST', '/api/notification-channels', {
      token,
      body: {
        type: 'slack',
        name: path,
        scope: { listedOnly: true },
        // Not the website.unmonitored its creation tells (no region serves it here).
        events: ['website.down', 'website.up'],
        config: { webhookUrl: `${receiver.url}${path}` },
        template,
      },
    });
    expect(channel.status).toBe(201);
    const website = await api.request<Website>('POST', '/api/websites', {
      token,
      body: {
        customerId,
        name: 'Globex store',
        url: `https://store-${path.slice(1)}.globex.example/`,
        notificationChannelIds: [channel.body.id],
      },
    });
    expect(website.status).toBe(201);
    return { channel: channel.body, website: website.body };
  };

  const emit = async (website: Website, type: EventKind) => {
    const down = type === 'website.down';
    const incident = `inc-${website.id}`;
    await outbox.append([
      {
        id: randomUUID(),
        organizationId,
        websiteId: website.id,
        type,
        createdAt: new Date('2024-03-01T10:05:00.000Z'),
        data: {
          website: {
            id: website.id,
            publicId: website.publicId,
            name: website.name,
            url: website.url,
            customerId: website.customerId,
          },
          previousStatus: down ? 'up' : 'down',
          status: down ? 'down' : 'up',
          incident,
          incidentUrl: `https://webmon.example/incidents/${incident}`,
          result: {
            region: 'eu-central',
            startedAt: new Date('2024-03-01T10:04:40.000Z'),
            httpStatus: down ? 503 : 200,
            error: null,
            checks: [
              {
                name: 'status',
                outcome: down ? 'fail' : 'pass',
                message: `HTTP ${down ? 503 : 200}`,
                value: 1,
              },
            ],
          },
        },
        deliveredAt: null,
      },
    ]);
  };

  const messages = async (path: string, count: number) => {
    await expect.poll(() => receiver.to(path).length, { timeout: 15_000 }).toBe(count);
    return receiver.to(path).map((request) => request.json as SlackMessage);
  };
  const channelNow = async (id: number) =>
    (await api.request<Channel>('GET', `/api/notification-channels/${id}`, { token })).body;
  const deliveries = async (channelId: number) =>
    (
      await api.request<{ items: Delivery[] }>('GET', `/api/notification-channels/${channelId}/deliveries`, {
        token,
      })
    ).body.items;

  it('the message is the template’s text, rendered over the event', async () => {
    const { channel, website } = await slackWithWebsite(
      '/slack/templated',
      '🔥 {{ website.name | upcase }} {{ status }} since {{ event.createdAt | date: "%H:%M" }} UTC ({{ result.region }}): {{ summary.reason }} {{ incident.link }}',
    );
    await emit(website, 'website.down');
    const [message] = await messages('/slack/templated', 1);
    const expected =
      '🔥 GLOBEX STORE down since 10:05 UTC (eu-central): HTTP 503 https://webmon.example/incidents/inc-' +
      website.id;
    expect(message?.text).toBe(expected);
    expect(message?.blocks[0]?.text.text).toBe(expected);
    expect((await channelNow(channel.id)).templateProblem).toBeNull();
  });

  it('a template failing at send time: the default message goes, the channel shows why, and a rendering that works clears it', async () => {
    // Within bounds for a recovery; past the render limits for an outage.
    const { channel, website } = await slackWithWebsite(
      '/slack/heavy',
      '{% if status == "down" %}{% for i in (1..10000000) %}{{ i }}{% endfor %}{% endif %}Recovered: {{ website.name }}',
    );
    await emit(website, 'website.down');
    const [fallback] = await messages('/slack/heavy', 1);
    expect(fallback?.text).toBe('Globex store is down');
    expect(fallback?.blocks[0]?.text.text).toContain('HTTP 503');
    await expect
      .poll(async () => (await deliveries(channel.id))[0]?.status, { timeout: 10_000 })
      .toBe('succeeded');
    const problem = (await channelNow(channel.id)).templateProblem;
    expect(problem).toEqual({
      message: expect.stringMatching(/^line 1, column \d+: .*limit exceeded$/),
      line: 1,
      column: expect.any(Number),
      at: expect.any(String),
      eventType: 'website.down',
    });

    await emit(website, 'website.up');
    const [, recovered] = await messages('/slack/heavy', 2);
    expect(recovered?.text).toBe('Recovered: Globex store');
    await expect
      .poll(async () => (await channelNow(channel.id)).templateProblem, { timeout: 5_000 })
      .toBeNull();
  });

  it('a stored template that no longer parses: the default message, the error with its line and column; a new template clears it', async () => {
    const { channel, website } = await slackWithWebsite('/slack/stale', '{{ website.name }}');
    // As a template kept from before a stricter version would be: written straight to the database.
    await api.db
      .collection('notification_channels')
      .updateOne({ id: channel.id }, { $set: { template: 'Down:\n  {% if status %}{{ website.name }}' } });
    await channelsWrittenStraight(api, organizationId);
    await emit(website, 'website.down');
    const [fallback] = await messages('/slack/stale', 1);
    expect(fallback?.text).toBe('Globex store is down');
    await expect
      .poll(async () => (await channelNow(channel.id)).templateProblem, { timeout: 10_000 })
      .toMatchObject({
        message: 'line 2, column 3: tag {% if status %} not closed',
        line: 2,
        column: 3,
        eventType: 'website.down',
      });

    const fixed = await api.request<Channel>('PATCH', `/api/notification-channels/${channel.id}`, {
      token,
      body: { template: 'Down: {{ website.name }}' },
    });
    expect(fixed.body).toMatchObject({ template: 'Down: {{ website.name }}', templateProblem: null });
    await emit(website, 'website.down');
    const [, templated] = await messages('/slack/stale', 2);
    expect(templated?.text).toBe('Down: Globex store');
  });
});
