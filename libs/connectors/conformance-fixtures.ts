import type { MailReceiver } from '../../test/support/mail-receiver.js';
import type { ReceivedRequest, Receiver } from '../../test/support/receiver.js';
import type { EventKind } from '../events/index.js';
import type { OpenedChannel, PersonalMedium, PersonalMessage } from './connector.js';
import { escapeHtml, escapeXml } from './markup.js';
import type { ChannelType } from './registry.js';
import { webhookSignature } from './signing.js';

/**
 * Test-only: each channel type's channel against local receivers, how its tool's side answers, and
 * what its requests must hold (credential, limits, reaching one person). conformance.test.ts runs
 * every type through the same tests; a new type fails to compile there until it has one here.
 */

export const SMTP_ACCOUNT = { username: 'alerts', password: 'smtp-Pa55-word-0f-the-channel' };

export interface Servers {
  http: Receiver;
  smtp: MailReceiver;
}

/** A limited field of a request: its name, its size as the tool counts it, the tool's limit. */
export type Limit = [field: string, size: number, max: number];

export interface Fixture {
  channel(servers: Servers): OpenedChannel;
  /** Events the tool is not told about. */
  skips: readonly EventKind[];
  /** `http`: answers by HTTP status; `smtp`: a rejection is an SMTP error, thrown and retried. */
  answers: 'http' | 'smtp';
  /** How request bodies are written (JSON by default). */
  form?: true;
  /** Makes the tool's side answer as a working one does (its success bodies, a multi-call tool's routes). */
  prepare?(servers: Servers): void;
  /** The reference an opening delivery (a ticket's) returns. */
  opens?: string;
  /** The credential is where the tool looks for it. */
  carriesCredential(request: ReceivedRequest, channel: OpenedChannel): boolean;
  /** The request's length-limited fields (none: the tool sets no limit: webhooks, e-mail). */
  limits?(request: ReceivedRequest): Limit[];
  /** Reaching one person: an address of theirs, and what a request through each medium holds. */
  reach?: {
    to: string;
    holds(request: ReceivedRequest, medium: PersonalMedium, message: PersonalMessage): void;
  };
}

/** The strings a request carries: a form's values, or every string in its JSON. */
export function textsOf(request: ReceivedRequest): string[] {
  if (String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
    return [...new URLSearchParams(request.body).values()];
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (value && typeof value === 'object') for (const item of Object.values(value)) walk(item);
  };
  walk(request.json);
  return strings;
}

