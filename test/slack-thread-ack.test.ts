import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { slackSignature } from '../libs/connectors/index.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { until } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { createUser } from './support/people.js';
import { type Receiver, startReceiver } from './support/receiver.js';

/**
 * A reply in an incident's Slack thread acknowledges it, end to end: a worker finds a site down, a
 * notifier starts the incident's thread through a local stand-in for Slack's Web API, Slack's
 * Events API (signed requests made here, as Slack makes them) tells the API of a reply "ack", the
 * API reads the Slack user's e-mail (users.info) and acknowledges as the webmon person with it.
 */

const SIGNING_SECRET = 'f00dfeedc0ffee00ba5eba11deadbeef';
const BOT_TOKEN = 'xoxb-1234567890-0987654321-abcdefghijklmnop';
const BOB_EMAIL = 'bob@elsewhere.example';
type Incident = { acknowledgement: { by: { name: string }; note: string | null } | null };
type SlackPost = { channel: string; text: string; thread_ts?: string };

/** Slack's Web API as far as the channel uses it: chat.postMessage (a new ts each) and users.info. */
async function startSlack(emails: Map<string, string>) {
  const posts: SlackPost[] = [];
  let next = 1;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://slack');
      res.setHeader('content-type', 'application/json; charset=utf-8');
      if (req.headers.authorization !== `Bearer ${BOT_TOKEN}`)
        return res.end(JSON.stringify({ ok: false, error: 'invalid_auth' }));
      if (url.pathname === '/api/chat.postMessage') {
        const post = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SlackPost;
        posts.push(post);
        return res.end(JSON.stringify({ ok: true, channel: post.channel, ts: `17000000${next++}.000100` }));
      }
      const user = url.searchParams.get('user') ?? '';
      const email = emails.get(user);
      if (url.pathname === '/api/users.info' && email)
        return res.end(JSON.stringify({ ok: true, user: { id: user, name: user, profile: { email } } }));
      res.end(JSON.stringify({ ok: false, error: 'user_not_found' }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    posts,
    /** The thread's replies, in the order they came. */
    thread: (ts: string) => posts.filter((post) => post.thread_ts === ts),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a reply “ack” in an incident’s Slack thread acknowledges it', { timeout: 180_000 }, () => {
  let stack: MonitoringStack;
  let notifier: RunningService;
  let site: Receiver;
  let slack: Awaited<ReturnType<typeof startSlack>>;
  const emails = new Map<string, string>();
  /** Each Slack channel (one app): its webmon channel id, its incident and the thread's ts. */
  const quiet = { channelId: 0, incident: '', thread: '' };
  const loud = { channelId: 0, incident: '', thread: '' };
  let eventCount = 0;

  const api = () => stack.api;
  const eventsPath = (channelId: number) =>
    `/api/integrations/slack/${stack.organizationId}/${channelId}/events`;
  /** Posts `payload` as Slack does: signed with the app's secret at `at` (now by default). */
  const slackPost = (
    channelId: number,
    payload: unknown,
    options: { at?: Date; secret?: string; headers?: Record<string, string> } = {},
  ) => {
    const body = JSON.stringify(payload);
    const timestamp = String(Math.floor((options.at ?? new Date()).getTime() / 1000));
    return api().request<{ challenge?: string }>('POST', eventsPath(channelId), {
      rawBody: body,
      headers: {
        'content-type': 'application/json',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': slackSignature(options.secret ?? SIGNING_SECRET, timestamp, body),
        ...options.headers,
      },
    });
  };
  /** A person's message in a thread, as the Events API wraps it. */
  const reply = (slackChannel: string, thread: string, user: string, text: string) => ({
    token: 'legacy-verification-token',
    team_id: 'T0TEAM',
    type: 'event_callback',
    event_id: `Ev0${++eventCount}`,
    event_time: Math.floor(Date.now() / 1000),
    event: {
      type: 'message',
      channel: slackChannel,
      user,
      text,
      ts: `17100000${eventCount}.000200`,
      thread_ts: thread,
      channel_type: 'channel',
    },
  });
  const incidentOf = async (id: string) =>
    (await api().request<Incident>('GET', `/api/incidents/${id}`, { token: stack.token })).body;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));

  /** A Slack channel of the app and a website listing it, made to fail: its incident and thread. */
  const failingWebsiteOn = async (slackChannel: string, events: string[], into: typeof quiet) => {
    const channel = await api().request<{ id: number; config: Record<string, unknown> }>(
      'POST',
      '/api/notification-channels',
      {
        token: stack.token,
        body: {
          type: 'slack',
          name: `Slack ${slackChannel}`,
          events,
          scope: { listedOnly: true },
          config: {
            botToken: BOT_TOKEN,
            channel: slackChannel,
            apiBaseUrl: slack.url,
            signingSecret: SIGNING_SECRET,
          },
        },
      },
    );
    expect(channel.status, JSON.stringify(channel.body)).toBe(201);
    expect(channel.body.config.signingSecretSet).toBe(true);
    expect(JSON.stringify(channel.body)).not.toContain(SIGNING_SECRET);
    into.channelId = channel.body.id;
    const path = `/${slackChannel.toLowerCase()}`;
    const website = await api().request<{ id: number }>('POST', '/api/websites', {
      token: stack.token,
      body: {
        customerId: stack.customerId,
        name: `Shop ${slackChannel}`,
        url: `${site.url}${path}`,
        checkInterval: 10,
        notificationChannelIds: [into.channelId],
      },
    });
    expect(website.status, JSON.stringify(website.body)).toBe(201);
    site.route('GET', path, 503, 'down for maintenance');
    await until(async () => {
      into.incident = (await stack.status(website.body.id)).openIncidentId ?? '';
      return into.incident !== '';
    }, 60_000);
    // The thread is the down message's ts, as the delivery log recorded it.
    await until(async () => {
      const deliveries = await api().request<{
        items: Array<{ eventType: string; externalRef: string | null }>;
      }>('GET', `/api/notification-channels/${into.channelId}/deliveries`, { token: stack.token });
      into.thread =
        deliveries.body.items.find((d) => d.eventType === 'website.down' && d.externalRef)?.externalRef ?? '';
      return into.thread !== '';
    }, 30_000);
  };

  beforeAll(async () => {
    site = await startReceiver();
    slack = await startSlack(emails);
    stack = await startMonitoringStack('slack-ack-node', {}, { DELIVERY_RETRY_SCALE: '0.0001' });
    notifier = await startNotifier(api().config, createLogger('notifier', 'silent'));
    const ann = await createUser(api(), stack.organizationId, 'editor');
    emails.set('U0ANN', ann.email.toUpperCase());
    emails.set('U0BOB', BOB_EMAIL);
    emails.set('U0CLIENT', (await createUser(api(), stack.organizationId, 'client', stack.customerId)).email);
    // One channel leaves the acknowledgement to this endpoint, the other hears it as an event.
    await Promise.all([
      failingWebsiteOn('C0QUIET', ['website.down', 'website.up'], quiet),
      failingWebsiteOn('C0LOUD', ['website.down', 'website.up', 'incident.acknowledged'], loud),
    ]);
  });
  afterAll(async () => {
    await notifier.stop();
    await stack.stop();
    await Promise.all([site.close(), slack.close()]);
  });

  it('answers Slack’s URL check, signed; an unsigned one or a channel without a secret is refused', async () => {
    const check = {
      token: 'legacy',
      challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
      type: 'url_verification',
    };
    const answered = await slackPost(quiet.channelId, check);
    expect(answered.status).toBe(200);
    expect(answered.body).toEqual({ challenge: check.challenge });
    const unsigned = await api().request('POST', eventsPath(quiet.channelId), {
      rawBody: JSON.stringify(check),
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.status).toBe(401);
    const hook = await api().request<{ id: number }>('POST', '/api/notification-channels', {
      token: stack.token,
      body: { type: 'slack', name: 'Incoming webhook', config: { webhookUrl: `${site.url}/hook` } },
    });
    expect((await slackPost(hook.body.id, check)).status).toBe(404);
    expect((await slackPost(999_999, check)).status).toBe(404);
  });

  it('refuses a wrong signature and an old timestamp, and reads nothing but “ack”: nothing acknowledged', async () => {
    const ack = reply('C0QUIET', quiet.thread, 'U0ANN', 'ack');
    const forged = await slackPost(quiet.channelId, ack, { secret: 'another-apps-signing-secret0' });
    expect(forged.status).toBe(401);
    const replayed = await slackPost(quiet.channelId, ack, { at: new Date(Date.now() - 6 * 60_000) });
    expect(replayed.status).toBe(401);
    const chat = await slackPost(quiet.channelId, reply('C0QUIET', quiet.thread, 'U0ANN', 'looking into it'));
    expect(chat.status).toBe(200);
    await settle();
    expect((await incidentOf(quiet.incident)).acknowledgement).toBeNull();
    expect(slack.thread(quiet.thread)).toEqual([]);
  });

  it('tells a Slack user without a webmon account who they should be, once, and acknowledges nothing', async () => {
    const event = reply('C0QUIET', quiet.thread, 'U0BOB', '<@U0BOT> ack');
    expect((await slackPost(quiet.channelId, event)).status).toBe(200);
    await until(async () => slack.thread(quiet.thread).length > 0, 10_000);
    // Slack sends the event again when it missed our answer: the same id does nothing more.
    const again = await slackPost(quiet.channelId, event, { headers: { 'x-slack-retry-num': '1' } });
    expect(again.status).toBe(200);
    const client = reply('C0QUIET', quiet.thread, 'U0CLIENT', 'on it');
    expect((await slackPost(quiet.channelId, client)).status).toBe(200);
    await until(async () => slack.thread(quiet.thread).length > 1, 10_000);
    await settle();
    const [told, clientTold, ...more] = slack.thread(quiet.thread);
    expect(more).toEqual([]);
    expect(told?.channel).toBe('C0QUIET');
    expect(told?.text).toMatch(/^<@U0BOB> nothing was acknowledged: .*bob@elsewhere\.example.*invite/);
    expect(clientTold?.text).toMatch(/^<@U0CLIENT> nothing was acknowledged: .*client/);
    expect((await incidentOf(quiet.incident)).acknowledgement).toBeNull();
  });

  it('acknowledges as the person with the Slack user’s e-mail, and says so in the thread once', async () => {
    const before = slack.thread(quiet.thread).length;
    const event = reply('C0QUIET', quiet.thread, 'U0ANN', 'Ack, restarting the database');
    expect((await slackPost(quiet.channelId, event)).status).toBe(200);
    await until(async () => (await incidentOf(quiet.incident)).acknowledgement !== null, 10_000);
    const { acknowledgement } = await incidentOf(quiet.incident);
    expect(acknowledgement?.by.name).toBe('A editor');
    expect(acknowledgement?.note).toBe('Replied in Slack’s thread');
    await until(async () => slack.thread(quiet.thread).length > before, 10_000);
    expect((await slackPost(quiet.channelId, event, { headers: { 'x-slack-retry-num': '2' } })).status).toBe(
      200,
    );
    await settle();
    expect(
      slack
        .thread(quiet.thread)
        .slice(before)
        .map((post) => post.text),
    ).toEqual(['Acknowledged by A editor: escalation stopped']);
    const timeline = await api().request<{ items: Array<{ kind: string }> }>(
      'GET',
      `/api/incidents/${quiet.incident}/timeline`,
      { token: stack.token },
    );
    expect(timeline.body.items.filter((item) => item.kind === 'acknowledged')).toHaveLength(1);
  });

  it('reads every channel of the app at one URL; a channel hearing acknowledgements says it through its delivery', async () => {
    // Slack has one events URL per app: the quiet channel's, for a reply in the loud channel's thread.
    const event = reply('C0LOUD', loud.thread, 'U0ANN', '<@U0BOT|webmon> on it');
    expect((await slackPost(quiet.channelId, event)).status).toBe(200);
    await until(async () => (await incidentOf(loud.incident)).acknowledgement !== null, 10_000);
    expect((await incidentOf(loud.incident)).acknowledgement?.by.name).toBe('A editor');
    await until(async () => slack.thread(loud.thread).length > 0, 15_000);
    await settle();
    const said = slack.thread(loud.thread);
    expect(said).toHaveLength(1);
    expect(said[0]?.channel).toBe('C0LOUD');
    expect(JSON.stringify(said[0])).toContain('Acknowledged by A editor');
    expect(said[0]?.text).not.toContain('escalation stopped');
  });
});
