import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startMailReceiver } from '../../test/support/mail-receiver.js';
import { startReceiver } from '../../test/support/receiver.js';
import type { EventKind, EventPayload } from '../events/index.js';
import { FIXTURES } from './conformance-fixtures.js';
import { type Fixture, type Servers, SMTP_ACCOUNT, textsOf } from './conformance-support.js';
import type { ConnectorIo, PersonalMessage, Verdict } from './connector.js';
import { BlockedDestinationError, GuardedHttp } from './guarded-http.js';
import { CHANNEL_TYPES, CONNECTORS } from './registry.js';

/**
 * Every connector in the registry, against local receivers: its own declarations hold together,
 * what it sends is well formed and carries its credential, answers are classified as SPEC's retry
 * rules say, texts stay within the tool's limits and a channel's template is its text, reaching one
 * person works through each medium, and no secret ends up in what the runner logs or stores
 * (verdicts, error messages). A new type fails to compile here until it has a fixture.
 */

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

/** A reason of many checks with markup and emoji, past every tool's limit. */
const LONG = '<&>*_😀 '.repeat(20_000);
const longDown = () =>
  event('website.down', {
    result: {
      region: 'eu-west',
      startedAt: '2026-11-23T09:59:30.000Z',
      httpStatus: null,
      error: { code: 'ECONNRESET', message: LONG },
      checks: [],
    },
  });
