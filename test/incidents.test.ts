import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { createCustomer, createPackage, type TestApi, until, withServices } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { createUser, signIn, withCookie } from './support/people.js';
import { type Receiver, startReceiver } from './support/receiver.js';

const PUBLIC_URL = 'https://monitor.example.com';
const SECRET_KEY = 'key-5f1e2d3c4b5a6978';
const THREAD = '1732456789.000100';

/** A site in maintenance (503, Retry-After, a session cookie) until `failing` is switched off. */
async function startSwitchableSite() {
  const state = { failing: true };
  const server: Server = createServer((_req, res) => {
    if (!state.failing) return res.end('fine');
    res.writeHead(503, {
      'content-type': 'text/html; charset=utf-8',
      'retry-after': '120',
      'set-cookie': 'session=s3cr3t-session; HttpOnly',
    });
    res.end('<html><h1>Down for maintenance</h1><p>Back at 14:00.</p></html>');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface TimelineItem {
  at: string;
  kind: string;
  by: { type: string; name: string };
  region: string | null;
  text: string | null;
  public?: boolean;
  alert?: { channelName: string; eventType: string; status: string };
}

describe('incidents: evidence, timeline, acknowledgement, notes', () => {
  let stack: MonitoringStack;
  let api: TestApi;
  let token: string;
  let customerId: number;
  let notifier: RunningService;
  let hooks: Receiver;
  let slackApi: Receiver;
  let site: Awaited<ReturnType<typeof startSwitchableSite>>;
  let maintained: number;
  let alsoDown: number;
  let incident: string;

  /** What the worker and the notifier logged, at debug level. */
  let logged = '';
  const logSink = new Writable({
    write(chunk, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });

  beforeAll(async () => {
    stack = await startMonitoringStack(
      'incident-node',
      {},
      { PUBLIC_URL },
      createLogger('worker', 'debug', logSink),
    );
    ({ api, token } = stack);
    const pkg = await createPackage(api, token, {
      limits: { minCheckIntervalSeconds: 10 },
      alerting: { confirmations: 2, reminderIntervalMinutes: 1 },
    });
    customerId = await createCustomer(api, token, pkg.id, 'Acme');
    hooks = await startReceiver();
    slackApi = await startReceiver();
    slackApi.route('POST', '/api/chat.postMessage', 200, { ok: true, ts: THREAD });
    site = await startSwitchableSite();
    for (const body of [
      { type: 'webhook', name: 'Hook', config: { url: `${hooks.url}/hooks` } },
      {
        type: 'slack',
        name: 'Ops Slack',
        config: {
          botToken: 'xoxb-1234567890-abcdefghij',
          channel: 'C0123456789',
          apiUrl: `${slackApi.url}/api`,
        },
      },
    ]) {
      const created = await api.request('POST', '/api/notification-channels', { token, body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    notifier = await startNotifier(api.config, createLogger('notifier', 'debug', logSink));
    const create = async (name: string, url: string, extra: Record<string, unknown> = {}) => {
      const created = await api.request<{ id: number }>('POST', '/api/websites', {
        token,
        body: { customerId, name, url, checkInterval: 10, timeoutSeconds: 5, ...extra },
      });
      expect(created.status).toBe(201);
      return created.body.id;
    };
    maintained = await create('Shop', site.url, { secretHeaders: { 'X-Api-Key': SECRET_KEY } });
    alsoDown = await create('Blog', `${stack.target.url}/status/503`);
    await until(async () => (await stack.status(maintained)).openIncidentId !== null, 30_000);
    incident = (await stack.status(maintained)).openIncidentId as string;
  }, 60_000);

  afterAll(async () => {
    await notifier?.stop();
    await site?.close();
    await hooks?.close();
    await slackApi?.close();
    await stack?.stop();
  });

  const slackMessages = () =>
    slackApi
      .to('/api/chat.postMessage')
      .map((r) => r.json as { text: string; thread_ts?: string; blocks: Array<{ text: { text: string } }> });
  const hookEvents = () =>
    hooks
      .to('/hooks')
      .map((r) => ({ raw: r.body, event: r.json as { type: string; data: Record<string, unknown> } }));
  const timeline = async (headers: { token?: string; cookie?: string } = { token }) => {
    const path = `/api/incidents/${incident}/timeline`;
    const answer = headers.cookie
      ? await withCookie<{ items: TimelineItem[] }>(api, headers.cookie, 'GET', path)
      : await api.request<{ items: TimelineItem[] }>('GET', path, { token: headers.token ?? token });
    expect(answer.status).toBe(200);
    return answer.body.items;
  };

  it('the incident carries what its first failing check saw, without the secret header or the cookie', async () => {
    const answer = await api.request<{
      website: { name: string };
      cause: string;
      acknowledgement: unknown;
      firstFailures: Array<{
        region: string;
        resultId: string;
        evidence: { statusLine: string; headers: Record<string, string>; body: { text: string } };
      }>;
    }>('GET', `/api/incidents/${incident}`, { token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ website: { name: 'Shop' }, acknowledgement: null });
    expect(answer.body.cause).toContain('503');
    const [first] = answer.body.firstFailures;
    expect(first?.evidence.statusLine).toBe('503 Service Unavailable');
    expect(first?.evidence.headers['retry-after']).toBe('120');
    expect(first?.evidence.headers['set-cookie']).toBe('[redacted]');
    expect(first?.evidence.body.text).toContain('Down for maintenance');
    expect(JSON.stringify(answer.body)).not.toMatch(/s3cr3t-session|key-5f1e2d3c4b5a6978/);
    expect(
      (await api.request('GET', '/api/incidents/00000000-0000-5000-8000-000000000000', { token })).status,
    ).toBe(404);
  });

  it('the down alert says why: the evidence to webhooks, the answer’s start and the incident’s link to Slack', async () => {
    await expect
      .poll(
        () => hookEvents().find((e) => e.event.type === 'website.down' && e.event.data.incident === incident),
        {
          timeout: 20_000,
        },
      )
      .toBeDefined();
    const down = hookEvents().find(
      (e) => e.event.type === 'website.down' && e.event.data.incident === incident,
    );
    expect(down?.event.data).toMatchObject({
      incidentUrl: `${PUBLIC_URL}/incidents/${incident}`,
      evidence: { statusLine: '503 Service Unavailable', body: { kind: 'text' } },
    });
    expect(down?.raw).toContain('Down for maintenance');
    expect(down?.raw).not.toMatch(/s3cr3t-session|key-5f1e2d3c4b5a6978/);
    // Nor in what the worker and the notifier logged (at debug level) while checking and delivering.
    expect(logged).toContain('delivered');
    expect(logged).not.toMatch(/s3cr3t-session|key-5f1e2d3c4b5a6978|xoxb-1234567890/);
    await expect
      .poll(() => slackMessages().find((m) => m.text === 'Shop is down'), { timeout: 20_000 })
      .toBeDefined();
    const message = slackMessages().find((m) => m.text === 'Shop is down');
    expect(message?.thread_ts).toBeUndefined();
    expect(message?.blocks[0]?.text.text).toContain(
      '> HTTP 503 Service Unavailable — &lt;html&gt;&lt;h1&gt;Down for maintenance',
    );
    expect(message?.blocks[0]?.text.text).toContain(
      `<${PUBLIC_URL}/incidents/${incident}|Open the incident>`,
    );
  });

  it('acknowledging: editors only, once; the channels hear it, Slack in the incident’s thread', async () => {
    const viewer = await signIn(api, (await createUser(api, stack.organizationId, 'viewer')).email);
    const path = `/api/incidents/${incident}/acknowledge`;
    expect((await withCookie(api, viewer, 'POST', path, { body: { note: 'me' } })).status).toBe(403);
    const client = await signIn(
      api,
      (await createUser(api, stack.organizationId, 'client', customerId)).email,
    );
    expect((await withCookie(api, client, 'POST', path, { body: {} })).status).toBe(403);
    expect((await api.request('POST', path, { token, body: { note: '' } })).status).toBe(400);
    const acknowledged = await api.request<{ acknowledgement: { by: { type: string }; note: string } }>(
      'POST',
      path,
      {
        token,
        body: { note: 'Looking into it with the host' },
      },
    );
    expect(acknowledged.status).toBe(200);
    expect(acknowledged.body.acknowledgement).toMatchObject({
      by: { type: 'token' },
      note: 'Looking into it with the host',
    });
    // The same caller again (a retry) gets the acknowledgement made; someone else is told who was first.
    const again = await api.request<{ acknowledgement: { note: string } }>('POST', path, { token, body: {} });
    expect(again.status).toBe(200);
    expect(again.body.acknowledgement.note).toBe('Looking into it with the host');
    const editor = await signIn(api, (await createUser(api, stack.organizationId, 'editor')).email);
    const late = await withCookie<{ detail: string }>(api, editor, 'POST', path, { body: {} });
    expect(late.status).toBe(409);
    expect(late.body.detail).toMatch(/^Already acknowledged by token/);

    await expect
      .poll(() => slackMessages().find((m) => m.text.includes('acknowledged')), { timeout: 20_000 })
      .toMatchObject({ thread_ts: THREAD });
    expect(slackMessages().find((m) => m.text.includes('acknowledged'))?.blocks[0]?.text.text).toContain(
      'Looking into it with the host',
    );
    await expect
      .poll(() => hookEvents().find((e) => e.event.type === 'incident.acknowledged')?.event.data, {
        timeout: 20_000,
      })
      .toMatchObject({ incident, acknowledgement: { note: 'Looking into it with the host' } });
  });

  it('an acknowledged incident gets no more reminders; another down website still gets its own', async () => {
    const reminders = async (websiteId: number) =>
      (
        await api.db
          .collection<{ data: { reminder?: boolean } }>('events')
          .find({ websiteId, type: 'website.down' })
          .toArray()
      ).filter((e) => e.data.reminder === true).length;
    const results = async (websiteId: number) =>
      (
        await api.request<{ items: unknown[] }>('GET', `/api/websites/${websiteId}/results?limit=100`, {
          token,
        })
      ).body.items.length;
    await expect.poll(async () => (await stack.status(alsoDown)).status, { timeout: 30_000 }).toBe('down');
    // As if both went down two minutes ago: the next check of each is past the 1-minute interval.
    await withServices(api, async (services) => {
      for (const websiteId of [maintained, alsoDown])
        await services.transitions.adjust(stack.organizationId, websiteId, 'test', (state) => ({
          ...state,
          since: new Date(Date.now() - 120_000),
          remindedAt: null,
        }));
    });
    const checked = await results(maintained);
    await expect.poll(() => reminders(alsoDown), { timeout: 30_000, interval: 250 }).toBe(1);
    await expect.poll(() => results(maintained), { timeout: 30_000, interval: 250 }).toBeGreaterThan(checked);
    expect(await reminders(maintained)).toBe(0);
  }, 90_000);

  it('notes: an internal one, and a public root cause the status page shows', async () => {
    const note = (text: string, isPublic: boolean) =>
      api.request<TimelineItem>('POST', `/api/incidents/${incident}/notes`, {
        token,
        body: { text, public: isPublic },
      });
    expect((await note('Called the host: their database failed over', false)).status).toBe(201);
    const rootCause = await note('The hosting provider’s database failed over; it is back.', true);
    expect(rootCause.status).toBe(201);
    expect(rootCause.body).toMatchObject({ kind: 'note', public: true, by: { type: 'token' } });
    const tooLong = await api.request<{ errors: Array<{ path: string }> }>(
      'POST',
      `/api/incidents/${incident}/notes`,
      {
        token,
        body: { text: 'x'.repeat(5001) },
      },
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors.map((e) => e.path)).toEqual(['text']);

    const page = await api.request('POST', '/api/status-pages', {
      token,
      body: { slug: 'acme-incidents', title: 'Acme', customerId, public: true },
    });
    expect(page.status).toBe(201);
    const data = await api.request<{ incidents: Array<{ website: string; note: string | null }> }>(
      'GET',
      '/status/acme-incidents.json',
    );
    expect(data.body.incidents.find((i) => i.website === 'Shop')?.note).toBe(
      'The hosting provider’s database failed over; it is back.',
    );
    expect(String((await api.request('GET', '/status/acme-incidents')).body)).toContain(
      'The hosting provider’s database failed over; it is back.',
    );
  });

  it('the timeline lists every step in order, with who; a client user sees neither alerts nor internal notes', async () => {
    site.state.failing = false;
    await expect
      .poll(
        async () =>
          (await api.request<{ resolvedAt: string | null }>('GET', `/api/incidents/${incident}`, { token }))
            .body.resolvedAt,
        {
          timeout: 30_000,
          interval: 250,
        },
      )
      .not.toBeNull();
    await expect
      .poll(async () => (await timeline()).some((s) => s.alert?.eventType === 'website.up'), {
        timeout: 20_000,
      })
      .toBe(true);
    const steps = await timeline();
    const first = (kind: string) => steps.findIndex((s) => s.kind === kind);
    const order = ['failure', 'confirmed', 'acknowledged', 'note', 'recovery', 'resolved'].map(first);
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(steps.map((s) => Date.parse(s.at))).toEqual(
      steps.map((s) => Date.parse(s.at)).sort((a, b) => a - b),
    );
    expect(steps[first('failure')]).toMatchObject({ region: expect.any(String), by: { type: 'system' } });
    expect(steps[first('acknowledged')]).toMatchObject({
      by: { type: 'token' },
      text: 'Looking into it with the host',
    });
    const alerts = steps
      .filter((s) => s.kind === 'alert')
      .map((s) => `${s.alert?.channelName} ${s.alert?.eventType} ${s.alert?.status}`);
    expect(alerts).toEqual(
      expect.arrayContaining([
        'Hook website.down succeeded',
        'Ops Slack website.down succeeded',
        'Ops Slack incident.acknowledged succeeded',
        'Hook website.up succeeded',
      ]),
    );
    const client = await signIn(
      api,
      (await createUser(api, stack.organizationId, 'client', customerId)).email,
    );
    const shown = await timeline({ cookie: client });
    expect(shown.some((s) => s.kind === 'alert')).toBe(false);
    expect(shown.filter((s) => s.kind === 'note').map((s) => s.public)).toEqual([true]);
    // The agency's people and words stay the agency's: who acknowledged, and what they wrote, are not shown.
    expect(shown.find((s) => s.kind === 'acknowledged')).toMatchObject({
      by: { name: 'Your agency' },
      text: null,
    });
    const seen = await withCookie<{ acknowledgement: { by: { name: string }; note: string | null } }>(
      api,
      client,
      'GET',
      `/api/incidents/${incident}`,
    );
    expect(seen.body.acknowledgement).toMatchObject({ by: { name: 'Your agency' }, note: null });
    expect(JSON.stringify(shown) + JSON.stringify(seen.body)).not.toMatch(
      /Looking into it|Called the host|token “/,
    );
    // A root cause withdrawn leaves the status pages and the client's view; the timeline says so.
    expect((await api.request('DELETE', `/api/incidents/${incident}/public-note`, { token })).status).toBe(
      204,
    );
    expect(
      (await api.request<{ publicNote: unknown }>('GET', `/api/incidents/${incident}`, { token })).body
        .publicNote,
    ).toBeNull();
    expect((await timeline({ cookie: client })).some((s) => s.kind === 'note')).toBe(false);
    expect((await timeline()).at(-1)?.text).toBe('The public root cause was withdrawn from the status pages');
    expect((await withCookie(api, client, 'GET', `/api/incidents/${incident}`)).status).toBe(200);
    const otherCustomer = await createCustomer(api, token, (await createPackage(api, token)).id);
    const stranger = await signIn(
      api,
      (await createUser(api, stack.organizationId, 'client', otherCustomer)).email,
    );
    expect((await withCookie(api, stranger, 'GET', `/api/incidents/${incident}`)).status).toBe(404);
    expect((await withCookie(api, stranger, 'GET', `/api/incidents/${incident}/timeline`)).status).toBe(404);
  }, 60_000);

  it('a channel pointed elsewhere takes its stored credential along only when it is sent again', async () => {
    const channels = await api.request<Array<{ id: number; name: string }>>(
      'GET',
      '/api/notification-channels',
      {
        token,
      },
    );
    const slack = channels.body.find((c) => c.name === 'Ops Slack');
    const path = `/api/notification-channels/${slack?.id}`;
    const moved = await api.request<{ errors: Array<{ path: string }> }>('PATCH', path, {
      token,
      body: { config: { apiUrl: `${hooks.url}/elsewhere` } },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.errors.map((e) => e.path)).toEqual(['config.botToken']);
    const renamed = await api.request('PATCH', path, { token, body: { name: 'Ops Slack (EU)' } });
    expect(renamed.status).toBe(200);
    const withToken = await api.request('PATCH', path, {
      token,
      body: { config: { apiUrl: `${slackApi.url}/api/`, botToken: 'xoxb-1234567890-abcdefghij' } },
    });
    expect(withToken.status).toBe(200);
  }, 60_000);
});
