import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireSecretsKey } from '../libs/config/index.js';
import { ensureIndexes } from '../libs/db/index.js';
import { EVENT_KINDS } from '../libs/events/index.js';
import { channelIndexes } from '../libs/notifications/index.js';
import { SecretBox } from '../libs/secrets/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

type Channel = {
  id: number;
  type: string;
  name: string;
  enabled: boolean;
  events: string[];
  scope: { customerId?: number; listedOnly: boolean };
  config: Record<string, unknown>;
  secret?: string;
};
type Problem = { detail: string; errors?: Array<{ path: string; message: string }> };
type Website = { id: number; publicId: string; notificationChannelIds: number[] };

const SLACK_URL = 'https://hooks.slack.com/services/T000/B000/XXXXSECRETXXXX';
const ROUTING_KEY = 'R0ut1ngKeyR0ut1ngKeyR0ut1ngKey12';

describe('notification channels', () => {
  let api: TestApi;
  let token: string;
  let customerId: number;
  let otherCustomerId: number;

  const createChannel = (body: Record<string, unknown>, as = token) =>
    api.request<Channel & Problem>('POST', '/api/notification-channels', { token: as, body });
  const patchChannel = (id: number, body: Record<string, unknown>) =>
    api.request<Channel & Problem>('PATCH', `/api/notification-channels/${id}`, { token, body });
  const getChannel = (id: number, as = token) =>
    api.request<Channel & Problem>('GET', `/api/notification-channels/${id}`, { token: as });
  const createWebsite = (body: Record<string, unknown>) =>
    api.request<Website & Problem>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Shop', url: 'https://shop.example.com/', ...body },
    });
  const patchWebsite = (publicId: string, body: Record<string, unknown>) =>
    api.request<Website & Problem>('PATCH', `/api/websites/${publicId}`, { token, body });

  beforeAll(async () => {
    api = await TestApi.start();
    ({ token } = await api.createOrganization(['admin']));
    const pkg = await createPackage(api, token);
    customerId = await createCustomer(api, token, pkg.id, 'Acme');
    otherCustomerId = await createCustomer(api, token, pkg.id, 'Globex');
  });
  afterAll(() => api.stop());

  it('a webhook channel: defaults, Location, its signing secret shown once, then never', async () => {
    const created = await createChannel({
      type: 'webhook',
      name: 'Ops webhook',
      config: { url: 'https://hooks.example.com/webmon' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/notification-channels/${created.body.id}`);
    expect(created.body).toMatchObject({
      type: 'webhook',
      name: 'Ops webhook',
      enabled: true,
      scope: { listedOnly: false },
      config: { url: 'https://hooks.example.com/webmon' },
    });
    expect(created.body.events).toEqual([
      'website.down',
      'website.up',
      'website.degraded',
      'website.unmonitored',
      'website.monitored',
      'ssl.expiring',
      'ssl.invalid',
      'domain.expiring',
      'maintenance.started',
      'maintenance.ended',
      'incident.acknowledged',
      'heartbeat.down',
      'heartbeat.up',
      'dns.down',
      'dns.up',
      'dns.changed',
      'port.down',
      'port.up',
      ...[
        'icmp',
        'udp',
        'grpc',
        'websocket',
        'smtp',
        'imap',
        'pop3',
        'api-flow',
        'browser',
        'crawl',
        'lighthouse',
      ].flatMap((kind) => [`${kind}.down`, `${kind}.up`]),
      'site.links_broken',
      'site.mixed_content',
      'site.lighthouse_degraded',
      'test',
    ]);
    // Standard Webhooks: whsec_ and base64 of (here 32) random bytes.
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const secret = created.body.secret as string;

    const read = await getChannel(created.body.id);
    expect(read.body).not.toHaveProperty('secret');
    expect(JSON.stringify(read.body)).not.toContain(secret.slice(6));
    const stored = await api.db.collection('notification_channels').findOne({ id: created.body.id });
    expect(JSON.stringify(stored)).not.toContain(secret.slice(6));

    const rotated = await api.request<{ secret: string }>(
      'POST',
      `/api/notification-channels/${created.body.id}/rotate-secret`,
      { token },
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);
    // The stored secret is the new one, sealed for this channel.
    const box = new SecretBox(requireSecretsKey(api.config));
    const resealed = await api.db.collection('notification_channels').findOne({ id: created.body.id });
    expect(box.open(resealed?.secrets.secret, `notification-channels/${created.body.id}/secret`)).toBe(
      rotated.body.secret,
    );
  });

  it('write-only connector fields: sealed at rest, shown as <field>Set, kept when omitted', async () => {
    const created = await createChannel({
      type: 'slack',
      name: 'Acme Slack',
      events: ['website.down', 'website.up'],
      scope: { customerId },
      config: { webhookUrl: SLACK_URL },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      events: ['website.down', 'website.up'],
      scope: { customerId, listedOnly: false },
      config: { webhookUrlSet: true },
    });
    expect(created.body).not.toHaveProperty('secret');
    expect(JSON.stringify(created.body)).not.toContain('XXXXSECRETXXXX');
    const stored = await api.db.collection('notification_channels').findOne({ id: created.body.id });
    expect(JSON.stringify(stored)).not.toContain('XXXXSECRETXXXX');

    const renamed = await patchChannel(created.body.id, { name: 'Acme alerts', enabled: false });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'Acme alerts',
      enabled: false,
      config: { webhookUrlSet: true },
    });
    const box = new SecretBox(requireSecretsKey(api.config));
    const after = await api.db.collection('notification_channels').findOne({ id: created.body.id });
    expect(box.open(after?.secrets.webhookUrl, `notification-channels/${created.body.id}/webhookUrl`)).toBe(
      SLACK_URL,
    );

    const listed = await api.request<Channel[]>(
      'GET',
      `/api/notification-channels?customerId=${customerId}`,
      {
        token,
      },
    );
    expect(listed.body.map((c) => c.id)).toEqual([created.body.id]);
  });

  it('each type takes its own config, with defaults', async () => {
    const pagerduty = await createChannel({
      type: 'pagerduty',
      name: 'PD',
      config: { routingKey: ROUTING_KEY },
    });
    expect(pagerduty.status).toBe(201);
    expect(pagerduty.body.config).toEqual({
      apiBaseUrl: null,
      routingKeySet: true,
    });
    const email = await createChannel({
      type: 'email',
      name: 'Mail',
      config: { host: 'smtp.example.com', from: 'alerts@example.com', to: ['ops@example.com'] },
    });
    expect(email.status).toBe(201);
    expect(email.body.config).toEqual({
      host: 'smtp.example.com',
      port: 587,
      secure: false,
      username: null,
      from: 'alerts@example.com',
      to: ['ops@example.com'],
      passwordSet: false,
    });
    const withPassword = await patchChannel(email.body.id, {
      config: { username: 'alerts', password: 'pw' },
    });
    expect(withPassword.body.config).toMatchObject({ username: 'alerts', passwordSet: true });
    const cleared = await patchChannel(email.body.id, { config: { password: null } });
    expect(cleared.body.config).toMatchObject({ username: 'alerts', passwordSet: false });

    const jira = await createChannel({
      type: 'jira',
      name: 'Jira',
      config: {
        baseUrl: 'https://agency.atlassian.net',
        email: 'bot@example.com',
        apiToken: 'atl-token',
        projectKey: 'OPS',
      },
    });
    expect(jira.body.config).toEqual({
      baseUrl: 'https://agency.atlassian.net',
      email: 'bot@example.com',
      projectKey: 'OPS',
      issueType: 'Bug',
      doneTransition: 'Done',
      apiTokenSet: true,
    });
  });

  it.each([
    [{ name: 'x', config: {} }, 'type'],
    [{ type: 'carrier-pigeon', name: 'x', config: {} }, 'type'],
    [{ type: 'slack', name: 'x', config: {} }, 'config.webhookUrl'],
    [{ type: 'slack', name: 'x', config: { webhookUrl: 'ftp://x' } }, 'config.webhookUrl'],
    [{ type: 'webhook', name: 'x', config: { url: 'https://u:p@example.com/' } }, 'config.url'],
    [{ type: 'webhook', name: 'x', config: { url: 'https://a.example/', secret: 'mine' } }, 'config.secret'],
    [{ type: 'pagerduty', name: 'x', config: { routingKey: 'short' } }, 'config.routingKey'],
    [{ type: 'opsgenie', name: 'x', config: { apiKey: 'not-a-key' } }, 'config.apiKey'],
    [
      {
        type: 'email',
        name: 'x',
        config: { host: 'smtp.example.com', from: 'a@example.com', to: ['b@example.com'], password: 'p' },
      },
      'config.username',
    ],
    [{ type: 'email', name: 'x', config: { host: 'h', from: 'a@example.com', to: [] } }, 'config.to'],
    [{ type: 'slack', name: '', config: { webhookUrl: SLACK_URL } }, 'name'],
    [
      {
        type: 'slack',
        name: 'x',
        events: ['website.down', 'website.down'],
        config: { webhookUrl: SLACK_URL },
      },
      'events',
    ],
    [
      { type: 'slack', name: 'x', events: ['website.exploded'], config: { webhookUrl: SLACK_URL } },
      'events.0',
    ],
    [
      { type: 'slack', name: 'x', scope: { customerId: 999_999 }, config: { webhookUrl: SLACK_URL } },
      'scope.customerId',
    ],
    [
      {
        type: 'slack',
        name: 'x',
        scope: { customerId: 1, listedOnly: true },
        config: { webhookUrl: SLACK_URL },
      },
      'scope.listedOnly',
    ],
    [{ type: 'slack', name: 'x', colour: 'red', config: { webhookUrl: SLACK_URL } }, 'colour'],
  ])('400 for %j naming %s, storing nothing', async (body, path) => {
    const before = await api.db.collection('notification_channels').countDocuments();
    const res = await createChannel(body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.errors?.map((e) => e.path)).toContain(path);
    expect(await api.db.collection('notification_channels').countDocuments()).toBe(before);
  });

  it('PATCH validates config against the channel’s type and changes nothing on error', async () => {
    const { body: channel } = await createChannel({
      type: 'slack',
      name: 'S',
      config: { webhookUrl: SLACK_URL },
    });
    for (const [body, path] of [
      [{ config: { routingKey: ROUTING_KEY } }, 'config.routingKey'],
      [{ config: { webhookUrl: null } }, 'config.webhookUrl'],
      [{ type: 'webhook' }, 'type'],
      [{}, ''],
    ] as const) {
      const res = await patchChannel(channel.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors?.map((e) => e.path)).toContain(path);
    }
    expect((await getChannel(channel.id)).body).toEqual(channel);
    const rotate = await api.request<Problem>(
      'POST',
      `/api/notification-channels/${channel.id}/rotate-secret`,
      {
        token,
      },
    );
    expect(rotate.status).toBe(409);
  });

  it('websites list channels: validated, reset by a full update, dropped when the channel goes', async () => {
    const { body: shared } = await createChannel({
      type: 'webhook',
      name: 'Listed only',
      scope: { listedOnly: true },
      config: { url: 'https://hooks.example.com/a' },
    });
    const { body: acmeOnly } = await createChannel({
      type: 'discord',
      name: 'Acme Discord',
      scope: { customerId },
      config: { webhookUrl: 'https://discord.com/api/webhooks/1/abc' },
    });
    const created = await createWebsite({ notificationChannelIds: [shared.id, acmeOnly.id] });
    expect(created.status).toBe(201);
    expect(created.body.notificationChannelIds).toEqual([shared.id, acmeOnly.id]);

    const unknown = await patchWebsite(created.body.publicId, {
      notificationChannelIds: [shared.id, 999_999],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      { path: 'notificationChannelIds.1', message: 'No notification channel 999999 in your organization' },
    ]);
    // A channel tied to Acme cannot follow the website to another customer.
    const moved = await patchWebsite(created.body.publicId, { customerId: otherCustomerId });
    expect(moved.status).toBe(400);
    expect(moved.body.errors?.[0]?.path).toBe('notificationChannelIds.1');
    // Nor can Acme's channel be narrowed to Globex while an Acme website lists it.
    const narrowed = await patchChannel(acmeOnly.id, { scope: { customerId: otherCustomerId } });
    expect(narrowed.status).toBe(409);
    // A customer with a channel tied to it cannot be deleted (Globex has no website).
    const { body: globexChannel } = await createChannel({
      type: 'slack',
      name: 'Globex',
      scope: { customerId: otherCustomerId },
      config: { webhookUrl: SLACK_URL },
    });
    const deleteGlobex = await api.request<Problem>('DELETE', `/api/customers/${otherCustomerId}`, { token });
    expect(deleteGlobex.status).toBe(409);
    expect(deleteGlobex.body.detail).toContain('notification channel');

    const duplicate = await patchWebsite(created.body.publicId, {
      notificationChannelIds: [shared.id, shared.id],
    });
    expect(duplicate.status).toBe(400);
    const foreignCustomer = await patchWebsite(created.body.publicId, {
      notificationChannelIds: [globexChannel.id],
    });
    expect(foreignCustomer.status).toBe(400);

    // Deleting a channel takes it off the websites that list it.
    expect((await api.request('DELETE', `/api/notification-channels/${acmeOnly.id}`, { token })).status).toBe(
      204,
    );
    expect((await getChannel(acmeOnly.id)).status).toBe(404);
    const after = await api.request<Website>('GET', `/api/websites/${created.body.publicId}`, { token });
    expect(after.body.notificationChannelIds).toEqual([shared.id]);

    // A full update returns the list to its default, like every other omitted field.
    const full = await patchWebsite(created.body.publicId, {
      customerId,
      name: 'Shop',
      url: 'https://shop.example.com/',
    });
    expect(full.status).toBe(200);
    expect(full.body.notificationChannelIds).toEqual([]);
  });

  it('concurrent: a channel deleted while websites add it ends up listed nowhere', async () => {
    const { body: channel } = await createChannel({
      type: 'webhook',
      name: 'Racy',
      config: { url: 'https://hooks.example.com/r' },
    });
    const sites = await Promise.all([1, 2, 3, 4].map((n) => createWebsite({ name: `Racy ${n}` })));
    const results = await Promise.all([
      ...sites.map((site) => patchWebsite(site.body.publicId, { notificationChannelIds: [channel.id] })),
      api.request('DELETE', `/api/notification-channels/${channel.id}`, { token }),
    ]);
    expect(results.every((r) => r.status < 500)).toBe(true);
    for (const site of sites) {
      const read = await api.request<Website>('GET', `/api/websites/${site.body.publicId}`, { token });
      expect(read.body.notificationChannelIds).toEqual([]);
    }
  });

  it('tenancy and scopes: other organizations see nothing; read tokens only read', async () => {
    const { body: channel } = await createChannel({
      type: 'webhook',
      name: 'Mine',
      config: { url: 'https://hooks.example.com/m' },
    });
    const other = await api.createOrganization(['admin']);
    expect((await getChannel(channel.id, other.token)).status).toBe(404);
    const theirs = await api.request<Channel[]>('GET', '/api/notification-channels', { token: other.token });
    expect(theirs.body).toEqual([]);
    expect(
      (await api.request('DELETE', `/api/notification-channels/${channel.id}`, { token: other.token }))
        .status,
    ).toBe(404);
    const otherSite = await createWebsite({ notificationChannelIds: [] });
    expect(otherSite.status).toBe(201);
    const foreign = await api.request<Problem>('POST', '/api/websites', {
      token: other.token,
      body: { customerId, name: 'x', url: 'https://x.example.com/', notificationChannelIds: [channel.id] },
    });
    expect(foreign.status).toBe(400);

    const { organizationId } = await api.createOrganization(['admin']);
    const reader = await api.createToken(organizationId, ['read']);
    expect((await api.request('GET', '/api/notification-channels', { token: reader })).status).toBe(200);
    const write = await createChannel(
      { type: 'webhook', name: 'x', config: { url: 'https://a.example/' } },
      reader,
    );
    expect(write.status).toBe(403);
  });

  it('a channel made to take every event takes the probe kinds’ events once they exist; one with chosen events does not', async () => {
    const before = EVENT_KINDS.filter((kind) => !/^(icmp|udp|grpc|websocket|smtp|imap|pop3)\./.test(kind));
    const channels = api.db.collection('notification_channels');
    const markers = api.db.collection<{ _id: string }>('key_lookups');
    await markers.deleteOne({ _id: '~backfilled/notification_channels.events.probe-kinds' });
    const stored = (id: number, events: string[]) => ({
      id,
      organizationId: 999_999,
      type: 'webhook',
      name: `Old ${id}`,
      enabled: true,
      events,
      scope: { customerId: null, listedOnly: false },
      config: {},
      secrets: {},
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await channels.insertMany([stored(990_001, before), stored(990_002, ['website.down', 'website.up'])]);
    await ensureIndexes(api.db, [channelIndexes]);
    await ensureIndexes(api.db, [channelIndexes]);
    const all = await channels.findOne({ id: 990_001 });
    expect(new Set(all?.events)).toEqual(new Set(EVENT_KINDS));
    expect(all?.events).toContain('icmp.down');
    expect(all?.events.filter((kind: string) => kind === 'icmp.down')).toHaveLength(1);
    expect((await channels.findOne({ id: 990_002 }))?.events).toEqual(['website.down', 'website.up']);
    await channels.deleteMany({ organizationId: 999_999 });

    // API flows, browser journeys and site health came later, each in a generation of its own: a
    // channel stored before them all takes them all.
    await markers.deleteMany({
      _id: {
        $in: [
          '~backfilled/notification_channels.events.probe-kinds',
          '~backfilled/notification_channels.events.api-flow',
          '~backfilled/notification_channels.events.browser',
          '~backfilled/notification_channels.events.site-health',
        ],
      },
    });
    const oldest = EVENT_KINDS.filter(
      (kind) =>
        !/^(icmp|udp|grpc|websocket|smtp|imap|pop3|api-flow|browser|crawl|lighthouse|site)\./.test(kind),
    );
    await channels.insertMany([stored(990_003, oldest), stored(990_004, ['api-flow.down'])]);
    await ensureIndexes(api.db, [channelIndexes]);
    expect(new Set((await channels.findOne({ id: 990_003 }))?.events)).toEqual(new Set(EVENT_KINDS));
    expect((await channels.findOne({ id: 990_004 }))?.events).toEqual(['api-flow.down']);
    await channels.deleteMany({ organizationId: 999_999 });
  });
});
