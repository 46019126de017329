import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type MailReceiver, startMailReceiver } from '../../test/support/mail-receiver.js';
import { type ReceivedRequest, type Receiver, startReceiver } from '../../test/support/receiver.js';
import type { EventKind, EventPayload } from '../events/index.js';
import type { ConnectorIo, OpenedChannel, Verdict } from './connector.js';
import { BlockedDestinationError, GuardedHttp } from './guarded-http.js';
import { CHANNEL_TYPES, type ChannelType, CONNECTORS } from './registry.js';
import { webhookSignature } from './signing.js';

/**
 * Every connector in the registry, against local receivers: its own declarations hold together,
 * what it sends is well formed and carries its credential, answers are classified as SPEC's retry
 * rules say, and no secret ends up in what the runner logs or stores (verdicts, error messages).
 * A new type fails to compile here until it has a fixture.
 */

const SMTP_ACCOUNT = { username: 'alerts', password: 'smtp-Pa55-word-0f-the-channel' };

interface Servers {
  http: Receiver;
  smtp: MailReceiver;
}

/** Makes the tool's side answer as a working one does (routes a multi-call tool needs). */
type Prepare = (servers: Servers) => void;

interface Fixture {
  channel(servers: Servers): OpenedChannel;
  /** Events the tool is not told about. */
  skips: readonly EventKind[];
  /** `http`: answers by HTTP status; `smtp`: a rejection is an SMTP error, thrown and retried. */
  answers: 'http' | 'smtp';
  prepare?: Prepare;
  /** The credential is where the tool looks for it. */
  carriesCredential(request: ReceivedRequest, channel: OpenedChannel): boolean;
}

const INCOMING_WEBHOOK: Fixture = {
  channel: ({ http }) => ({
    config: {},
    secrets: { webhookUrl: `${http.url}/services/T0/B0/Zr8xQ3hookToken` },
  }),
  skips: [],
  answers: 'http',
  carriesCredential: (request) => request.path === '/services/T0/B0/Zr8xQ3hookToken',
};

const FIXTURES = {
  webhook: {
    channel: ({ http }) => ({
      config: { url: `${http.url}/hooks/webmon` },
      secrets: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    }),
    skips: [],
    answers: 'http',
    carriesCredential: (request, channel) =>
      request.headers['webhook-signature'] ===
      webhookSignature(
        channel.secrets.secret ?? '',
        String(request.headers['webhook-id']),
        Number(request.headers['webhook-timestamp']),
        request.body,
      ),
  },
  slack: INCOMING_WEBHOOK,
  teams: INCOMING_WEBHOOK,
  discord: INCOMING_WEBHOOK,
  pagerduty: {
    channel: ({ http }) => ({
      config: { eventsUrl: `${http.url}/v2/enqueue` },
      secrets: { routingKey: 'R0ut1ngKeyOfTheIntegrat10nXyZ012' },
    }),
    skips: ['maintenance.started', 'maintenance.ended'],
    answers: 'http',
    carriesCredential: (request, channel) =>
      (request.json as { routing_key?: string }).routing_key === channel.secrets.routingKey,
  },
  opsgenie: {
    channel: ({ http }) => ({
      config: { apiUrl: http.url },
      secrets: { apiKey: '3f1c2a4e-9b7d-4c1a-8e2f-5d6b7a8c9d0e' },
    }),
    skips: ['maintenance.started', 'maintenance.ended'],
    answers: 'http',
    carriesCredential: (request, channel) =>
      request.headers.authorization === `GenieKey ${channel.secrets.apiKey}`,
  },
  jira: {
    channel: ({ http }) => ({
      config: {
        baseUrl: http.url,
        email: 'bot@agency.example',
        projectKey: 'OPS',
        issueType: 'Bug',
        doneTransition: 'Done',
      },
      secrets: { apiToken: 'ATATT3xFfGF0-jira-api-token-value' },
    }),
    skips: ['maintenance.started', 'maintenance.ended', 'website.degraded'],
    answers: 'http',
    prepare: ({ http }) => {
      http.route('POST', '/rest/api/3/issue', 201, { key: 'OPS-7' });
      http.route('POST', '/rest/api/3/issue/OPS-7/comment', 201, {});
      http.route('GET', '/rest/api/3/issue/OPS-7/transitions', 200, {
        transitions: [{ id: '31', name: 'Done' }],
      });
      http.route('POST', '/rest/api/3/issue/OPS-7/transitions', 204, {});
    },
    carriesCredential: (request, channel) =>
      request.headers.authorization ===
      `Basic ${Buffer.from(`bot@agency.example:${channel.secrets.apiToken}`).toString('base64')}`,
  },
  email: {
    channel: ({ smtp }) => ({
      config: {
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        username: 'alerts',
        from: 'alerts@agency.example',
        to: ['ops@client.example'],
      },
      secrets: { password: SMTP_ACCOUNT.password },
    }),
    skips: [],
    answers: 'smtp',
    carriesCredential: () => true,
  },
} as const satisfies Record<ChannelType, Fixture>;

