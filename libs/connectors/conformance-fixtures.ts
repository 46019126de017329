import {
  basic,
  bytes,
  chars,
  expectHolds,
  type Fixture,
  formOf,
  jsonOf,
  PERSON,
  SMTP_ACCOUNT,
} from './conformance-support.js';
import { TOOL_FIXTURES } from './conformance-tools.js';
import { escapeHtml } from './markup.js';
import type { ChannelType } from './registry.js';
import { webhookSignature } from './signing.js';

/**
 * Test-only: each channel type's channel against local receivers, how its tool's side answers, and
 * what its requests must hold (credential, limits, reaching one person). conformance.test.ts runs
 * every type through the same tests; a new type fails to compile there until it has one here (chat
 * and push tools) or in conformance-tools.ts (incident, ticket and SMS tools).
 */

const TELEGRAM_TOKEN = '123456789:AAHk3xQ-telegram-bot-token-0123456';
const INCOMING_WEBHOOK: Fixture = {
  channel: ({ http }) => ({
    config: {},
    secrets: { webhookUrl: `${http.url}/services/T0/B0/Zr8xQ3hookToken` },
  }),
  skips: [],
  answers: 'http',
  carriesCredential: (request) => request.path === '/services/T0/B0/Zr8xQ3hookToken',
};
const TEAMS: Fixture = { ...INCOMING_WEBHOOK, limits: (request) => [['body', bytes(request.body), 28_000]] };
const MARKDOWN_WEBHOOK = (max: number): Fixture => ({
  ...INCOMING_WEBHOOK,
  channel: (servers) => ({ ...INCOMING_WEBHOOK.channel(servers), config: { channel: null } }),
  limits: (request) => [['text', chars(jsonOf(request).text), max]],
});

