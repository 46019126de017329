import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lighthouseSettled } from '../libs/lighthouse/index.js';
import { type HealthSite, startHealthSite } from './support/health-site.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';

interface LighthouseItem {
  runId: string;
  url: string;
  preset: string;
  outcome: string;
  figures: {
    scores: Record<string, number | null>;
    auditsLost: Array<{ id: string; category: string; title: string }>;
  } | null;
  breaches: { under: Array<{ category: string; score: number; minimum: number }> } | null;
  reportUrl: string | null;
}

describe('a Lighthouse check through the engine: history, the full report, a threshold event', {
  timeout: 180_000,
}, () => {
  let site: HealthSite;
  let stack: MonitoringStack;
  let websiteId: number;
  let monitorId: number;
  const get = <T>(path: string) => stack.api.request<T>('GET', path, { token: stack.token });

  beforeAll(async () => {
    site = await startHealthSite();
    stack = await startMonitoringStack('site-health-lighthouse');
    const created = await stack.api.request<{ id: number }>('POST', '/api/websites', {
      token: stack.token,
      body: { customerId: stack.customerId, name: 'Flawed page', url: `${site.plain}/lighthouse` },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    websiteId = created.body.id;
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
    await site?.close();
    // The worker's Lighthouse ran in this process: the next file must not share its CPU.
    await lighthouseSettled();
  });

  it('its first run (due when made) keeps the scores and metrics, names the audits lost and tells the breach once', async () => {
    const made = await stack.api.request<{ id: number; intervalSeconds: number }>(
      'POST',
      `/api/websites/${websiteId}/monitors`,
      {
        token: stack.token,
        body: {
          kind: 'lighthouse',
          schedule: 'weekly',
          presets: ['mobile'],
          thresholds: { accessibility: 100 },
        },
      },
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    monitorId = made.body.id;
    expect(made.body.intervalSeconds).toBe(604_800);
    await expect
      .poll(
        async () =>
          (await get<{ items: LighthouseItem[] }>(`/api/monitors/${monitorId}/lighthouse`)).body.items.length,
        {
          timeout: 90_000,
          interval: 1000,
        },
      )
      .toBe(1);
    const [run] = (await get<{ items: LighthouseItem[] }>(`/api/monitors/${monitorId}/lighthouse`)).body
      .items;
    expect(run, JSON.stringify(run)).toMatchObject({
      url: `${site.plain}/lighthouse`,
      preset: 'mobile',
      outcome: 'completed',
    });
    expect(run?.figures?.scores.accessibility).toBeLessThan(100);
    expect(run?.figures?.auditsLost.map((audit) => audit.id)).toContain('image-alt');
    expect(run?.breaches?.under).toEqual([
      expect.objectContaining({ category: 'accessibility', minimum: 100 }),
    ]);
    await expect
      .poll(
        () =>
          stack.api.db.collection('events').countDocuments({ websiteId, type: 'site.lighthouse_degraded' }),
        { timeout: 10_000 },
      )
      .toBe(1);
    const event = (await stack.api.db
      .collection('events')
      .findOne({ websiteId, type: 'site.lighthouse_degraded' })) as unknown as {
      data: { siteHealth: { lighthouse: Array<{ url: string; breaches: string[]; audits: string[] }> } };
    };
    expect(event.data.siteHealth.lighthouse).toEqual([
      expect.objectContaining({
        url: `${site.plain}/lighthouse`,
        breaches: [expect.stringMatching(/^Accessibility \d+ \(under 100\)$/)],
        audits: expect.arrayContaining([expect.stringContaining('[alt]')]),
      }),
    ]);
    // The monitor is up: scores under a threshold are not an outage.
    expect((await get<{ status: string }>(`/api/monitors/${monitorId}`)).body.status).toBe('up');
    const overview = (
      await get<{ items: Array<{ lighthouse: { pages: Array<{ scores: Record<string, number> }> } }> }>(
        '/api/site-health?sort=accessibility',
      )
    ).body.items;
    expect(overview[0]?.lighthouse.pages[0]?.scores.accessibility).toBe(run?.figures?.scores.accessibility);

    // Its full report, as Lighthouse made it, sandboxed.
    expect(run?.reportUrl).toBe(`/api/monitors/${monitorId}/lighthouse/${run?.runId}/report.html?run=1`);
    const report = await fetch(`${stack.api.api.url}${run?.reportUrl}`, {
      headers: { authorization: `Bearer ${stack.token}` },
    });
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toMatch(/^text\/html/);
    expect(report.headers.get('content-security-policy')).toMatch(/^sandbox allow-scripts/);
    expect(await report.text()).toContain('Lighthouse');
    const missing = await fetch(
      `${stack.api.api.url}/api/monitors/${monitorId}/lighthouse/${'0'.repeat(24)}/report.html`,
      { headers: { authorization: `Bearer ${stack.token}` } },
    );
    expect(missing.status).toBe(404);
  });

  it('a second run with the page still flawed tells no second event', async () => {
    const started = await stack.api.request<{ runId: string }>('POST', `/api/monitors/${monitorId}/run`, {
      token: stack.token,
    });
    expect(started.status).toBe(202);
    await expect
      .poll(
        async () =>
          (await get<{ state: string }>(`/api/monitors/${monitorId}/runs/${started.body.runId}`)).body.state,
        { timeout: 90_000, interval: 1000 },
      )
      .toBe('done');
    expect(
      (await get<{ items: LighthouseItem[] }>(`/api/monitors/${monitorId}/lighthouse`)).body.items,
    ).toHaveLength(2);
    expect(
      await stack.api.db.collection('events').countDocuments({ websiteId, type: 'site.lighthouse_degraded' }),
    ).toBe(1);
  });
});