const website = { id: 7, publicId: 'w7', name: 'Shop', url: 'https://shop.example.com/', customerId: 3 };
const event = (type: EventKind, over: Partial<EventPayload['data']> = {}): EventPayload => ({
  id: `evt-${type}`,
  type,
  createdAt: '2026-11-23T10:00:00.000Z',
  organizationId: 1,
  data: {
    website: type === 'test' ? null : website,
    previousStatus: 'up',
    status: type === 'website.up' ? 'up' : 'down',
    incident: type.startsWith('website.') ? 'inc-42' : null,
    result: null,
    ...over,
  },
});
const EVENTS: EventKind[] = ['test', 'website.down', 'website.degraded', 'website.up', 'maintenance.started'];

/** A browser journey down at a step, its screenshot kept: what every tool must show of it. */
const FAILING_STEP = 'Step 9 (Add to basket): not done within 2 s';
const SCREENSHOT_URL =
  'https://monitor.agency.example/api/websites/w7/results/0123456789abcdef01234567/screenshot';
const journeyDown = (): EventPayload => ({
  ...event('browser.down', {
    incident: 'inc-77',
    incidentUrl: 'https://monitor.agency.example/incidents/inc-77',
    screenshotUrl: SCREENSHOT_URL,
    monitor: { kind: 'browser', monitorId: 12, name: 'Buy a teapot' },
    result: {
      region: 'eu-west',
      startedAt: '2026-11-23T09:59:30.000Z',
      httpStatus: null,
      error: { code: 'JOURNEY_STEP_FAILED', message: FAILING_STEP },
      checks: [],
    },
  }),
  id: 'evt-journey',
});

/** A crawl's new broken link: what every tool must show of it (the link, its answer, where it is). */
const BROKEN_URL = 'https://shop.example/offers/old-sale';
const linksBroken = (): EventPayload => ({
  ...event('site.links_broken', {
    incident: null,
    previousStatus: 'up',
    status: 'up',
    monitor: { kind: 'crawl', monitorId: 31, name: 'Site crawl shop.example' },
    siteHealth: {
      runId: '0123456789abcdef01234567',
      brokenLinks: [
        {
          url: BROKEN_URL,
          status: 404,
          detail: null,
          pages: [{ page: 'https://shop.example/', element: 'a', text: 'Old sale' }],
          pageCount: 3,
        },
      ],
      brokenLinkCount: 1,
      mixedContent: [],
      mixedContentCount: 0,
      fixedCount: 2,
      lighthouse: [],
    },
  }),
  id: 'evt-links',
});