/** A cut that split an escape or a surrogate pair: an entity or a backslash right before the ellipsis. */
const SPLIT = /&[#a-z0-9]{1,7}…|\\…|[\uD800-\uDBFF](?![\uDC00-\uDFFF])/;
const TEMPLATE = 'TEMPLATE says: Shop <b>is down</b> & needs you';
const PERSONAL: PersonalMessage = {
  medium: 'sms',
  title: 'Shop is down',
  text: 'Shop is down: HTTP 503 <&>',
  spoken: 'Shop is down. It answers 503 & "maintenance".',
  ackUrl: 'https://monitor.agency.example/ack/9f8e?sig=a1b2&exp=<1795341605>',
};

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
    externalRefOf: async () => fixture.opens ?? 'OPS-7',
    at: new Date(),
    ...over,
  });
  const deliver = (kind: EventKind, over: Partial<ConnectorIo> = {}) => deliverTo(servers, kind, over);
  /** All the tool was told: mails' texts, or requests' bodies and the strings in them. */
  const told = () =>
    fixture.answers === 'smtp'
      ? servers.smtp.mails.map((mail) => mailText(mail.raw)).join('\n')
      : servers.http.requests.map((request) => [request.body, ...textsOf(request)].join('\n')).join('\n');

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
    // As a create stores it: defaults (an undefined one, a former field's name, is not stored), then the config sent.
    const defaults = Object.entries(connector.defaults).filter(([, value]) => value !== undefined);
    const stored = { ...Object.fromEntries(defaults), ...config, ...(connector.signs ? {} : secrets) };
    const storable = Object.entries(connector.shape).map(([field, schema]) => [
      field,
      connector.defaults[field] === undefined && field in connector.defaults ? schema.optional() : schema,
    ]);
    expect(z.strictObject(Object.fromEntries(storable)).safeParse(stored).error).toBeUndefined();
    expect(connector.problems?.(stored) ?? []).toEqual([]);
    // The app shows write-only fields as such: their descriptions say so.
    for (const field of connector.secrets.filter((name) => name !== 'secret')) {
      const schema = connector.shape[field];
      expect(schema && JSON.stringify(z.toJSONSchema(schema, { io: 'input' })), field).toMatch(/write-only/i);
    }
  });

  it('tells the tool what it should hear, well formed and with its credential; skips the rest', async () => {
    for (const kind of EVENTS) {
      const verdict = await deliver(kind);
      if (fixture.skips.includes(kind)) {
        expect(verdict, kind).toMatchObject({ verdict: 'skipped', reason: expect.any(String) });
        continue;
      }
      expect(verdict, kind).toMatchObject({ verdict: 'done' });
      if (fixture.opens && kind !== 'website.up')
        expect(verdict).toMatchObject({ externalRef: fixture.opens });
    }
    const count = EVENTS.filter((kind) => !fixture.skips.includes(kind)).length;
    if (fixture.answers === 'smtp') {
      expect(servers.smtp.mails).toHaveLength(count);
      for (const mail of servers.smtp.mails) expect(mail.raw).toMatch(/^Subject: \[webmon\] /m);
      return;
    }
    const { requests } = servers.http;
    expect(requests.length).toBeGreaterThanOrEqual(count);
    const channel = fixture.channel(servers);
    for (const request of requests) {
      expect(request.headers['user-agent']).toBe('webmon-notifier/conformance');
      expect(fixture.carriesCredential(request, channel), `${request.method} ${request.path}`).toBe(true);
      if (request.method === 'GET') continue;
      expect(['POST', 'PUT', 'PATCH']).toContain(request.method);
      if (fixture.form) {
        expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
        expect([...new URLSearchParams(request.body).keys()].length, request.body).toBeGreaterThan(0);
      } else {
        expect(request.headers['content-type']).toBe('application/json');
        expect(request.json, request.body).toBeTypeOf('object');
      }
    }
  });

  it('a failing browser journey: names the journey and its failing step, and links its screenshot', async () => {
    const verdict = await connector.deliver(fixture.channel(servers), journeyDown(), io());
    expect(verdict).toMatchObject({ verdict: 'done' });
    expect(told()).toContain('Buy a teapot');
    expect(told()).toContain(FAILING_STEP);
    expect(told()).toContain(SCREENSHOT_URL);
  });

  it('new broken links found by a crawl: names the crawl, the link, its answer and the page it is on', async () => {
    const verdict = await connector.deliver(fixture.channel(servers), linksBroken(), io());
    expect(verdict).toMatchObject({ verdict: 'done' });
    expect(told()).toContain('Site crawl shop.example');
    expect(told()).toContain(BROKEN_URL);
    // In words for people; a webhook's receiver reads the event's own fields.
    expect(told()).toContain(type === 'webhook' ? '"status":404' : 'HTTP 404');
    if (type === 'pagerduty') expect(servers.http.requests[0]?.path).toBe('/v2/change/enqueue');
    expect(told()).toContain('https://shop.example/');
  });

  it('says what the channel’s template rendered, in place of its own text', async () => {
    const channel = { ...fixture.channel(servers), message: TEMPLATE };
    expect(await connector.deliver(channel, event('website.down'), io())).toMatchObject({ verdict: 'done' });
    expect(told()).toMatch(/TEMPLATE says: Shop (<|&lt;|\\<)b/);
  });

  it.runIf(fixture.limits)(
    'keeps a very long reason or template within the tool’s limits, cut cleanly',
    async () => {
      const channel = fixture.channel(servers);
      for (const [payload, opened] of [
        [longDown(), channel],
        [event('website.down'), { ...channel, message: LONG }],
      ] as const) {
        expect(await connector.deliver(opened, payload, io())).toMatchObject({ verdict: 'done' });
      }
      expect(told()).toContain('…');
      for (const request of servers.http.requests) {
        for (const [field, size, max] of fixture.limits?.(request) ?? [])
          expect(size, `${request.path} ${field}`).toBeLessThanOrEqual(max);
        for (const text of textsOf(request)) expect(text).not.toMatch(SPLIT);
      }
    },
  );

  it.runIf(connector.reach)(
    'reaches one person through each medium it has, with the link that acknowledges',
    async () => {
      const channel = fixture.channel(servers);
      for (const secret of Object.values(channel.secrets)) secrets.add(secret);
      expect(connector.reaches?.length).toBeGreaterThan(0);
      for (const medium of connector.reaches ?? []) {
        const message = { ...PERSONAL, medium };
        const verdict = await connector.reach?.(channel, fixture.reach?.to ?? '', message, io());
        said.push(JSON.stringify(verdict));
        expect(verdict, medium).toMatchObject({ verdict: 'done' });
        const request = servers.http.requests.at(-1);
        if (!request) throw new Error('nothing was sent');
        expect(fixture.carriesCredential(request, channel)).toBe(true);
        fixture.reach?.holds(request, medium, message);
      }
      const sent = servers.http.requests.length;
      // An address of another kind, or a medium the tool does not have: skipped, nothing sent.
      await expect(connector.reach?.(channel, 'not an address!', PERSONAL, io())).resolves.toMatchObject({
        verdict: 'skipped',
      });
      const other = (['sms', 'voice', 'push'] as const).find(
        (medium) => !connector.reaches?.includes(medium),
      );
      if (other)
        await expect(
          connector.reach?.(channel, fixture.reach?.to ?? '', { ...PERSONAL, medium: other }, io()),
        ).resolves.toMatchObject({ verdict: 'skipped' });
      expect(servers.http.requests).toHaveLength(sent);
    },
  );

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
      [400, 'retry'],
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
