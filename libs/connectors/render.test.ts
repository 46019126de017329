import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../events/index.js';
import type { OpenedChannel, RequestConnector } from './connector.js';
import { discord } from './discord.js';
import { summarize } from './event-summary.js';
import { opsgenie } from './opsgenie.js';
import { pagerduty } from './pagerduty.js';
import { webhookSignature } from './signing.js';
import { slackMessage } from './slack.js';
import { teams } from './teams.js';
import { webhook } from './webhook.js';

const website = { id: 7, publicId: 'p', name: 'Shop <b>', url: 'https://shop.example.com/', customerId: 3 };
const down: EventPayload = {
  id: 'evt-1',
  type: 'website.down',
  createdAt: '2026-11-22T10:00:00.000Z',
  organizationId: 1,
  data: {
    website,
    previousStatus: 'up',
    status: 'down',
    incident: 'inc-9',
    result: {
      region: 'eu-west',
      startedAt: '2026-11-22T10:00:00.000Z',
      httpStatus: 503,
      error: null,
      checks: [{ name: 'status', outcome: 'fail', message: 'HTTP 503', value: 503 }],
    },
  },
};
const up: EventPayload = {
  ...down,
  id: 'evt-2',
  type: 'website.up',
  data: { ...down.data, previousStatus: 'down', status: 'up' },
};
const maintenance: EventPayload = { ...down, id: 'evt-3', type: 'maintenance.started' };
const at = new Date('2026-11-22T10:00:05Z');
const json = (connector: RequestConnector, channel: OpenedChannel, payload: EventPayload) => {
  const request = connector.request(channel, payload, at);
  return request && { ...request, json: JSON.parse(request.body) };
};

