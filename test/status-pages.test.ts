import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../libs/logging/index.js';
import { RollupRecorder, RollupRepository } from '../libs/monitoring/index.js';
import { createCustomer, createPackage, until } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';

interface PageData {
  title: string;
  overall: { state: string; text: string };
  websites: Array<{
    name: string;
    status: string;
    statusText: string;
    uptime90dPercent: number | null;
    days: Array<{ date: string; uptimePercent: number | null; downtimeSeconds: number }>;
    responseTimes: Array<{ hour: string; averageMs: number | null }> | null;
  }>;
  incidents: Array<{ website: string; open: boolean; durationSeconds: number }>;
  maintenance: Array<{ website: string; title: string }>;
}

describe('status pages and badges', () => {
  let stack: MonitoringStack;
  let upSite: { id: number; publicId: string };
  let downSite: { id: number; publicId: string };
  const slug = `acme-${randomUUID().slice(0, 8)}`;
  let pageId: number;

  const api = () => stack.api;
  const token = () => stack.token;

  beforeAll(async () => {
    stack = await startMonitoringStack('status-pages-node', { rollupFlushMs: 300 });
    const create = async (name: string, path: string) =>
      (
        await api().request<{ id: number; publicId: string }>('POST', '/api/websites', {
          token: token(),
          body: {
            customerId: stack.customerId,
            name,
            url: `${stack.target.url}${path}`,
            checkInterval: 10,
            timeoutSeconds: 5,
          },
        })
      ).body;
    upSite = await create('Shop <front>', '/ok');
    downSite = await create('Checkout API', '/status/503');
    await until(async () => (await stack.status(upSite.id)).status === 'up', 20_000);
    await until(async () => (await stack.status(downSite.id)).status === 'down', 20_000);
    const tomorrow = new Date(Date.now() + 86_400_000);
    const window = await api().request('POST', '/api/maintenance-windows', {
      token: token(),
      body: {
        websiteId: upSite.id,
        title: 'Server upgrade',
        startsAt: tomorrow.toISOString(),
        endsAt: new Date(tomorrow.getTime() + 3_600_000).toISOString(),
        timezone: 'UTC',
      },
    });
    expect(window.status).toBe(201);
    const created = await api().request<{ id: number; public: boolean; websiteIds: null }>(
      'POST',
      '/api/status-pages',
      {
        token: token(),
        body: {
          slug,
          title: 'Acme services',
          customerId: stack.customerId,
          branding: { accentColor: '#0b7a75' },
        },
      },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ public: false, websiteIds: null, showResponseTimes: true });
    pageId = created.body.id;
  }, 60_000);
  afterAll(() => stack.stop());

  it('is not served while it is not public: a 404 page, a 404 JSON, no badges', async () => {
    const html = await api().request('GET', `/status/${slug}`);
    expect(html.status).toBe(404);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(String(html.body)).toContain('Status page not found');
    expect((await api().request('GET', `/status/${slug}.json`)).status).toBe(404);
    expect((await api().request('GET', `/badge/${upSite.publicId}/status.svg`)).status).toBe(404);
    expect((await api().request('GET', '/status/no-such-page-here')).status).toBe(404);
    expect((await api().request('GET', '/status/NOT_a_slug!')).status).toBe(404);
  });

  it('once public: both states, 90 uptime bars, the incident and the maintenance; the JSON twin says the same', async () => {
    const made = await api().request('PATCH', `/api/status-pages/${pageId}`, {
      token: token(),
      body: { public: true },
    });
    expect(made.status).toBe(200);
    // The rollups of the checks so far are written within the flush interval.
    await expect
      .poll(
        async () => {
          const data = (await api().request<PageData>('GET', `/status/${slug}.json`)).body;
          return data.websites.every(
            (w) => w.responseTimes?.some((p) => p.averageMs !== null) || w.status === 'down',
          );
        },
        { timeout: 35_000, interval: 1000 },
      )
      .toBe(true);
    const json = await api().request<PageData>('GET', `/status/${slug}.json`);
    const html = await api().request('GET', `/status/${slug}`);
    expect(html.status).toBe(200);
    expect(html.headers.get('cache-control')).toBe('no-cache');
    expect(html.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = String(html.body);
    const data = json.body;
    expect(data.overall).toEqual({ state: 'partial-outage', text: 'Partial outage' });
    expect(data.websites.map((w) => [w.name, w.status, w.statusText])).toEqual([
      ['Shop <front>', 'up', 'Operational'],
      ['Checkout API', 'down', 'Down'],
    ]);
    for (const website of data.websites) {
      expect(website.days).toHaveLength(90);
      expect(website.days.slice(0, 89).every((d) => d.uptimePercent === null)).toBe(true);
      expect(page).toContain(website.statusText);
      expect(page).toContain(`${website.uptime90dPercent}% uptime over 90 days`);
    }
    const [up, down] = data.websites;
    expect(up?.days[89]?.uptimePercent).toBe(100);
    expect(down?.days[89]?.uptimePercent).toBeLessThan(100);
    expect(down?.responseTimes?.every((p) => p.averageMs === null)).toBe(true);
    expect(data.incidents).toEqual([expect.objectContaining({ website: 'Checkout API', open: true })]);
    expect(data.maintenance).toEqual([
      {
        website: 'Shop <front>',
        title: 'Server upgrade',
        startsAt: expect.any(String),
        endsAt: expect.any(String),
      },
    ]);
    // The HTML page: escaped names, the overall state in words, 2 × 90 bars with their words, the chart.
    // Escaped by the renderer: "<" and "&" in text (">" alone opens no markup).
    expect(page).toContain('Shop &lt;front>');
    expect(page).not.toContain('Shop <front>');
    expect(page).toContain('Partial outage');
    expect(page.match(/<li class="bar /g)).toHaveLength(180);
    expect(page).toMatch(/<span class="sr">\d{4}-\d\d-\d\d: 100% uptime, 0 s down<\/span>/);
    expect(page).toContain('<svg class="chart"');
    expect(page).toContain('Checkout API</strong> is down since');
    expect(page).toContain('Server upgrade');
    expect(page).toContain('--accent:#0b7a75');
    // Nothing the client should not see: the URLs, the incident's cause, node and ids of the organization.
    for (const secretish of [
      stack.target.url,
      '127.0.0.1',
      'status-pages-node',
      'HTTP 503',
      `"id":${upSite.id}`,
      // Not the websites' public ids either (docs/resources.md: no ids).
      upSite.publicId,
      downSite.publicId,
    ])
      expect(page + JSON.stringify(data)).not.toContain(secretish);
  });

  it('badges: status and uptime, shields-style SVG, cached; only websites on a public page', async () => {
    const status = await api().request('GET', `/badge/${upSite.publicId}/status.svg`);
    expect(status.status).toBe(200);
    expect(status.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(status.headers.get('cache-control')).toBe('public, max-age=30');
    expect(String(status.body)).toMatch(
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" [^>]*role="img" aria-label="status: operational">/,
    );
    expect(String(status.body)).toMatch(/<\/svg>$/);
    const down = await api().request('GET', `/badge/${downSite.publicId}/status.svg`);
    expect(String(down.body)).toContain('aria-label="status: down"');
    const uptime = await api().request('GET', `/badge/${upSite.publicId}/uptime.svg?period=30d`);
    expect(String(uptime.body)).toContain('aria-label="uptime 30d: 100.00%"');
    expect((await api().request('GET', `/badge/${upSite.publicId}/uptime.svg?period=1y`)).status).toBe(400);
    expect((await api().request('GET', `/badge/${randomUUID()}/status.svg`)).status).toBe(404);
    expect((await api().request('GET', '/badge/not-a-uuid/status.svg')).status).toBe(400);
    // Listed websites only: a page that lists just one hides the other's badge.
    await api().request('PATCH', `/api/status-pages/${pageId}`, {
      token: token(),
      body: { websiteIds: [upSite.id] },
    });
    expect((await api().request('GET', `/badge/${downSite.publicId}/uptime.svg?period=7d`)).status).toBe(404);
    await api().request('PATCH', `/api/status-pages/${pageId}`, {
      token: token(),
      body: { websiteIds: null },
    });
  });

  it('the resource: validated, slugs unique across organizations, tenancy, scopes', async () => {
    const bad = await api().request<{ errors: Array<{ path: string }> }>('POST', '/api/status-pages', {
      token: token(),
      body: { slug: 'No Spaces', title: '', customerId: stack.customerId, branding: { accentColor: 'red' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.path).sort()).toEqual(['branding.accentColor', 'slug', 'title']);

    const other = await api().createOrganization(['admin']);
    const otherPackage = await createPackage(api(), other.token);
    const otherCustomer = await createCustomer(api(), other.token, otherPackage.id);
    const taken = await api().request('POST', '/api/status-pages', {
      token: other.token,
      body: { slug, title: 'Mine', customerId: otherCustomer },
    });
    expect(taken.status).toBe(409);
    // Another organization's page, customer and websites do not exist for it.
    expect((await api().request('GET', `/api/status-pages/${pageId}`, { token: other.token })).status).toBe(
      404,
    );
    expect(
      (await api().request('DELETE', `/api/status-pages/${pageId}`, { token: other.token })).status,
    ).toBe(404);
    const foreignCustomer = await api().request<{ errors: Array<{ path: string }> }>(
      'POST',
      '/api/status-pages',
      {
        token: other.token,
        body: { slug: `x-${randomUUID().slice(0, 8)}`, title: 'X', customerId: stack.customerId },
      },
    );
    expect(foreignCustomer.status).toBe(400);
    expect(foreignCustomer.body.errors[0]?.path).toBe('customerId');
    const foreignWebsites = await api().request<{ errors: Array<{ path: string }> }>(
      'POST',
      '/api/status-pages',
      {
        token: other.token,
        body: {
          slug: `y-${randomUUID().slice(0, 8)}`,
          title: 'Y',
          customerId: otherCustomer,
          websiteIds: [upSite.id],
        },
      },
    );
    expect(foreignWebsites.status).toBe(400);
    expect(foreignWebsites.body.errors[0]?.path).toBe('websiteIds');
    const listed = await api().request<Array<{ id: number }>>('GET', '/api/status-pages', {
      token: other.token,
    });
    expect(listed.body).toEqual([]);

    const reader = await api().createToken(stack.organizationId, ['read']);
    expect((await api().request('GET', '/api/status-pages', { token: reader })).status).toBe(200);
    const refused = await api().request('PATCH', `/api/status-pages/${pageId}`, {
      token: reader,
      body: { title: 'Changed' },
    });
    expect(refused.status).toBe(403);

    // A customer's pages go with it.
    const leaving = await createCustomer(api(), token(), (await createPackage(api(), token())).id);
    const doomed = await api().request<{ id: number }>('POST', '/api/status-pages', {
      token: token(),
      body: { slug: `gone-${randomUUID().slice(0, 8)}`, title: 'Gone', customerId: leaving, public: true },
    });
    expect((await api().request('DELETE', `/api/customers/${leaving}`, { token: token() })).status).toBe(204);
    expect(
      (await api().request('GET', `/api/status-pages/${doomed.body.id}`, { token: token() })).status,
    ).toBe(404);
  });

  it('renders a page of 50 websites from rollups alone (no raw results exist)', async () => {
    const pkg = await createPackage(api(), token(), { limits: { maxWebsites: 100 } });
    const customerId = await createCustomer(api(), token(), pkg.id);
    const ids: number[] = [];
    for (let n = 1; n <= 50; n++) {
      const created = await api().request<{ id: number }>('POST', '/api/websites', {
        token: token(),
        body: { customerId, name: `Site ${n}`, url: `https://site${n}.example.com/`, paused: true },
      });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    // Rollups as a worker writes them for results of the last three days; no result is stored.
    const now = Date.now();
    const hour = Math.floor(now / 3_600_000) * 3_600_000;
    const day = Math.floor(now / 86_400_000) * 86_400_000;
    await api()
      .db.collection('websites')
      .updateMany({ id: { $in: ids } }, { $set: { createdAt: new Date(day - 3 * 86_400_000) } });
    const recorder = new RollupRecorder(new RollupRepository(api().db), {
      logger: createLogger('test', 'silent'),
      mongo: { available: true, onLost: () => () => undefined },
      flushEveryMs: 3_600_000,
    });
    for (const id of ids)
      for (const startedAt of [hour, day - 86_400_000 + 3_600_000, day - 2 * 86_400_000 + 3_600_000])
        for (let n = 0; n < 360; n++)
          recorder.add({
            organizationId: stack.organizationId,
            websiteId: id,
            region: 'local',
            startedAt: new Date(startedAt),
            status: 'up',
            timings: { total: 200 },
          });
    await recorder.close();
    expect(
      await api()
        .db.collection('check_results')
        .countDocuments({ websiteId: { $in: ids } }),
    ).toBe(0);
    const bigSlug = `big-${randomUUID().slice(0, 8)}`;
    await api().request('POST', '/api/status-pages', {
      token: token(),
      body: { slug: bigSlug, title: 'Fifty', customerId, public: true },
    });
    const started = performance.now();
    const data = (await api().request<PageData>('GET', `/status/${bigSlug}.json`)).body;
    const tookMs = performance.now() - started;
    expect(data.websites).toHaveLength(50);
    for (const website of data.websites) {
      expect(website.days.slice(87).map((d) => d.uptimePercent)).toEqual([100, 100, 100]);
      expect(website.responseTimes?.at(-1)?.averageMs).toBe(200);
    }
    const html = await api().request('GET', `/status/${bigSlug}`);
    expect(String(html.body).match(/<article class="website"/g)).toHaveLength(50);
    expect(tookMs).toBeLessThan(5_000);
  });
});
