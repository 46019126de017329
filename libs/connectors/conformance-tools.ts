import {
  basic,
  bytes,
  chars,
  expectHolds,
  type Fixture,
  formOf,
  INCIDENT_SKIPS,
  jsonOf,
  PERSON,
  TICKET_SKIPS,
  textsOf,
} from './conformance-support.js';
import { escapeXml } from './markup.js';

/** Test-only: the fixtures of incident, ticket and SMS tools (see conformance-support.ts). */

const LINEAR_ISSUE = '5c8e2b1a-7d4f-4e3a-9b2c-1f0e9d8c7b6a';

export const TOOL_FIXTURES = {
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
} as const satisfies Record<string, Fixture>;