describe('connector requests', () => {
  it('webhook: the payload as is, signed', () => {
    const channel: OpenedChannel = {
      config: { url: 'https://hooks.example.com/x' },
      secrets: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    };
    const request = json(webhook, channel, down);
    expect(request?.url).toBe('https://hooks.example.com/x');
    expect(request?.json).toEqual(down);
    expect(request?.headers['webhook-signature']).toBe(
      webhookSignature(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'evt-1',
        1_795_341_605,
        request?.body as string,
      ),
    );
  });

  it('slack: mrkdwn escaped, the reason from the failing check', () => {
    const message = slackMessage(down, summarize(down));
    expect(message.text).toBe('Shop <b> is down');
    expect(message.blocks[0]?.text.text).toBe(
      '*Shop &lt;b&gt; is down*\n<https://shop.example.com/|https://shop.example.com/>\nHTTP 503',
    );
  });

  it('an escalation step names its policy and step after the cause', () => {
    const step = summarize({
      ...down,
      data: { ...down.data, escalation: { policy: 'Critical', step: 'step 2 of 3' } },
    });
    expect(step.title).toBe('Shop <b> is down');
    expect(step.reason).toBe('HTTP 503. Escalation Critical, step 2 of 3');
    expect(summarize(down).reason).toBe('HTTP 503');
  });

  it('every tool: the cause, the first 300 characters of what the site answered, and the incident’s link', () => {
    const withEvidence: EventPayload = {
      ...down,
      data: {
        ...down.data,
        incidentUrl: 'https://monitor.example.com/incidents/inc-9',
        evidence: {
          at: '2026-11-22T10:00:00.000Z',
          region: 'eu-west',
          nodeId: 'n1',
          url: 'https://shop.example.com/',
          finalUrl: 'https://shop.example.com/',
          statusLine: '503 Service Unavailable',
          headers: { 'retry-after': '120' },
          body: {
            kind: 'text',
            text: `<h1>Down for maintenance</h1>\n\n  ${'x'.repeat(1000)}`,
            charset: 'utf-8',
            bytes: 1040,
            truncated: false,
          },
          address: '127.0.0.1',
          redirects: [],
          tls: null,
          error: null,
          timings: { dns: 1, connect: 1, tls: 0, ttfb: 5, download: 1, total: 8 },
        },
      },
    };
    const summary = summarize(withEvidence);
    expect(summary.excerpt).toMatch(/^HTTP 503 Service Unavailable — <h1>Down for maintenance<\/h1> x+…$/);
    expect(summary.excerpt).toHaveLength(300);
    const slackText = slackMessage(withEvidence, summary).blocks[0]?.text.text;
    expect(slackText).toContain('\n> HTTP 503 Service Unavailable — &lt;h1&gt;Down for maintenance');
    expect(slackText).toContain('<https://monitor.example.com/incidents/inc-9|Open the incident>');
    for (const [connector, channel] of [
      [discord, { config: {}, secrets: { webhookUrl: 'https://discord.com/api/webhooks/1/t' } }],
      [opsgenie, { config: { apiUrl: 'https://api.opsgenie.com' }, secrets: { apiKey: 'k' } }],
    ] as const) {
      const body = json(connector, channel, withEvidence)?.body ?? '';
      expect(body).toContain('Answer: HTTP 503 Service Unavailable');
      expect(body).toContain('Incident: https://monitor.example.com/incidents/inc-9');
    }
    const pd = json(pagerduty, { config: { eventsUrl: 'https://pd.example/e' }, secrets: {} }, withEvidence);
    expect(pd?.json.payload.custom_details.answer).toBe(summary.excerpt);
    expect(pd?.json.links[0]).toEqual({
      href: 'https://monitor.example.com/incidents/inc-9',
      text: 'Incident in webmon',
    });
    // The network error stands in for an answer.
    const refused = summarize({
      ...withEvidence,
      data: {
        ...withEvidence.data,
        evidence: {
          ...(withEvidence.data.evidence as NonNullable<EventPayload['data']['evidence']>),
          statusLine: null,
          body: null,
          error: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' },
        },
      },
    });
    expect(refused.excerpt).toBe('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9');
  });

  it('discord: an embed, and no mentions', () => {
    const request = json(
      discord,
      { config: {}, secrets: { webhookUrl: 'https://discord.com/api/webhooks/1/t' } },
      down,
    );
    expect(request?.json).toMatchObject({
      allowed_mentions: { parse: [] },
      embeds: [{ title: 'Shop <b> is down', url: website.url, color: 0xd92d20, timestamp: down.createdAt }],
    });
  });

  it('teams: an Adaptive Card in a message', () => {
    const request = json(
      teams,
      { config: {}, secrets: { webhookUrl: 'https://x.logic.azure.com/wf' } },
      down,
    );
    expect(request?.json.type).toBe('message');
    expect(request?.json.attachments[0]).toMatchObject({
      contentType: 'application/vnd.microsoft.card.adaptive',
      content: {
        type: 'AdaptiveCard',
        version: '1.4',
        body: [{ type: 'TextBlock', text: 'Shop <b> is down' }, { type: 'FactSet' }],
      },
    });
  });

  it('pagerduty: trigger on down and resolve on up, both keyed by the incident; maintenance is not an alert', () => {
    const channel: OpenedChannel = {
      config: { eventsUrl: 'https://events.pagerduty.com/v2/enqueue' },
      secrets: { routingKey: 'k'.repeat(32) },
    };
    expect(json(pagerduty, channel, down)?.json).toMatchObject({
      routing_key: 'k'.repeat(32),
      event_action: 'trigger',
      dedup_key: 'inc-9',
      payload: { summary: 'Shop <b> is down: HTTP 503', source: website.url, severity: 'critical' },
    });
    expect(json(pagerduty, channel, up)?.json).toEqual({
      routing_key: 'k'.repeat(32),
      event_action: 'resolve',
      dedup_key: 'inc-9',
    });
    expect(pagerduty.request(channel, maintenance, at)).toBeNull();
  });

  it('opsgenie: create by alias on down, close by alias on up, GenieKey auth', () => {
    const channel: OpenedChannel = {
      config: { apiUrl: 'https://api.eu.opsgenie.com/' },
      secrets: { apiKey: 'key' },
    };
    const create = json(opsgenie, channel, down);
    expect(create?.url).toBe('https://api.eu.opsgenie.com/v2/alerts');
    expect(create?.headers.authorization).toBe('GenieKey key');
    expect(create?.json).toMatchObject({ message: 'Shop <b> is down', alias: 'inc-9', priority: 'P1' });
    expect(json(opsgenie, channel, up)?.url).toBe(
      'https://api.eu.opsgenie.com/v2/alerts/inc-9/close?identifierType=alias',
    );
  });
});
