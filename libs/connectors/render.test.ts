import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../events/index.js';
import type { OpenedChannel, RequestConnector } from './connector.js';
import { discord } from './discord.js';
import { opsgenie } from './opsgenie.js';
import { pagerduty } from './pagerduty.js';
import { webhookSignature } from './signing.js';
import { slack } from './slack.js';
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
    const request = json(slack, { config: {}, secrets: { webhookUrl: 'https://hooks.slack.com/s/x' } }, down);
    expect(request?.url).toBe('https://hooks.slack.com/s/x');
    expect(request?.json.text).toBe('Shop <b> is down');
    expect(request?.json.blocks[0].text.text).toBe(
      '*Shop &lt;b&gt; is down*\n<https://shop.example.com/|https://shop.example.com/>\nHTTP 503',
    );
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
