import { describe, expect, it } from 'vitest';
import type { EventKind, EventPayload } from '../events/index.js';
import type { Connector, ConnectorIo, OpenedChannel } from './connector.js';
import { emailMessage } from './email.js';
import { githubissues } from './githubissues.js';
import { googlechat } from './googlechat.js';
import type { HttpAnswer, HttpCall } from './guarded-http.js';
import { linear } from './linear.js';
import { matrix } from './matrix.js';
import { ntfy } from './ntfy.js';
import { pushover } from './pushover.js';
import { splunkoncall } from './splunkoncall.js';
import { teamsworkflows } from './teamsworkflows.js';
import { telegram } from './telegram.js';
import { twilio } from './twilio.js';
import { webhook } from './webhook.js';
import { zendesk } from './zendesk.js';
import { zulip } from './zulip.js';

const website = {
  id: 7,
  publicId: 'p',
  name: 'Shop <b> @room',
  url: 'https://shop.example.com/',
  customerId: 3,
};
const event = (type: EventKind, over: Partial<EventPayload['data']> = {}): EventPayload => ({
  id: `evt-${type}`,
  type,
  createdAt: '2026-11-22T10:00:00.000Z',
  organizationId: 1,
  data: {
    website,
    previousStatus: 'up',
    status: type.endsWith('.up') ? 'up' : 'down',
    incident: 'inc-9',
    incidentUrl: 'https://monitor.example/incidents/inc-9',
    result: {
      region: 'eu-west',
      startedAt: '2026-11-22T10:00:00.000Z',
      httpStatus: 503,
      error: null,
      checks: [{ name: 'status', outcome: 'fail', message: 'HTTP 503 *now*', value: 503 }],
    },
    ...over,
  },
});

/** The calls a connector makes, answered by `answer` (by call), with the incident's reference `ref`. */
function recorder(answer: (call: HttpCall) => Partial<HttpAnswer> = () => ({}), ref: string | null = null) {
  const calls: Array<HttpCall & { json: unknown; form: Record<string, string> }> = [];
  const io: ConnectorIo = {
    send: async (call) => {
      const form = Object.fromEntries(new URLSearchParams(call.body ?? ''));
      calls.push({ ...call, json: call.body?.startsWith('{') ? JSON.parse(call.body) : undefined, form });
      return { status: 200, body: '{}', durationMs: 1, ...answer(call) };
    },
    guard: { allowPrivateTargets: false, exemptAddresses: [] },
    timeoutMs: 1000,
    externalRefOf: async () => ref,
    at: new Date('2026-11-22T10:00:05Z'),
  };
  return { io, calls };
}
const opened = (config: OpenedChannel['config'], secrets: Record<string, string> = {}, message?: string) => ({
  config,
  secrets,
  ...(message ? { message } : {}),
});
const run = (connector: Connector, channel: OpenedChannel, payload: EventPayload, io: ConnectorIo) =>
  connector.deliver(channel, payload, io);