const formOf = (request: ReceivedRequest) => Object.fromEntries(new URLSearchParams(request.body));
// biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON the tool would read, whatever its shape.
const jsonOf = (request: ReceivedRequest): any => request.json ?? {};
const bytes = (text: unknown) => Buffer.byteLength(String(text ?? ''), 'utf8');
const chars = (text: unknown) => String(text ?? '').length;
const basic = (user: string, password: string | undefined) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Checks for a reach: the request holds the person's address, the message and its acknowledgement link. */
function expectHolds(condition: boolean | undefined, what: string): void {
  if (!condition) throw new Error(`the request does not hold ${what}`);
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
const TEAMS: Fixture = { ...INCOMING_WEBHOOK, limits: (request) => [['body', bytes(request.body), 28_000]] };
const MARKDOWN_WEBHOOK = (max: number): Fixture => ({
  ...INCOMING_WEBHOOK,
  channel: (servers) => ({ ...INCOMING_WEBHOOK.channel(servers), config: { channel: null } }),
  limits: (request) => [['text', chars(jsonOf(request).text), max]],
});
const INCIDENT_SKIPS = ['maintenance.started', 'maintenance.ended'] as const;
const TICKET_SKIPS = [...INCIDENT_SKIPS, 'website.degraded'] as const;
const PERSON = '+14155550123';
const TELEGRAM_TOKEN = '123456789:AAHk3xQ-telegram-bot-token-0123456';
const LINEAR_ISSUE = '5c8e2b1a-7d4f-4e3a-9b2c-1f0e9d8c7b6a';

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
  pagerduty: {
    channel: ({ http }) => ({
      config: { apiBaseUrl: http.url },
      secrets: { routingKey: 'R0ut1ngKeyOfTheIntegrat10nXyZ012' },
    }),
    skips: INCIDENT_SKIPS,
    answers: 'http',
    carriesCredential: (request, channel) => jsonOf(request).routing_key === channel.secrets.routingKey,
    limits: (request) => [['summary', chars(jsonOf(request).payload?.summary), 1024]],
  },
  opsgenie: {
    channel: ({ http }) => ({
      config: { apiBaseUrl: http.url },
      secrets: { apiKey: '3f1c2a4e-9b7d-4c1a-8e2f-5d6b7a8c9d0e' },
    }),
    skips: INCIDENT_SKIPS,
    answers: 'http',
    carriesCredential: (request, channel) =>
      request.headers.authorization === `GenieKey ${channel.secrets.apiKey}`,
    limits: (request) => [
      ['message', chars(jsonOf(request).message), 130],
      ['description', chars(jsonOf(request).description), 15_000],
    ],
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
    skips: TICKET_SKIPS,
    answers: 'http',
    opens: 'OPS-7',
    prepare: ({ http }) => {
      http.route('POST', '/rest/api/3/issue', 201, { key: 'OPS-7' });
      http.route('POST', '/rest/api/3/issue/OPS-7/comment', 201, {});
      http.route('GET', '/rest/api/3/issue/OPS-7/transitions', 200, {
        transitions: [{ id: '31', name: 'Done' }],
      });
      http.route('POST', '/rest/api/3/issue/OPS-7/transitions', 204, {});
    },
    carriesCredential: (request, channel) =>
      request.headers.authorization === basic('bot@agency.example', channel.secrets.apiToken),
    limits: (request) => [
      ['summary', chars(jsonOf(request).fields?.summary), 255],
      ['description', textsOf(request).join('').length, 32_767],
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
  splunkoncall: {
    channel: ({ http }) => ({
      config: { routingKey: 'web-team', apiBaseUrl: http.url },
      secrets: { apiKey: '280d4699-a817-4719-ba6f-ca56e573e44f' },
    }),
    skips: INCIDENT_SKIPS,
    answers: 'http',
    carriesCredential: (request, channel) =>
      request.path === `/integrations/generic/20131114/alert/${channel.secrets.apiKey}/web-team`,
    limits: (request) => [
      ['state_message', chars(jsonOf(request).state_message), 10_000],
      ['entity_display_name', chars(jsonOf(request).entity_display_name), 256],
    ],
  },
  zendesk: {
    channel: ({ http }) => ({
      config: { apiBaseUrl: http.url, email: 'bot@agency.example', assigneeEmail: null },
      secrets: { apiToken: 'zd-6wiIBWbGkBMo1mRDMuVwkw1EPsNkeUj95PIz2akv' },
    }),
    skips: TICKET_SKIPS,
    answers: 'http',
    opens: '7',
    prepare: ({ http }) => http.route('POST', '/api/v2/tickets.json', 201, { ticket: { id: 7 } }),
    carriesCredential: (request, channel) =>
      request.headers.authorization === basic('bot@agency.example/token', channel.secrets.apiToken),
    limits: (request) => [
      ['comment', bytes(jsonOf(request).ticket.comment.body), 65_536],
      ['subject', chars(jsonOf(request).ticket.subject), 255],
    ],
  },
  linear: {
    channel: ({ http }) => ({
      config: { teamId: '9cfb482a-81e3-4154-b5b9-2c805e70a02d', doneState: 'Done', apiBaseUrl: http.url },
      secrets: { apiKey: 'lin_api_0123456789abcdefghijABCDEFGHIJ' },
    }),
    skips: TICKET_SKIPS,
    answers: 'http',
    opens: LINEAR_ISSUE,
    // One endpoint for every operation: one answer holding what each of them reads.
    prepare: ({ http }) =>
      http.route('POST', '/graphql', 200, {
        data: {
          issueCreate: { success: true, issue: { id: LINEAR_ISSUE, identifier: 'OPS-7' } },
          commentCreate: { success: true },
          team: { states: { nodes: [{ id: 'state-done', name: 'Done', type: 'completed' }] } },
          issueUpdate: { success: true },
        },
      }),
    carriesCredential: (request, channel) => request.headers.authorization === channel.secrets.apiKey,
    limits: (request) => {
      const input = jsonOf(request).variables?.input ?? {};
      return [
        ['title', chars(input.title), 255],
        ['description', chars(input.description ?? input.body), 30_000],
      ];
    },
  },
  githubissues: {
    channel: ({ http }) => ({
      config: { repository: 'agency/shop', labels: ['outage'], apiBaseUrl: http.url },
      secrets: { token: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz' },
    }),
    skips: TICKET_SKIPS,
    answers: 'http',
    opens: '7',
    prepare: ({ http }) => http.route('POST', '/repos/agency/shop/issues', 201, { number: 7 }),
    carriesCredential: (request, channel) =>
      request.headers.authorization === `Bearer ${channel.secrets.token}`,
    limits: (request) => [
      ['title', chars(jsonOf(request).title), 256],
      ['body', chars(jsonOf(request).body), 65_536],
    ],
  },
  twilio: {
    channel: ({ http }) => ({
      config: {
        accountSid: `AC${'0a1b2c3d'.repeat(4)}`,
        from: '+14155550100',
        to: ['+14155550111', '+14155550122'],
        call: false,
        apiBaseUrl: http.url,
      },
      secrets: { authToken: '0123456789abcdef0123456789abcdef' },
    }),
    skips: [],
    answers: 'http',
    form: true,
    carriesCredential: (request, channel) =>
      request.headers.authorization === basic(String(channel.config.accountSid), channel.secrets.authToken),
    limits: (request) => [['Body', chars(formOf(request).Body), 1600]],
    reach: {
      to: PERSON,
      holds: (request, medium, message) => {
        const fields = formOf(request);
        expectHolds(fields.To === PERSON && fields.From === '+14155550100', 'the numbers');
        if (medium === 'sms') {
          expectHolds(request.path.endsWith('/Messages.json'), 'Messages.json');
          expectHolds(
            fields.Body?.includes(message.text) && fields.Body.includes(message.ackUrl ?? ''),
            'the link',
          );
          return;
        }
        expectHolds(request.path.endsWith('/Calls.json'), 'Calls.json');
        expectHolds(
          fields.Twiml?.startsWith(`<Response><Say>${escapeXml(message.spoken ?? '')}</Say>`),
          'the alert read out',
        );
        expectHolds(
          fields.Twiml?.includes(
            `<Gather numDigits="1" action="${escapeXml(message.ackUrl ?? '')}" method="POST">`,
          ),
          'the keypress sent to the link',
        );
      },
    },
  },
  vonage: {
    channel: ({ http }) => ({
      config: { apiKey: 'a1b2c3d4', from: 'Agency', to: ['+14155550111'], apiBaseUrl: http.url },
      secrets: { apiSecret: 'S3cr3tOfVonage42' },
    }),
    skips: [],
    answers: 'http',
    carriesCredential: (request, channel) =>
      request.headers.authorization === basic('a1b2c3d4', channel.secrets.apiSecret),
    limits: (request) => [['text', chars(jsonOf(request).text), 1000]],
    reach: {
      to: PERSON,
      holds: (request, _medium, message) => {
        const body = jsonOf(request);
        expectHolds(
          body.channel === 'sms' && body.message_type === 'text' && body.to === PERSON.slice(1),
          'the number',
        );
        expectHolds(body.text.includes(message.text) && body.text.includes(message.ackUrl), 'the link');
      },
    },
  },
  messagebird: {
    channel: ({ http }) => ({
      config: { originator: '+14155550100', to: ['+14155550111', '+14155550122'], apiBaseUrl: http.url },
      secrets: { accessKey: 'live_aBCDefg12hiJKew8uRaJNQMrd' },
    }),
    skips: [],
    answers: 'http',
    carriesCredential: (request, channel) =>
      request.headers.authorization === `AccessKey ${channel.secrets.accessKey}`,
    limits: (request) => [['body', chars(jsonOf(request).body), 1377]],
    reach: {
      to: PERSON,
      holds: (request, _medium, message) => {
        const body = jsonOf(request);
        expectHolds(body.recipients.length === 1 && body.recipients[0] === PERSON.slice(1), 'the number');
        expectHolds(body.body.includes(message.text) && body.body.includes(message.ackUrl), 'the link');
      },
    },
  },
} as const satisfies Record<ChannelType, Fixture>;