/** A received mail's text: quoted-printable soft breaks and escapes undone. */
const mailText = (raw: string) =>
  Buffer.from(
    raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

const allowLoopback = { allowPrivateTargets: true, exemptAddresses: [] };

describe.each(CHANNEL_TYPES)('connector %s', (type) => {
  const connector = CONNECTORS[type];
  const fixture: Fixture = FIXTURES[type];
  let servers: Servers;
  let http: GuardedHttp;
  /** Every verdict and error message of the test (what the runner logs and stores), and the secrets it had. */
  let said: string[];
  let secrets: Set<string>;

  const io = (over: Partial<ConnectorIo> = {}): ConnectorIo => ({
    send: (call, maxBytes) => http.send(call, maxBytes),
    guard: allowLoopback,
    timeoutMs: 2000,
    externalRefOf: async () => 'OPS-7',
    at: new Date(),
    ...over,
  });
  const deliver = (kind: EventKind, over: Partial<ConnectorIo> = {}) => deliverTo(servers, kind, over);

  beforeEach(async () => {
    servers = { http: await startReceiver(), smtp: await startMailReceiver(SMTP_ACCOUNT) };
    fixture.prepare?.(servers);
    http = new GuardedHttp(allowLoopback, 2000, 'webmon-notifier/conformance');
    said = [];
    secrets = new Set();
  });
  afterEach(async () => {
    for (const line of said) for (const secret of secrets) expect(line).not.toContain(secret);
    await http.close();
    await servers.http.close();
    await servers.smtp.close();
  });

  it('declares only fields of its own config, and its fixture is a valid config', () => {
    const fields = Object.keys(connector.shape);
    expect(fields).toEqual(expect.arrayContaining([...connector.secrets]));
    expect(fields).toEqual(expect.arrayContaining(Object.keys(connector.defaults)));
    expect(fields).toEqual(expect.arrayContaining([...(connector.hostFields ?? [])]));
    const { config, secrets } = fixture.channel(servers);
    const stored = { ...connector.defaults, ...config, ...(connector.signs ? {} : secrets) };
    expect(z.strictObject(connector.shape).safeParse(stored).error).toBeUndefined();
    expect(connector.problems?.(stored) ?? []).toEqual([]);
  });

  it('tells the tool what it should hear, well formed and with its credential; skips the rest', async () => {
    for (const kind of EVENTS) {
      const verdict = await deliver(kind);
      if (fixture.skips.includes(kind)) {
        expect(verdict, kind).toMatchObject({ verdict: 'skipped', reason: expect.any(String) });
        continue;
      }
      expect(verdict, kind).toMatchObject({ verdict: 'done' });
      if (type === 'jira' && kind !== 'website.up') expect(verdict).toMatchObject({ externalRef: 'OPS-7' });
    }
    const told = EVENTS.filter((kind) => !fixture.skips.includes(kind)).length;
    if (fixture.answers === 'smtp') {
      expect(servers.smtp.mails).toHaveLength(told);
      for (const mail of servers.smtp.mails) expect(mail.raw).toMatch(/^Subject: \[webmon\] /m);
      return;
    }
    const { requests } = servers.http;
    expect(requests.length).toBeGreaterThanOrEqual(told);
    const channel = fixture.channel(servers);
    for (const request of requests) {
      expect(request.headers['user-agent']).toBe('webmon-notifier/conformance');
      expect(fixture.carriesCredential(request, channel), `${request.method} ${request.path}`).toBe(true);
      if (request.method === 'GET') continue;
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.json, request.body).toBeTypeOf('object');
    }
  });

  it('a failing browser journey: names the journey and its failing step, and links its screenshot', async () => {
    const journey = journeyDown();
    const verdict = await connector.deliver(fixture.channel(servers), journey, io());
    expect(verdict).toMatchObject({ verdict: 'done' });
    const told =
      fixture.answers === 'smtp'
        ? servers.smtp.mails.map((mail) => mailText(mail.raw)).join('\n')
        : servers.http.requests.map((request) => request.body).join('\n');
    expect(told).toContain('Buy a teapot');
    expect(told).toContain(FAILING_STEP);
    expect(told).toContain(SCREENSHOT_URL);
  });

  it('new broken links found by a crawl: names the crawl, the link, its answer and the page it is on', async () => {
    const verdict = await connector.deliver(fixture.channel(servers), linksBroken(), io());
    expect(verdict).toMatchObject({ verdict: 'done' });
    const told =
      fixture.answers === 'smtp'
        ? servers.smtp.mails.map((mail) => mailText(mail.raw)).join('\n')
        : servers.http.requests.map((request) => request.body).join('\n');
    expect(told).toContain('Site crawl shop.example');
    expect(told).toContain(BROKEN_URL);
    // In words for people; a webhook's receiver reads the event's own fields.
    expect(told).toContain(type === 'webhook' ? '"status":404' : 'HTTP 404');
    if (type === 'pagerduty') expect(servers.http.requests[0]?.path).toBe('/v2/change/enqueue');
    expect(told).toContain('https://shop.example/');
  });

  it('classifies answers: a refusal now is retried, 410 Gone disables, a lost connection is retried', async () => {
    if (fixture.answers === 'smtp') {
      servers.smtp.reject = { code: 451, message: 'Try again later' };
      await expect(deliver('website.down')).rejects.toThrow(/451|Try again later/);
      return;
    }
    for (const [status, verdict] of [
      [503, 'retry'],
      [429, 'retry'],
      [500, 'retry'],
      [410, 'gone'],
    ] as const) {
      // A receiver without routes: a multi-call tool is refused at its first call.
      const refusing = await startReceiver();
      refusing.defaultStatus = status;
      const refused = await deliverTo({ ...servers, http: refusing }, 'website.down').finally(() =>
        refusing.close(),
      );
      expect(refused, String(status)).toMatchObject({ verdict, httpStatus: status });
      if (refused.verdict === 'retry' || refused.verdict === 'gone')
        expect(refused.problem).toContain(String(status));
    }
  });

  it('throws when the tool cannot be reached, and refuses a destination the SSRF guard forbids', async () => {
    const gone = { http: await startReceiver(), smtp: await startMailReceiver(SMTP_ACCOUNT) };
    await gone.http.close();
    await gone.smtp.close();
    await expect(deliverTo(gone, 'website.down')).rejects.not.toBeInstanceOf(BlockedDestinationError);
    const guard = { allowPrivateTargets: false, exemptAddresses: [] };
    const guarded = new GuardedHttp(guard, 2000, 'x');
    await expect(
      deliver('website.down', { guard, send: (call, maxBytes) => guarded.send(call, maxBytes) }).finally(() =>
        guarded.close(),
      ),
    ).rejects.toBeInstanceOf(BlockedDestinationError);
    expect(servers.http.requests).toEqual([]);
    expect(servers.smtp.mails).toEqual([]);
  });

  /** Delivers the event to `to`'s receivers, noting what the runner would log of it. */
  async function deliverTo(to: Servers, kind: EventKind, over: Partial<ConnectorIo> = {}): Promise<Verdict> {
    const channel = fixture.channel(to);
    for (const secret of Object.values(channel.secrets)) secrets.add(secret);
    try {
      const verdict = await connector.deliver(channel, event(kind), io(over));
      said.push(JSON.stringify(verdict));
      return verdict;
    } catch (error) {
      said.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      throw error;
    }
  }
});
