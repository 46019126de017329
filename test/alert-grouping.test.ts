import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { until } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { type ReceivedRequest, type Receiver, startReceiver } from './support/receiver.js';

/**
 * Grouping end to end: 30 websites of one customer fail within seconds of each other; each channel
 * that groups gets one message listing them all, then each website's recovery on its own; a channel
 * that does not group gets 30 messages.
 */

type Payload = { type: string; data: { website: { id: number } | null; group?: Array<{ name: string }> } };
type SlackMessage = { text: string; blocks: Array<{ text: { text: string } }> };
const WEBSITES = 30;

describe('grouping: 30 websites of one customer failing within seconds', { timeout: 240_000 }, () => {
  let stack: MonitoringStack;
  let notifier: RunningService;
  let tools: Receiver;
  let site: Receiver;
  const websiteIds: number[] = [];

  const api = () => stack.api;
  const token = () => stack.token;
  const channel = async (body: Record<string, unknown>) => {
    const res = await api().request<{ id: number; grouping: unknown }>('POST', '/api/notification-channels', {
      token: token(),
      body: { events: ['website.down', 'website.up'], ...body },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const webhookPayloads = (path: string) => tools.to(path).map((r: ReceivedRequest) => r.json as Payload);

  beforeAll(async () => {
    tools = await startReceiver();
    site = await startReceiver();
    stack = await startMonitoringStack('grouping-node', {}, { DELIVERY_RETRY_SCALE: '0.0001' });
    notifier = await startNotifier(api().config, createLogger('notifier', 'silent'));
    for (let i = 0; i < WEBSITES; i++) {
      const res = await api().request<{ id: number }>('POST', '/api/websites', {
        token: token(),
        body: {
          customerId: stack.customerId,
          name: `Shop ${i}`,
          url: `${site.url}/shop-${i}`,
          checkInterval: 10,
        },
      });
      expect(res.status).toBe(201);
      websiteIds.push(res.body.id);
    }
  });
  afterAll(async () => {
    await notifier.stop();
    await stack.stop();
    await Promise.all([tools.close(), site.close()]);
  });

  it('a channel’s grouping is validated and shown', async () => {
    const refused = await api().request<{ errors: Array<{ path: string }> }>(
      'POST',
      '/api/notification-channels',
      {
        token: token(),
        body: {
          type: 'webhook',
          name: 'bad',
          config: { url: `${tools.url}/bad` },
          grouping: { windowSeconds: 1, by: 'customer' },
        },
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e) => e.path)).toEqual(['grouping.windowSeconds']);
  });

  it('one message per grouping channel listing them, then each recovery alone', async () => {
    const grouping = { windowSeconds: 30, by: 'customer' };
    const hook = await channel({
      type: 'webhook',
      name: 'Grouped hook',
      config: { url: `${tools.url}/grouped` },
      grouping,
    });
    expect(hook.grouping).toEqual(grouping);
    await channel({
      type: 'slack',
      name: 'Grouped Slack',
      config: { webhookUrl: `${tools.url}/slack` },
      grouping,
    });
    await channel({ type: 'webhook', name: 'Each alone', config: { url: `${tools.url}/alone` } });

    site.defaultStatus = 503;
    await until(
      async () => webhookPayloads('/alone').filter((p) => p.type === 'website.down').length === WEBSITES,
      90_000,
    );
    await until(async () => webhookPayloads('/grouped').some((p) => p.type === 'website.down'), 60_000);
    await until(async () => tools.to('/slack').length > 0, 30_000);
    const downs = webhookPayloads('/grouped').filter((p) => p.type === 'website.down');
    expect(downs).toHaveLength(1);
    expect(downs[0]?.data.group?.map((g) => g.name).sort()).toEqual(
      Array.from({ length: WEBSITES }, (_, i) => `Shop ${i}`).sort(),
    );
    const slack = tools.to('/slack').map((r) => r.json as SlackMessage);
    expect(slack).toHaveLength(1);
    expect(slack[0]?.text).toMatch(/^30 websites are down: Shop \d+, Shop \d+, Shop \d+ and 27 more$/);
    expect(slack[0]?.blocks[0]?.text.text).toMatch(/Shop \d+: status 503/);

    site.defaultStatus = 200;
    await until(
      async () => webhookPayloads('/grouped').filter((p) => p.type === 'website.up').length === WEBSITES,
      90_000,
    );
    expect(webhookPayloads('/grouped').filter((p) => p.type === 'website.down')).toHaveLength(1);
  });
});
