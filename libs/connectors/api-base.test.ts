import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../events/index.js';
import type { ConnectorIo, OpenedChannel } from './connector.js';
import type { HttpCall } from './guarded-http.js';
import { opsgenie } from './opsgenie.js';
import { pagerduty } from './pagerduty.js';
import { slack } from './slack.js';

const down: EventPayload = {
  id: 'evt-1',
  type: 'website.down',
  createdAt: '2026-11-22T10:00:00.000Z',
  organizationId: 1,
  data: {
    website: { id: 7, publicId: 'p', name: 'Shop', url: 'https://shop.example.com/', customerId: 3 },
    previousStatus: 'up',
    status: 'down',
    incident: 'inc-9',
    result: null,
  },
};
const finding: EventPayload = {
  ...down,
  id: 'evt-2',
  type: 'site.links_broken',
  data: { ...down.data, incident: null },
};
const at = new Date('2026-11-22T10:00:05Z');
const channel = (config: OpenedChannel['config']): OpenedChannel => ({
  config,
  secrets: { apiKey: 'k', routingKey: 'r', botToken: 'xoxb-1234567890-abcdefghij' },
});
const urlOf = (
  connector: typeof opsgenie | typeof pagerduty,
  config: OpenedChannel['config'],
  event = down,
) => connector.request(channel(config), event, at)?.url;

describe('apiBaseUrl, and the fields it replaces', () => {
  it('Opsgenie: apiBaseUrl, else the former apiUrl of a stored channel, else the public API', () => {
    expect(urlOf(opsgenie, { apiBaseUrl: 'https://gateway.example/og/' })).toBe(
      'https://gateway.example/og/v2/alerts',
    );
    expect(urlOf(opsgenie, { apiUrl: 'https://api.eu.opsgenie.com' })).toBe(
      'https://api.eu.opsgenie.com/v2/alerts',
    );
    expect(urlOf(opsgenie, { apiBaseUrl: null })).toBe('https://api.opsgenie.com/v2/alerts');
    expect(urlOf(opsgenie, { apiBaseUrl: 'https://gw.example', apiUrl: 'https://api.opsgenie.com' })).toBe(
      'https://gw.example/v2/alerts',
    );
  });

  it('PagerDuty: apiBaseUrl takes the Events API paths; the former eventsUrl is a whole URL', () => {
    expect(urlOf(pagerduty, { apiBaseUrl: 'https://gw.example/pd' })).toBe(
      'https://gw.example/pd/v2/enqueue',
    );
    expect(urlOf(pagerduty, { apiBaseUrl: 'https://gw.example/pd' }, finding)).toBe(
      'https://gw.example/pd/v2/change/enqueue',
    );
    expect(urlOf(pagerduty, { eventsUrl: 'https://gw.example/e2e/pd' })).toBe('https://gw.example/e2e/pd');
    expect(urlOf(pagerduty, { eventsUrl: 'https://events.eu.pagerduty.com/v2/enqueue' }, finding)).toBe(
      'https://events.eu.pagerduty.com/v2/change/enqueue',
    );
    expect(urlOf(pagerduty, {})).toBe('https://events.pagerduty.com/v2/enqueue');
  });

  it('Slack’s Web API: apiBaseUrl, else the former apiUrl', async () => {
    const calls: HttpCall[] = [];
    const io: ConnectorIo = {
      send: async (call) => {
        calls.push(call);
        return { status: 200, body: '{"ok":true,"ts":"1.2"}', durationMs: 1 };
      },
      guard: { allowPrivateTargets: false, exemptAddresses: [] },
      timeoutMs: 1000,
      externalRefOf: async () => null,
      at,
    };
    const bot = { webhookUrl: null, channel: 'C0123456789' };
    await slack.deliver(channel({ ...bot, apiUrl: 'https://old.example/api/' }), down, io);
    await slack.deliver(channel({ ...bot, apiBaseUrl: 'https://new.example/api', apiUrl: null }), down, io);
    await slack.deliver(channel({ ...bot, apiBaseUrl: null }), down, io);
    expect(calls.map((call) => call.url)).toEqual([
      'https://old.example/api/chat.postMessage',
      'https://new.example/api/chat.postMessage',
      'https://slack.com/api/chat.postMessage',
    ]);
  });

  it('both given and saying otherwise: a problem at the former field; its old default stored does not count', () => {
    const problems = (config: Record<string, unknown>) => [
      ...(opsgenie.problems?.(config) ?? []),
      ...(pagerduty.problems?.(config) ?? []),
    ];
    expect(problems({ apiBaseUrl: 'https://a.example', apiUrl: 'https://b.example' })).toEqual([
      { path: 'config.apiUrl', message: expect.stringContaining('former name') },
    ]);
    expect(problems({ apiBaseUrl: 'https://a.example', eventsUrl: 'https://b.example/v2/enqueue' })).toEqual([
      { path: 'config.eventsUrl', message: expect.stringContaining('former name') },
    ]);
    expect(problems({ apiBaseUrl: 'https://a.example', apiUrl: 'https://api.opsgenie.com' })).toEqual([]);
    expect(
      problems({ apiBaseUrl: 'https://a.example', eventsUrl: 'https://events.pagerduty.com/v2/enqueue' }),
    ).toEqual([]);
    expect(
      problems({ apiBaseUrl: null, apiUrl: 'https://b.example', eventsUrl: 'https://c.example' }),
    ).toEqual([]);
    expect(
      slack.problems?.({
        webhookUrl: '(set)',
        botToken: null,
        apiBaseUrl: 'https://a.example',
        apiUrl: 'https://b.example',
      }),
    ).toEqual([{ path: 'config.apiUrl', message: expect.any(String) }]);
  });
});