export const FIXTURES = {
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
  slack: {
    ...INCOMING_WEBHOOK,
    limits: (request) => [
      ['text', chars(jsonOf(request).text), 4000],
      ['section', chars(jsonOf(request).blocks[0].text.text), 3000],
    ],
  },
  teams: TEAMS,
  discord: {
    ...INCOMING_WEBHOOK,
    limits: (request) => [
      ['title', chars(jsonOf(request).embeds[0].title), 256],
      ['description', chars(jsonOf(request).embeds[0].description), 4096],
    ],
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
  telegram: {
    channel: ({ http }) => ({
      config: { chatId: '-1001234567890', messageThreadId: null, apiBaseUrl: http.url },
      secrets: { botToken: TELEGRAM_TOKEN },
    }),
    skips: [],
    answers: 'http',
    prepare: ({ http }) =>
      http.route('POST', `/bot${TELEGRAM_TOKEN}/sendMessage`, 200, { ok: true, result: { message_id: 42 } }),
    carriesCredential: (request) => request.path === `/bot${TELEGRAM_TOKEN}/sendMessage`,
    limits: (request) => [['text', chars(jsonOf(request).text), 4096]],
    reach: {
      to: '987654321',
      holds: (request, _medium, message) => {
        expectHolds(jsonOf(request).chat_id === '987654321', 'the chat id');
        expectHolds(
          jsonOf(request).text.includes(`<a href="${escapeHtml(message.ackUrl ?? '')}">Acknowledge</a>`),
          'the link',
        );
      },
    },
  },
  googlechat: {
    ...INCOMING_WEBHOOK,
    channel: ({ http }) => ({
      config: {},
      secrets: { webhookUrl: `${http.url}/v1/spaces/AAAA/messages?key=K3y&token=T0k3n` },
    }),
    carriesCredential: (request) =>
      request.path.startsWith('/v1/spaces/AAAA/messages?key=K3y&token=T0k3n&messageReplyOption='),
    limits: (request) => [
      ['text', chars(jsonOf(request).text), 4096],
      ['message', bytes(request.body), 32_000],
    ],
  },
  mattermost: MARKDOWN_WEBHOOK(16_383),
  rocketchat: MARKDOWN_WEBHOOK(5000),
  matrix: {
    channel: ({ http }) => ({
      config: { apiBaseUrl: http.url, roomId: '!ops:matrix.agency.example' },
      secrets: { accessToken: 'syt_bWF0cml4_bot_access_token' },
    }),
    skips: [],
    answers: 'http',
    carriesCredential: (request, channel) =>
      request.method === 'PUT' && request.headers.authorization === `Bearer ${channel.secrets.accessToken}`,
    limits: (request) => [['event', bytes(request.body), 65_536]],
  },
  ntfy: {
    channel: ({ http }) => ({
      config: { apiBaseUrl: http.url, topic: 'agency-alerts-7f3k', username: null },
      secrets: { accessToken: 'tk_0123456789abcdefghijklmnopqrs' },
    }),
    skips: [],
    answers: 'http',
    carriesCredential: (request, channel) =>
      request.headers.authorization === `Bearer ${channel.secrets.accessToken}`,
    limits: (request) => [['message', bytes(jsonOf(request).message), 4096]],
    reach: {
      to: 'alice-phone_7f3k',
      holds: (request, _medium, message) => {
        const body = jsonOf(request);
        expectHolds(body.topic === 'alice-phone_7f3k' && body.message === message.text, 'the topic and text');
        expectHolds(body.click === message.ackUrl && body.actions[0].url === message.ackUrl, 'the link');
        expectHolds(body.actions[0].label === 'Acknowledge', 'its label');
      },
    },
  },
  pushover: {
    channel: ({ http }) => ({
      config: { userKey: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG', device: null, apiBaseUrl: http.url },
      secrets: { apiToken: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi' },
    }),
    skips: [],
    answers: 'http',
    form: true,
    prepare: ({ http }) => http.route('POST', '/1/messages.json', 200, { status: 1, request: 'r1' }),
    carriesCredential: (request, channel) => formOf(request).token === channel.secrets.apiToken,
    limits: (request) => [
      ['message', [...(formOf(request).message ?? '')].length, 1024],
      ['title', [...(formOf(request).title ?? '')].length, 250],
    ],
    reach: {
      to: 'gznej3rKEVAvPUxu9vvNnqpmZpokzF',
      holds: (request, _medium, message) => {
        const fields = formOf(request);
        expectHolds(
          fields.user === 'gznej3rKEVAvPUxu9vvNnqpmZpokzF' && fields.message === message.text,
          'the user',
        );
        expectHolds(fields.url === message.ackUrl && fields.url_title === 'Acknowledge', 'the link');
      },
    },
  },
  gotify: {
    channel: ({ http }) => ({ config: { apiBaseUrl: http.url }, secrets: { appToken: 'AbCdEf.GhIjKl_12' } }),
    skips: [],
    answers: 'http',
    carriesCredential: (request, channel) => request.headers['x-gotify-key'] === channel.secrets.appToken,
    limits: (request) => [['message', chars(jsonOf(request).message), 4096]],
  },
  zulip: {
    channel: ({ http }) => ({
      config: {
        apiBaseUrl: http.url,
        email: 'webmon-bot@agency.zulipchat.com',
        stream: 'alerts',
        topic: null,
      },
      secrets: { apiKey: 'aBcD1234eFgH5678iJkL9012mNoP3456' },
    }),
    skips: [],
    answers: 'http',
    form: true,
    prepare: ({ http }) => http.route('POST', '/api/v1/messages', 200, { result: 'success', msg: '', id: 1 }),
    carriesCredential: (request, channel) =>
      request.headers.authorization === basic('webmon-bot@agency.zulipchat.com', channel.secrets.apiKey),
    limits: (request) => [
      ['content', chars(formOf(request).content), 10_000],
      ['topic', chars(formOf(request).topic), 60],
    ],
  },
  signal: {
    channel: ({ http }) => ({
      config: {
        apiBaseUrl: http.url,
        number: '+4915112345678',
        recipients: ['+4915187654321', 'group.c2lnbmFsLWdyb3Vw'],
      },
      secrets: {},
    }),
    skips: [],
    answers: 'http',
    carriesCredential: () => true,
    limits: (request) => [['message', chars(jsonOf(request).message), 2000]],
    reach: {
      to: PERSON,
      holds: (request, _medium, message) => {
        const body = jsonOf(request);
        expectHolds(body.recipients.length === 1 && body.recipients[0] === PERSON, 'the number');
        expectHolds(body.message.includes(message.text) && body.message.includes(message.ackUrl), 'the link');
      },
    },
  },
  teamsworkflows: TEAMS,
  ...TOOL_FIXTURES,
} as const satisfies Record<ChannelType, Fixture>;
