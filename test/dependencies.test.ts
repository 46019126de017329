import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { createCustomer, until } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { type ReceivedRequest, type Receiver, startReceiver } from './support/receiver.js';

/**
 * Dependencies end to end: a worker checks a parent and 20 websites that depend on it, a notifier
 * delivers to a local webhook. The parent's alert names its children, the children's alerts are
 * held (their timelines say why), and when the parent recovers first each child still down is
 * alerted then.
 */

type Payload = {
  type: string;
  data: {
    website: { id: number } | null;
    dependents?: Array<{ name: string }>;
    dependentCount?: number;
  };
};
const CHILDREN = 20;

describe('dependencies: a parent down with 20 children', { timeout: 240_000 }, () => {
  let stack: MonitoringStack;
  let notifier: RunningService;
  let hooks: Receiver;
  let site: Receiver;
  let parentId: number;
  const childIds: number[] = [];

  const api = () => stack.api;
  const token = () => stack.token;
  /** A website of another customer depending on the same parent: its channels' business only. */
  let otherCustomersChild: number;
  const website = async (path: string, customerId = stack.customerId) => {
    const res = await api().request<{ id: number }>('POST', '/api/websites', {
      token: token(),
      body: {
        customerId,
        name: `Site ${path}`,
        url: `${site.url}${path}`,
        checkInterval: 10,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id;
  };
  const events = (type: string, websiteId: number) =>
    hooks
      .to('/ops')
      .map((r: ReceivedRequest) => r.json as Payload)
      .filter((p) => p.type === type && p.data.website?.id === websiteId);
  const incidentOf = async (websiteId: number) => (await stack.status(websiteId)).openIncidentId;
  const timelineTexts = async (incident: string) =>
    (
      await api().request<{ items: Array<{ kind: string; text: string | null }> }>(
        'GET',
        `/api/incidents/${incident}/timeline`,
        { token: token() },
      )
    ).body.items
      .filter((item) => item.kind === 'held')
      .map((item) => item.text ?? '');

  beforeAll(async () => {
    hooks = await startReceiver();
    site = await startReceiver();
    stack = await startMonitoringStack('dependencies-node', {}, { DELIVERY_RETRY_SCALE: '0.0001' });
    notifier = await startNotifier(api().config, createLogger('notifier', 'silent'));
    const hook = await api().request('POST', '/api/notification-channels', {
      token: token(),
      body: {
        type: 'webhook',
        name: 'Ops',
        events: ['website.down', 'website.up'],
        config: { url: `${hooks.url}/ops` },
      },
    });
    expect(hook.status).toBe(201);
    const scoped = await api().request('POST', '/api/notification-channels', {
      token: token(),
      body: {
        type: 'webhook',
        name: 'The first customer only',
        events: ['website.down'],
        config: { url: `${hooks.url}/first-customer` },
        scope: { customerId: stack.customerId, listedOnly: false },
      },
    });
    expect(scoped.status, JSON.stringify(scoped.body)).toBe(201);
    parentId = await website('/server');
    for (let i = 0; i < CHILDREN; i++) childIds.push(await website(`/client-${i}`));
    const first = await api().request<{ packageId: number }>('GET', `/api/customers/${stack.customerId}`, {
      token: token(),
    });
    const other = await createCustomer(api(), token(), first.body.packageId, 'Another client');
    otherCustomersChild = await website('/another-client', other);
  });
  afterAll(async () => {
    await notifier.stop();
    await stack.stop();
    await Promise.all([hooks.close(), site.close()]);
  });

  it('sets, shows and checks dependencies', async () => {
    for (const child of [...childIds, otherCustomersChild]) {
      const res = await api().request('PUT', `/api/websites/${child}/dependencies`, {
        token: token(),
        body: { parents: [{ websiteId: parentId }] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const shown = await api().request<{ children: unknown[]; parents: unknown[] }>(
      'GET',
      `/api/websites/${parentId}/dependencies`,
      { token: token() },
    );
    expect(shown.body.children).toHaveLength(CHILDREN + 1);
    const child = await api().request<{
      parents: Array<{ websiteId: number; name: string; status: string }>;
    }>('GET', `/api/websites/${childIds[0]}/dependencies`, { token: token() });
    expect(child.body.parents).toEqual([
      { websiteId: parentId, name: 'Site /server', status: expect.any(String) },
    ]);
    const cycle = await api().request<{ errors: Array<{ path: string; message: string }> }>(
      'PUT',
      `/api/websites/${parentId}/dependencies`,
      { token: token(), body: { parents: [{ websiteId: childIds[0] }] } },
    );
    expect(cycle.status).toBe(400);
    expect(cycle.body.errors).toEqual([
      { path: 'parents.0', message: 'would make a cycle: Site /server → Site /client-0 → Site /server' },
    ]);
    const unknown = await api().request<{ errors: Array<{ path: string }> }>(
      'PUT',
      `/api/websites/${parentId}/dependencies`,
      { token: token(), body: { parents: [{ monitorId: 999999 }, { websiteId: parentId }] } },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.map((e) => e.path)).toEqual(['parents.0.monitorId']);
    const self = await api().request('PUT', `/api/websites/${parentId}/dependencies`, {
      token: token(),
      body: { parents: [{ websiteId: parentId }] },
    });
    expect(self.status).toBe(400);
  });

  it('one alert names the children; theirs are held, then sent when the parent recovers first', async () => {
    site.route('GET', '/server', 503, 'down');
    await until(async () => events('website.down', parentId).length > 0, 60_000);
    const [parentDown] = events('website.down', parentId);
    expect(parentDown?.data.dependentCount).toBe(CHILDREN + 1);
    expect(parentDown?.data.dependents?.map((d) => d.name).sort()).toEqual(
      [...childIds.map((_, i) => `Site /client-${i}`), 'Site /another-client'].sort(),
    );
    // A channel scoped to the parent's customer hears nothing of the other customer's website.
    await until(async () => hooks.to('/first-customer').length > 0, 30_000);
    const [toldTheCustomer] = hooks.to('/first-customer');
    const scopedDown = toldTheCustomer?.json as Payload;
    expect(scopedDown.data.dependentCount).toBe(CHILDREN);
    expect(scopedDown.data.dependents?.map((d) => d.name).sort()).toEqual(
      childIds.map((_, i) => `Site /client-${i}`).sort(),
    );
    expect(toldTheCustomer?.body).not.toContain('another-client');
    for (let i = 0; i < CHILDREN; i++) site.route('GET', `/client-${i}`, 503, 'down');
    await until(async () => (await Promise.all(childIds.map(incidentOf))).every(Boolean), 90_000);
    // Held: give the notifier time to have sent them, were they not.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(childIds.flatMap((id) => events('website.down', id))).toHaveLength(0);
    const firstIncident = (await incidentOf(childIds[0] as number)) as string;
    expect(await timelineTexts(firstIncident)).toEqual(['held: Site /server is down (it depends on it)']);

    // The parent recovers first; one child recovered before it.
    site.route('GET', '/client-0', 200, 'ok');
    await until(async () => (await incidentOf(childIds[0] as number)) === null, 60_000);
    site.route('GET', '/server', 200, 'ok');
    await until(async () => events('website.up', parentId).length > 0, 60_000);
    await until(async () => childIds.slice(1).every((id) => events('website.down', id).length === 1), 30_000);
    expect(events('website.down', childIds[0] as number)).toHaveLength(0);
    expect(events('website.up', childIds[0] as number)).toHaveLength(0);
    expect(await timelineTexts(firstIncident)).toEqual([
      'held: Site /server is down (it depends on it)',
      'recovered while its alert was held: nothing was sent',
    ]);
    const released = (await incidentOf(childIds[1] as number)) as string;
    expect((await timelineTexts(released)).at(-1)).toBe(
      'released: Site /server recovered and this website is still down: alerting now',
    );
  });
});