describe('connector messages', () => {
  it('telegram: HTML with the title bold and escaped; an incident’s later messages reply to its first', async () => {
    const channel = opened(
      { chatId: '-100123', messageThreadId: 5, apiBaseUrl: null },
      { botToken: '1:tok' },
    );
    const first = recorder(() => ({ body: '{"ok":true,"result":{"message_id":42}}' }));
    expect(await run(telegram, channel, event('website.down'), first.io)).toMatchObject({
      externalRef: '42',
    });
    expect(first.calls[0]?.url).toBe('https://api.telegram.org/bot1:tok/sendMessage');
    expect(first.calls[0]?.json).toMatchObject({
      chat_id: '-100123',
      message_thread_id: 5,
      parse_mode: 'HTML',
      text: '<b>Shop &lt;b&gt; @room is down</b>\nhttps://shop.example.com/\nHTTP 503 *now*\n<a href="https://monitor.example/incidents/inc-9">Incident</a>',
    });
    const later = recorder(() => ({ body: '{"ok":true,"result":{"message_id":43}}' }), '42');
    const verdict = await run(telegram, channel, event('website.up'), later.io);
    expect(verdict).toMatchObject({ verdict: 'done', externalRef: undefined });
    expect(later.calls[0]?.json).toMatchObject({
      reply_parameters: { message_id: 42, allow_sending_without_reply: true },
    });
    const refused = recorder(() => ({
      status: 400,
      body: '{"ok":false,"description":"Bad Request: chat not found"}',
    }));
    expect(await run(telegram, channel, event('website.down'), refused.io)).toMatchObject({
      verdict: 'retry',
      problem: 'Telegram answered HTTP 400: Bad Request: chat not found',
    });
  });

  it('google chat: the webhook keeps its key and token, and an incident is one thread', async () => {
    const { io, calls } = recorder();
    const channel = opened(
      {},
      { webhookUrl: 'https://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=t' },
    );
    await run(googlechat, channel, event('website.down'), io);
    expect(calls[0]?.url).toBe(
      'https://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=t&messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD',
    );
    expect(calls[0]?.json).toMatchObject({
      text: '*Shop &lt;b&gt; @room is down*\nhttps://shop.example.com/\nHTTP 503 *now*\n<https://monitor.example/incidents/inc-9|Incident>',
      thread: { threadKey: 'inc-9' },
    });
  });

  it('matrix: a plain body (no room ping) and an HTML one, under a transaction id a retry repeats', async () => {
    const { io, calls } = recorder();
    const channel = opened(
      { apiBaseUrl: 'https://hs.example/', roomId: '!r:hs.example' },
      { accessToken: 'syt_x' },
    );
    await run(matrix, channel, event('website.down'), io);
    await run(matrix, channel, event('website.down'), io);
    expect(calls[0]?.method).toBe('PUT');
    expect(calls[0]?.url).toMatch(
      /^https:\/\/hs\.example\/_matrix\/client\/v3\/rooms\/!r%3Ahs\.example\/send\/m\.room\.message\/webmon\.evt-website\.down\.[0-9a-f]{16}$/,
    );
    expect(calls[1]?.url).toBe(calls[0]?.url);
    expect(calls[0]?.headers.authorization).toBe('Bearer syt_x');
    expect(calls[0]?.json).toMatchObject({
      msgtype: 'm.text',
      body: expect.stringContaining('Shop <b> @\u2060room is down'),
      format: 'org.matrix.custom.html',
      formatted_body: expect.stringContaining('<b>Shop &lt;b&gt; @room is down</b><br>'),
    });
  });

  it('zulip: a form to the channel, in the website’s topic unless one is set', async () => {
    const { io, calls } = recorder(() => ({ body: '{"result":"success","id":1}' }));
    const channel = opened(
      { apiBaseUrl: 'https://z.example', email: 'bot@z.example', stream: 'ops', topic: null },
      { apiKey: 'a'.repeat(32) },
    );
    expect(await run(zulip, channel, event('website.down'), io)).toMatchObject({ verdict: 'done' });
    expect(calls[0]?.url).toBe('https://z.example/api/v1/messages');
    expect(calls[0]?.form).toMatchObject({ type: 'stream', to: 'ops', topic: 'Shop <b> @room' });
    expect(calls[0]?.form.content).toContain('**Shop <b> @\u2060room is down**');
  });

  it('splunk on-call: the message type by event, the incident as the entity, links as annotations', async () => {
    const { io, calls } = recorder(() => ({ body: '{"result":"success"}' }));
    const channel = opened({ routingKey: 'web', apiBaseUrl: null }, { apiKey: 'k'.repeat(36) });
    for (const type of [
      'website.down',
      'website.degraded',
      'website.up',
      'incident.acknowledged',
      'test',
    ] as const)
      await run(splunkoncall, channel, event(type), io);
    expect(calls.map((call) => (call.json as { message_type: string }).message_type)).toEqual([
      'CRITICAL',
      'WARNING',
      'RECOVERY',
      'ACKNOWLEDGEMENT',
      'INFO',
    ]);
    expect(calls[0]?.url).toBe(
      `https://alert.victorops.com/integrations/generic/20131114/alert/${'k'.repeat(36)}/web`,
    );
    expect(calls[0]?.json).toMatchObject({
      entity_id: 'inc-9',
      entity_display_name: 'Shop <b> @room is down',
      monitoring_tool: 'webmon',
      'vo_annotate.u.Incident': 'https://monitor.example/incidents/inc-9',
    });
  });

  it('ntfy: priority and tag by severity, the incident on tap, Basic auth for a user', async () => {
    const { io, calls } = recorder();
    const channel = opened({ apiBaseUrl: null, topic: 'ops', username: 'alice' }, { password: 'pw' });
    await run(ntfy, channel, event('website.down'), io);
    await run(ntfy, channel, event('website.up'), io);
    expect(calls[0]?.url).toBe('https://ntfy.sh/');
    expect(calls[0]?.headers.authorization).toBe(`Basic ${Buffer.from('alice:pw').toString('base64')}`);
    expect(calls[0]?.json).toMatchObject({
      topic: 'ops',
      priority: 5,
      tags: ['rotating_light'],
      click: 'https://monitor.example/incidents/inc-9',
    });
    expect(calls[1]?.json).toMatchObject({ priority: 3, tags: ['white_check_mark'] });
    expect(ntfy.problems?.({ username: null, password: '(set)', accessToken: null })).toEqual([
      { path: 'config.username', message: expect.any(String) },
    ]);
  });

  it('pushover: high priority for an outage, the incident as its supplementary URL', async () => {
    const { io, calls } = recorder(() => ({ body: '{"status":1}' }));
    const channel = opened(
      { userKey: 'u'.repeat(30), device: 'phone', apiBaseUrl: null },
      { apiToken: 'a'.repeat(30) },
    );
    await run(pushover, channel, event('website.down'), io);
    expect(calls[0]?.url).toBe('https://api.pushover.net/1/messages.json');
    expect(calls[0]?.form).toMatchObject({
      token: 'a'.repeat(30),
      user: 'u'.repeat(30),
      device: 'phone',
      title: 'Shop <b> @room is down',
      priority: '1',
      url: 'https://monitor.example/incidents/inc-9',
      url_title: 'Open the incident',
    });
  });

  it('twilio: a channel that calls reads the alert out (no keypress: no one to acknowledge as); texts go to each number until one fails', async () => {
    const config = {
      accountSid: `AC${'0'.repeat(32)}`,
      from: '+14155550100',
      to: ['+14155550111', '+14155550122'],
      apiBaseUrl: null,
    };
    const calling = recorder(() => ({ status: 201 }));
    await run(
      twilio,
      opened({ ...config, call: true }, { authToken: 'f'.repeat(32) }),
      event('website.down'),
      calling.io,
    );
    expect(calling.calls.map((call) => call.url)).toEqual([
      `https://api.twilio.com/2010-04-01/Accounts/AC${'0'.repeat(32)}/Calls.json`,
      `https://api.twilio.com/2010-04-01/Accounts/AC${'0'.repeat(32)}/Calls.json`,
    ]);
    expect(calling.calls[0]?.form.Twiml).toBe(
      '<Response><Say>Shop &lt;b&gt; @room is down. HTTP 503 *now*</Say></Response>',
    );
    const failing = recorder(() => ({ status: 400, body: '{"code":21211}' }));
    const verdict = await run(
      twilio,
      opened({ ...config, call: false }, { authToken: 'f'.repeat(32) }),
      event('website.down'),
      failing.io,
    );
    expect(verdict).toMatchObject({ verdict: 'retry', httpStatus: 400 });
    expect(failing.calls).toHaveLength(1);
    expect(failing.calls[0]?.form).toMatchObject({ To: '+14155550111', From: '+14155550100' });
  });

  it('zendesk: the end of an incident adds an internal note and solves its ticket', async () => {
    const { io, calls } = recorder(() => ({}), '123');
    const channel = opened(
      { apiBaseUrl: 'https://agency.zendesk.com', email: 'bot@agency.example', assigneeEmail: null },
      { apiToken: 't' },
    );
    await run(zendesk, channel, event('website.up'), io);
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      url: 'https://agency.zendesk.com/api/v2/tickets/123.json',
    });
    expect(calls[0]?.json).toMatchObject({
      ticket: { status: 'solved', comment: { public: false, body: expect.stringContaining('is up again') } },
    });
    expect(calls[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from('bot@agency.example/token:t').toString('base64')}`,
    );
  });

  it('linear: the end comments, then moves the issue to the state named, else the team’s first completed one', async () => {
    const states = (nodes: Array<{ id: string; name: string; type: string }>) => (call: HttpCall) =>
      call.body?.includes('States')
        ? { body: JSON.stringify({ data: { team: { states: { nodes } } } }) }
        : { body: '{"data":{"commentCreate":{"success":true},"issueUpdate":{"success":true}}}' };
    const channel = opened(
      { teamId: 'team-1', doneState: 'shipped', apiBaseUrl: null },
      { apiKey: 'lin_api_k' },
    );
    const byName = recorder(
      states([
        { id: 's1', name: 'Done', type: 'completed' },
        { id: 's2', name: 'Shipped', type: 'completed' },
      ]),
      'issue-1',
    );
    expect(await run(linear, channel, event('website.up'), byName.io)).toMatchObject({ verdict: 'done' });
    expect(byName.calls.map((call) => (call.json as { variables: unknown }).variables)).toEqual([
      { input: { issueId: 'issue-1', body: expect.stringContaining('is up again') } },
      { teamId: 'team-1' },
      { id: 'issue-1', input: { stateId: 's2' } },
    ]);
    expect(byName.calls[0]?.headers.authorization).toBe('lin_api_k');
    const none = recorder(states([{ id: 's0', name: 'Todo', type: 'unstarted' }]), 'issue-1');
    expect(await run(linear, channel, event('website.up'), none.io)).toMatchObject({
      verdict: 'retry',
      problem: 'the team has no completed workflow state',
    });
  });

  it('github issues: the end comments on the issue, then closes it as completed', async () => {
    const { io, calls } = recorder(() => ({}), '17');
    const channel = opened({ repository: 'agency/shop', labels: [], apiBaseUrl: null }, { token: 'ghp_x' });
    await run(githubissues, channel, event('website.up'), io);
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'POST https://api.github.com/repos/agency/shop/issues/17/comments',
      'PATCH https://api.github.com/repos/agency/shop/issues/17',
    ]);
    expect(calls[1]?.json).toEqual({ state: 'closed', state_reason: 'completed' });
    expect(calls[0]?.headers).toMatchObject({
      authorization: 'Bearer ghp_x',
      'x-github-api-version': '2022-11-28',
    });
  });

  it('a channel’s template: Teams shows it in place of the facts, a webhook adds it, a mail is it', async () => {
    const { io, calls } = recorder();
    await run(
      teamsworkflows,
      opened({}, { webhookUrl: 'https://x.logic.azure.com/wf' }, 'All hands: Shop'),
      event('website.down'),
      io,
    );
    const card = (calls[0]?.json as { attachments: Array<{ content: { body: unknown[] } }> } | undefined)
      ?.attachments[0]?.content;
    expect(card?.body[1]).toEqual({ type: 'TextBlock', text: 'All hands: Shop', wrap: true });
    await run(
      webhook,
      opened(
        { url: 'https://hooks.example/x' },
        { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
        'Rendered',
      ),
      event('website.down'),
      io,
    );
    expect(calls[1]?.json).toMatchObject({ id: 'evt-website.down', message: 'Rendered' });
    expect(emailMessage(event('website.down'), 'Rendered')).toEqual({
      subject: '[webmon] Shop <b> @room is down',
      text: 'Rendered\n',
    });
  });
});
