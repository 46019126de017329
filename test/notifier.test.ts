import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { NotificationQueue } from '../libs/alerts/index.js';
import { webhookSignature } from '../libs/connectors/index.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { channelsWrittenStraight, createCustomer, createPackage, TestApi } from './support/harness.js';
import { type MailReceiver, startMailReceiver } from './support/mail-receiver.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { type Receiver, startReceiver } from './support/receiver.js';

type Delivery = {
  id: number;
  eventId: string;
  status: string;
  outcome: string | null;
  eventType: string;
  attempts: Array<{ httpStatus: number | null; error: string | null }>;
};
type Channel = { id: number; secret?: string; enabled: boolean };

/** Retry delays of 5 s … 10 h shrunk to 0.25 ms … 0.5 s. */
const RETRY_SCALE = '0.00005';

describe('notifier: deliveries to webhooks and connectors', () => {
  let stack: MonitoringStack;
  let api: TestApi;
  let token: string;
  let notifier: RunningService;
  let receiver: Receiver;

  beforeAll(async () => {
    stack = await startMonitoringStack('notifier-node', {}, { DELIVERY_RETRY_SCALE: RETRY_SCALE });
    ({ api, token } = stack);
    notifier = await startNotifier(api.config, createLogger('notifier', 'silent'));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await notifier.stop();
    await receiver.close();
    await stack.stop();
  });

  const createChannel = async (body: Record<string, unknown>) => {
    const res = await api.request<Channel>('POST', '/api/notification-channels', { token, body });
    expect(res.status).toBe(201);
    return res.body;
  };
  const webhook = (path: string, extra: Record<string, unknown> = {}) =>
    createChannel({
      type: 'webhook',
      name: path,
      scope: { listedOnly: true },
      config: { url: `${receiver.url}${path}` },
      ...extra,
    });
  const test = async (channelId: number) => {
    const res = await api.request<Delivery>('POST', `/api/notification-channels/${channelId}/test`, {
      token,
    });
    expect(res.status).toBe(202);
    return res.body;
  };
  const delivery = async (channelId: number, id: number) =>
    (
      await api.request<Delivery>('GET', `/api/notification-channels/${channelId}/deliveries/${id}`, {
        token,
      })
    ).body;
  const settled = async (channelId: number, id: number) => {
    await expect
      .poll(async () => (await delivery(channelId, id)).status, { timeout: 15_000, interval: 100 })
      .not.toBe('pending');
    return delivery(channelId, id);
  };

  it('a test event reaches a webhook signed per Standard Webhooks, and the log shows the attempt', async () => {
    const channel = await webhook('/hooks/signed');
    const sent = await test(channel.id);
    expect(sent).toMatchObject({ status: 'pending', eventType: 'test', attempts: [] });
    const done = await settled(channel.id, sent.id);
    expect(done).toMatchObject({ status: 'succeeded', attempts: [{ httpStatus: 200, error: null }] });

    const [request] = receiver.to('/hooks/signed');
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['user-agent']).toMatch(/^webmon-notifier\//);
    const id = request?.headers['webhook-id'] as string;
    const timestamp = Number(request?.headers['webhook-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(30);
    expect(request?.headers['webhook-signature']).toBe(
      webhookSignature(channel.secret as string, id, timestamp, request?.body as string),
    );
    expect(request?.json).toEqual({
      id,
      type: 'test',
      createdAt: expect.any(String),
      organizationId: stack.organizationId,
      data: { website: null, previousStatus: null, status: null, incident: null, result: null },
    });

    const log = await api.request<{ items: Delivery[]; nextCursor: number | null }>(
      'GET',
      `/api/notification-channels/${channel.id}/deliveries`,
      { token },
    );
    expect(log.body.items.map((d) => d.id)).toEqual([sent.id]);
    expect(log.body.nextCursor).toBeNull();
  });

  it('after a secret rotation, deliveries are signed with the new and the old secret for a day', async () => {
    const channel = await webhook('/hooks/rotated');
    const rotated = await api.request<{ secret: string; previousSecretValidUntil: string }>(
      'POST',
      `/api/notification-channels/${channel.id}/rotate-secret`,
      { token },
    );
    expect(Date.parse(rotated.body.previousSecretValidUntil) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    await settled(channel.id, (await test(channel.id)).id);
    const [request] = receiver.to('/hooks/rotated');
    const id = request?.headers['webhook-id'] as string;
    const timestamp = Number(request?.headers['webhook-timestamp']);
    const body = request?.body as string;
    expect(request?.headers['webhook-signature']).toBe(
      [rotated.body.secret, channel.secret as string]
        .map((secret) => webhookSignature(secret, id, timestamp, body))
        .join(' '),
    );

    // Once the grace is over, only the new secret signs.
    await api.db
      .collection('notification_channels')
      .updateOne({ id: channel.id }, { $set: { previousSecretUntil: new Date(Date.now() - 1000) } });
    await channelsWrittenStraight(api, stack.organizationId);
    await settled(channel.id, (await test(channel.id)).id);
    const second = receiver.to('/hooks/rotated')[1];
    expect(second?.headers['webhook-signature']).toBe(
      webhookSignature(
        rotated.body.secret,
        second?.headers['webhook-id'] as string,
        Number(second?.headers['webhook-timestamp']),
        second?.body as string,
      ),
    );
  });

  it('retries failed attempts with the same webhook-id until the receiver takes it', async () => {
    const channel = await webhook('/hooks/flaky');
    receiver.answer(500, 503);
    const done = await settled(channel.id, (await test(channel.id)).id);
    expect(done.status).toBe('succeeded');
    expect(done.attempts.map((a) => a.httpStatus)).toEqual([500, 503, 200]);
    const ids = new Set(receiver.to('/hooks/flaky').map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
  });

  it('gives up after the last of 8 attempts, and a redelivery starts a new series', async () => {
    const channel = await webhook('/hooks/down');
    receiver.answer(...Array(8).fill(502));
    const sent = await test(channel.id);
    const failed = await settled(channel.id, sent.id);
    expect(failed).toMatchObject({ status: 'failed', outcome: 'the receiver answered HTTP 502' });
    expect(failed.attempts).toHaveLength(8);

    const again = await api.request<Delivery>(
      'POST',
      `/api/notification-channels/${channel.id}/deliveries/${sent.id}/redeliver`,
      { token },
    );
    expect(again.status).toBe(202);
    const redelivered = await settled(channel.id, sent.id);
    expect(redelivered.status).toBe('succeeded');
    expect(redelivered.attempts.at(-1)?.httpStatus).toBe(200);
    expect(receiver.to('/hooks/down')).toHaveLength(9);
  });

  it('410 Gone disables the channel', async () => {
    const channel = await webhook('/hooks/gone');
    receiver.answer(410);
    const done = await settled(channel.id, (await test(channel.id)).id);
    expect(done).toMatchObject({ status: 'failed', outcome: '410 Gone: the channel was disabled' });
    expect(done.attempts).toHaveLength(1);
    const after = await api.request<Channel>('GET', `/api/notification-channels/${channel.id}`, { token });
    expect(after.body.enabled).toBe(false);
  });

  it('a channel changed through the API is used as changed by the next attempt, though the notifier keeps channel lists', async () => {
    const channel = await webhook('/hooks/kept-before');
    await settled(channel.id, (await test(channel.id)).id);
    expect(receiver.to('/hooks/kept-before')).toHaveLength(1);
    const patched = await api.request('PATCH', `/api/notification-channels/${channel.id}`, {
      token,
      body: { config: { url: `${receiver.url}/hooks/kept-after` } },
    });
    expect(patched.status).toBe(200);
    // No wait: the PATCH moved the organization's list's revision before it answered.
    await settled(channel.id, (await test(channel.id)).id);
    expect(receiver.to('/hooks/kept-after')).toHaveLength(1);
    expect(receiver.to('/hooks/kept-before')).toHaveLength(1);
  });

  it('410 Gone during a PATCH of the channel disables it and keeps the PATCH', async () => {
    const channel = await webhook('/hooks/gone-race');
    receiver.answer(410);
    const inFlight = receiver.hold('/hooks/gone-race');
    const sent = await test(channel.id);
    await inFlight.arrived;
    // Changed while the delivery that will be answered 410 is on its way.
    const patched = await api.request<Channel & { name: string }>(
      'PATCH',
      `/api/notification-channels/${channel.id}`,
      { token, body: { name: 'Renamed meanwhile', config: { url: `${receiver.url}/hooks/gone-race-2` } } },
    );
    expect(patched.status).toBe(200);
    inFlight.release();
    await settled(channel.id, sent.id);
    const after = await api.request<Channel & { name: string; config: { url: string } }>(
      'GET',
      `/api/notification-channels/${channel.id}`,
      { token },
    );
    expect(after.body).toMatchObject({
      enabled: false,
      name: 'Renamed meanwhile',
      config: { url: `${receiver.url}/hooks/gone-race-2` },
    });
  });

  it('a website going down and up reaches the channels that cover it, in each tool’s format', async () => {
    const site = await startReceiver();
    try {
      const routingKey = 'R0ut1ngKeyR0ut1ngKeyR0ut1ngKey12';
      await createChannel({ type: 'webhook', name: 'All', config: { url: `${receiver.url}/e2e/org` } });
      await createChannel({
        type: 'pagerduty',
        name: 'PD',
        events: ['website.down', 'website.up'],
        config: { routingKey, eventsUrl: `${receiver.url}/e2e/pd` },
      });
      const listed = await webhook('/e2e/listed');
      const otherCustomer = await createCustomer(api, token, (await createPackage(api, token)).id, 'Other');
      await createChannel({
        type: 'slack',
        name: 'Other customer',
        scope: { customerId: otherCustomer },
        config: { webhookUrl: `${receiver.url}/e2e/other` },
      });
      const created = await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
        token,
        body: {
          customerId: stack.customerId,
          name: 'Flaky shop',
          url: `${site.url}/site`,
          checkInterval: 10,
          timeoutSeconds: 5,
          notificationChannelIds: [listed.id],
        },
      });
      expect(created.status).toBe(201);
      const websiteId = created.body.id;
      await expect
        .poll(async () => (await stack.status(websiteId)).status, { timeout: 15_000, interval: 200 })
        .toBe('up');

      site.defaultStatus = 503;
      const ofType = (path: string, type: string) =>
        receiver.to(path).filter((r) => (r.json as { type?: string } | undefined)?.type === type);
      await expect
        .poll(() => ofType('/e2e/org', 'website.down').length, { timeout: 30_000, interval: 200 })
        .toBe(1);
      const downEvent = ofType('/e2e/org', 'website.down')[0]?.json as {
        data: {
          website: { id: number; name: string };
          previousStatus: string;
          status: string;
          incident: string;
          result: { httpStatus: number };
        };
      };
      expect(downEvent.data).toMatchObject({
        website: {
          id: websiteId,
          publicId: created.body.publicId,
          name: 'Flaky shop',
          customerId: stack.customerId,
        },
        previousStatus: 'up',
        status: 'down',
        incident: expect.any(String),
        result: { httpStatus: 503 },
      });
      await expect.poll(() => ofType('/e2e/listed', 'website.down').length, { timeout: 10_000 }).toBe(1);
      await expect.poll(() => receiver.to('/e2e/pd').length, { timeout: 10_000 }).toBe(1);
      expect(receiver.to('/e2e/pd')[0]?.json).toMatchObject({
        routing_key: routingKey,
        event_action: 'trigger',
        dedup_key: downEvent.data.incident,
        payload: { severity: 'critical', source: `${site.url}/site` },
      });

      site.defaultStatus = 200;
      await expect.poll(() => receiver.to('/e2e/pd').length, { timeout: 30_000, interval: 200 }).toBe(2);
      expect(receiver.to('/e2e/pd')[1]?.json).toEqual({
        routing_key: routingKey,
        event_action: 'resolve',
        dedup_key: downEvent.data.incident,
      });
      await expect.poll(() => ofType('/e2e/org', 'website.up').length, { timeout: 10_000 }).toBe(1);
      // The other customer's channel heard nothing; every event was dispatched once.
      expect(receiver.to('/e2e/other')).toEqual([]);
      expect(ofType('/e2e/org', 'website.down')).toHaveLength(1);
    } finally {
      await site.close();
    }
  }, 90_000);

  it('another organization can neither test, read nor redeliver', async () => {
    const channel = await webhook('/hooks/private');
    const other = await api.createOrganization(['admin']);
    for (const [method, path] of [
      ['POST', `/api/notification-channels/${channel.id}/test`],
      ['GET', `/api/notification-channels/${channel.id}/deliveries`],
      ['POST', `/api/notification-channels/${channel.id}/deliveries/1/redeliver`],
    ] as const) {
      expect((await api.request(method, path, { token: other.token })).status).toBe(404);
    }
  });
});

describe('notifier with the SSRF guard on, and its outbox sweep', () => {
  let api: TestApi;
  let token: string;
  let organizationId: number;
  let notifier: RunningService | undefined;
  let receiver: Receiver;

  beforeAll(async () => {
    api = await TestApi.start({ DELIVERY_RETRY_SCALE: RETRY_SCALE });
    ({ token, organizationId } = await api.createOrganization(['admin']));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await notifier?.stop();
    await receiver.close();
    await api.stop();
  });

  it('at start: an event whose announcement was lost is dispatched, and expired events and deliveries go', async () => {
    const channel = await api.request<Channel>('POST', '/api/notification-channels', {
      token,
      // A name resolving to loopback: refused by the guard when attempted (this test is about the dispatch).
      body: {
        type: 'webhook',
        name: 'Swept',
        config: { url: `${receiver.url.replace('127.0.0.1', 'localhost')}/swept` },
      },
    });
    expect(channel.status).toBe(201);
    // Written as a worker would, two minutes ago, with no queue job behind it.
    await api.db.collection('events').insertOne({
      id: 'evt-lost',
      organizationId,
      websiteId: 999,
      type: 'website.down',
      createdAt: new Date(Date.now() - 120_000),
      data: { website: null, previousStatus: 'up', status: 'down', incident: 'inc-1', result: null },
      deliveredAt: null,
    });
    // Past DELIVERY_RETENTION_DAYS (30): a dispatched event and a finished delivery go, the rest stays.
    const old = new Date(Date.now() - 40 * 86_400_000);
    await api.db.collection('events').insertOne({
      id: 'evt-old',
      organizationId,
      websiteId: 1,
      type: 'test',
      createdAt: old,
      data: {},
      deliveredAt: old,
    });
    await api.db.collection('deliveries').insertMany([
      { id: 900_001, organizationId, channelId: 1, eventId: 'old', createdAt: old },
      { id: 900_002, organizationId, channelId: 1, eventId: 'new', createdAt: new Date() },
    ]);
    await api.db.collection('delivery_log').insertMany([
      { deliveryKey: 'old:1', organizationId, channelId: 1, kind: 'attempt', at: old },
      { deliveryKey: 'new:1', organizationId, channelId: 1, kind: 'attempt', at: new Date() },
    ]);
    notifier = await startNotifier(api.config, createLogger('notifier', 'silent'));
    const kept = async () => ({
      deliveries: (
        await api.db
          .collection('deliveries')
          .find({ id: { $gte: 900_001 } })
          .toArray()
      ).map((d) => d.eventId),
      log: (
        await api.db
          .collection('delivery_log')
          .find({ deliveryKey: { $in: ['old:1', 'new:1'] } })
          .toArray()
      ).map((e) => e.deliveryKey),
    });
    await expect.poll(kept, { timeout: 10_000 }).toEqual({ deliveries: ['new'], log: ['new:1'] });
    expect(await api.db.collection('events').countDocuments({ id: 'evt-old' })).toBe(0);
    await expect
      .poll(async () => (await api.db.collection('events').findOne({ id: 'evt-lost' }))?.deliveredAt, {
        timeout: 10_000,
      })
      .toBeInstanceOf(Date);
    const deliveries = await api.db.collection('deliveries').find({ eventId: 'evt-lost' }).toArray();
    expect(deliveries.map((d) => d.channelId)).toEqual([channel.body.id]);
  });

  it('refuses a loopback address when the channel is written', async () => {
    const refused = await api.request<{ errors: Array<{ path: string; message: string }> }>(
      'POST',
      '/api/notification-channels',
      { token, body: { type: 'webhook', name: 'Internal', config: { url: `${receiver.url}/internal` } } },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { path: 'config.url', message: expect.stringContaining('loopback') },
    ]);
  });

  it('refuses a name resolving to loopback without retrying, and sends nothing', async () => {
    const channel = await api.request<Channel>('POST', '/api/notification-channels', {
      token,
      body: {
        type: 'webhook',
        name: 'Internal',
        config: { url: `${receiver.url.replace('127.0.0.1', 'localhost')}/internal` },
      },
    });
    expect(channel.status).toBe(201);
    const sent = await api.request<Delivery>('POST', `/api/notification-channels/${channel.body.id}/test`, {
      token,
    });
    const read = async () =>
      (
        await api.request<Delivery>(
          'GET',
          `/api/notification-channels/${channel.body.id}/deliveries/${sent.body.id}`,
          { token },
        )
      ).body;
    await expect.poll(async () => (await read()).status, { timeout: 10_000 }).toBe('failed');
    const failed = await read();
    expect(failed.outcome).toContain('loopback');
    expect(failed.attempts).toHaveLength(1);
    expect(failed.attempts[0]?.httpStatus).toBeNull();
    expect(receiver.requests).toEqual([]);
  });
});

describe('notifier: Jira issues and e-mail over SMTP', () => {
  let api: TestApi;
  let token: string;
  let organizationId: number;
  let notifier: RunningService;
  let jira: Receiver;
  let smtp: MailReceiver;

  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true', DELIVERY_RETRY_SCALE: RETRY_SCALE });
    ({ token, organizationId } = await api.createOrganization(['admin']));
    notifier = await startNotifier(api.config, createLogger('notifier', 'silent'));
    jira = await startReceiver();
    smtp = await startMailReceiver({ username: 'alerts', password: 's3cret' });
  });
  afterAll(async () => {
    await notifier.stop();
    await jira.close();
    await smtp.close();
    await api.stop();
  });

  /** An event as a worker writes it, announced on the notifier's queue. */
  const emit = async (type: string, incident: string) => {
    const id = `evt-${type}-${incident}`;
    await api.db.collection('events').insertOne({
      id,
      organizationId,
      websiteId: 4242,
      type,
      createdAt: new Date(),
      data: {
        website: { id: 4242, publicId: 'p', name: 'Shop', url: 'https://shop.example.com/', customerId: 1 },
        previousStatus: type === 'website.down' ? 'up' : 'down',
        status: type === 'website.down' ? 'down' : 'up',
        incident,
        result: {
          region: 'eu-west',
          startedAt: new Date(),
          httpStatus: 503,
          error: null,
          checks: [{ name: 'status', outcome: 'fail', message: 'HTTP 503', value: 503 }],
        },
      },
      deliveredAt: null,
    });
    const queue = new NotificationQueue(
      new Redis(api.config.REDIS_URL, { maxRetriesPerRequest: null }),
      api.config.REDIS_KEY_PREFIX,
    );
    await queue.announce(id);
    await queue.close();
    return id;
  };
  /** The delivery of an event, as the API shows it once settled. */
  const deliveryOf = async (eventId: string) => {
    let record: { id: number; channelId: number } | null = null;
    await expect
      .poll(
        async () => {
          record = await api.db
            .collection<{ id: number; channelId: number }>('deliveries')
            .findOne({ eventId });
          return record !== null;
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const { id, channelId } = record as unknown as { id: number; channelId: number };
    const read = async () =>
      (
        await api.request<Delivery & { externalRef: string | null }>(
          'GET',
          `/api/notification-channels/${channelId}/deliveries/${id}`,
          { token },
        )
      ).body;
    await expect.poll(async () => (await read()).status, { timeout: 15_000 }).not.toBe('pending');
    return read();
  };

  it('jira: down opens an issue; up comments on it and moves it with the configured transition', async () => {
    jira.route('POST', '/rest/api/3/issue', 201, { id: '10001', key: 'OPS-7' });
    jira.route('POST', '/rest/api/3/issue/OPS-7/comment', 201, { id: '1' });
    jira.route('GET', '/rest/api/3/issue/OPS-7/transitions', 200, {
      transitions: [
        { id: '11', name: 'In Progress' },
        { id: '31', name: 'Resolved' },
      ],
    });
    jira.route('POST', '/rest/api/3/issue/OPS-7/transitions', 204, '');
    const channel = await api.request<Channel>('POST', '/api/notification-channels', {
      token,
      body: {
        type: 'jira',
        name: 'Jira',
        config: {
          baseUrl: jira.url,
          email: 'bot@example.com',
          apiToken: 'atl-token',
          projectKey: 'OPS',
          doneTransition: 'resolved',
        },
      },
    });
    expect(channel.status).toBe(201);

    const opened = await deliveryOf(await emit('website.down', 'inc-j1'));
    expect(opened).toMatchObject({ status: 'succeeded', externalRef: 'OPS-7' });
    const create = jira.to('/rest/api/3/issue')[0];
    expect(create?.headers.authorization).toBe(
      `Basic ${Buffer.from('bot@example.com:atl-token').toString('base64')}`,
    );
    expect(create?.json).toMatchObject({
      fields: {
        project: { key: 'OPS' },
        issuetype: { name: 'Bug' },
        summary: 'Shop is down',
        description: { type: 'doc', version: 1 },
        labels: ['webmon'],
      },
    });

    const closed = await deliveryOf(await emit('website.up', 'inc-j1'));
    expect(closed?.status).toBe('succeeded');
    expect(jira.to('/rest/api/3/issue/OPS-7/comment')).toHaveLength(1);
    expect(
      jira.to('/rest/api/3/issue/OPS-7/transitions').filter((r) => r.method === 'POST')[0]?.json,
    ).toEqual({
      transition: { id: '31' },
    });

    // An up without an issue of its own is skipped, not sent.
    const orphan = await deliveryOf(await emit('website.up', 'inc-unknown'));
    expect(orphan).toMatchObject({
      status: 'skipped',
      outcome: 'no Jira issue was opened for incident inc-unknown',
    });
  });

  it('email: a test mail through the channel’s SMTP server, authenticated', async () => {
    const channel = await api.request<Channel>('POST', '/api/notification-channels', {
      token,
      body: {
        type: 'email',
        name: 'Ops mail',
        events: ['test'],
        config: {
          host: '127.0.0.1',
          port: smtp.port,
          username: 'alerts',
          password: 's3cret',
          from: 'alerts@agency.example',
          to: ['ops@agency.example', 'oncall@agency.example'],
        },
      },
    });
    expect(channel.status).toBe(201);
    const sent = await api.request<Delivery>('POST', `/api/notification-channels/${channel.body.id}/test`, {
      token,
    });
    const done = await deliveryOf(sent.body.eventId);
    expect(done?.status).toBe('succeeded');
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]).toMatchObject({
      from: 'alerts@agency.example',
      to: ['ops@agency.example', 'oncall@agency.example'],
      user: 'alerts',
    });
    expect(smtp.mails[0]?.raw).toContain(
      'Subject: [webmon] Test notification from webmon: this channel works',
    );
    // Header names are case-insensitive; nodemailer writes ID.
    expect(smtp.mails[0]?.raw).toMatch(new RegExp(`X-Webmon-Event-Id: ${sent.body.eventId}`, 'i'));

    // A wrong password is an SMTP error, retried, then given up with the server's words.
    await api.request('PATCH', `/api/notification-channels/${channel.body.id}`, {
      token,
      body: { config: { password: 'wrong' } },
    });
    const refused = await api.request<Delivery>(
      'POST',
      `/api/notification-channels/${channel.body.id}/test`,
      {
        token,
      },
    );
    const failed = await deliveryOf(refused.body.eventId);
    expect(failed?.status).toBe('failed');
    expect(failed?.outcome).toContain('Invalid username or password');
    expect(smtp.mails).toHaveLength(1);
  });
});
