import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../libs/logging/index.js';
import { RollupRecorder, RollupRepository } from '../libs/monitoring/index.js';
import { SCREENSHOTS } from './support/browser.js';
import { createCustomer, createPackage, TestApi, withServices } from './support/harness.js';
import { createUser, signIn, withCookie } from './support/people.js';

interface ReportMonitor {
  id: number;
  kind: string;
  name: string;
  target: string | null;
  figures: Record<string, number | null> & { uptimePercent: number | null };
}

interface Report {
  period: { from: string; to: string; timezone: string; days: number };
  totals: Record<string, unknown> & { uptimePercent: number; slaUptimePercent: number };
  websites: Array<{
    name: string;
    monitors: ReportMonitor[];
    figures: {
      uptimePercent: number;
      slaUptimePercent: number;
      checks: number;
      responseTimeMs: { p50: number };
    };
    incidents: Array<{
      cause: string;
      durationSeconds: number;
      monitor: { id: number; kind: string; name: string } | null;
    }>;
    maintenance: Array<{ title: string }>;
  }>;
}

const run = promisify(execFile);

// October 2026 in Berlin: 31 days, the 25th an hour longer (summer time ends): 745 h = 2,682,000 s.
const OCTOBER_SECONDS = 2_682_000;

describe('client reports: a customer’s month from rollups, incidents and maintenance', {
  timeout: 120_000,
}, () => {
  let api: TestApi;
  let token: string;
  let organizationId: number;
  let acme: number;
  let globex: number;
  let portCheck: number;
  let heartbeat: number;
  let heartbeatToken: string;

  beforeAll(async () => {
    api = await TestApi.start();
    ({ organizationId, token } = await api.createOrganization(['admin']));
    const settings = await api.request('PATCH', '/api/organization', {
      token,
      body: { timezone: 'Europe/Berlin' },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const pkg = await createPackage(api, token);
    acme = await createCustomer(api, token, pkg.id, 'Acme Bakery');
    globex = await createCustomer(api, token, pkg.id, 'Globex');
    const batch = await api.request<{ items: Array<{ website: { id: number } }> }>(
      'POST',
      '/api/websites/batch',
      {
        token,
        body: {
          items: [
            { customerId: acme, name: 'Shop', url: 'https://shop.acme.example/' },
            { customerId: acme, name: 'Blog', url: 'https://blog.acme.example/' },
            { customerId: acme, name: '=HYPERLINK("http://evil.example")', url: 'https://api.acme.example/' },
            { customerId: globex, name: 'Globex site', url: 'https://globex.example/' },
          ],
        },
      },
    );
    const [shop, blog, api3, globexSite] = batch.body.items.map((item) => item.website.id) as [
      number,
      number,
      number,
      number,
    ];
    // Monitored since September: October is wholly theirs.
    await api.db
      .collection('websites')
      .updateMany({ organizationId }, { $set: { createdAt: new Date('2026-09-01T00:00:00Z') } });
    // The blog's other monitors: a port check since September, a heartbeat added on 17 October (Berlin).
    const monitor = async (websiteId: number, body: Record<string, unknown>) => {
      const created = await api.request<{ id: number; pingUrl?: string }>(
        'POST',
        `/api/websites/${websiteId}/monitors`,
        { token, body },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body;
    };
    portCheck = (await monitor(blog, { kind: 'port', name: 'Database', port: 5432, intervalSeconds: 60 })).id;
    const backup = await monitor(blog, {
      kind: 'heartbeat',
      name: 'Nightly backup',
      schedule: { periodSeconds: 86_400 },
      graceSeconds: 600,
    });
    heartbeat = backup.id;
    heartbeatToken = String(backup.pingUrl).split('/ping/')[1] as string;
    const globexPort = (
      await monitor(globexSite, { kind: 'port', name: 'Globex DB', port: 5432, intervalSeconds: 60 })
    ).id;
    const monitors = api.db.collection('website_monitors');
    await monitors.updateMany({ organizationId }, { $set: { createdAt: new Date('2026-09-01T00:00:00Z') } });
    await monitors.updateOne({ id: heartbeat }, { $set: { createdAt: new Date('2026-10-16T22:00:00Z') } });
    await withServices(api, async (services) => {
      const incident = (websiteId: number, start: string, end: string) =>
        services.states.insertIncident({
          id: randomUUID(),
          organizationId,
          websiteId,
          startedAt: new Date(start),
          resolvedAt: new Date(end),
          cause: 'HTTP 503 Service Unavailable',
          regions: ['local'],
        });
      await incident(shop, '2026-10-10T08:00:00Z', '2026-10-10T09:00:00Z');
      await incident(shop, '2026-10-20T01:00:00Z', '2026-10-20T01:30:00Z'); // in maintenance
      await incident(api3, '2026-10-31T22:30:00Z', '2026-10-31T23:30:00Z'); // half after the period
      await incident(shop, '2026-09-15T00:00:00Z', '2026-09-15T00:20:00Z'); // the period before
      const monitorIncident = (
        websiteId: number,
        monitor: { kind: 'port' | 'heartbeat'; id: number },
        start: string,
        end: string,
        cause: string,
      ) =>
        services.states.insertIncident({
          id: randomUUID(),
          organizationId,
          websiteId,
          monitor,
          startedAt: new Date(start),
          resolvedAt: new Date(end),
          cause,
          regions: ['local'],
        });
      await monitorIncident(
        blog,
        { kind: 'port', id: portCheck },
        '2026-10-12T06:00:00Z',
        '2026-10-12T07:30:00Z',
        'connect ECONNREFUSED',
      );
      await monitorIncident(
        blog,
        { kind: 'port', id: portCheck },
        '2026-09-20T06:00:00Z',
        '2026-09-20T07:00:00Z',
        'before the period',
      );
      // Half after the period.
      await monitorIncident(
        blog,
        { kind: 'heartbeat', id: heartbeat },
        '2026-10-31T22:30:00Z',
        '2026-10-31T23:30:00Z',
        'no ping',
      );
      // Another customer's: never in Acme's report.
      await monitorIncident(
        globexSite,
        { kind: 'port', id: globexPort },
        '2026-10-05T00:00:00Z',
        '2026-10-05T05:00:00Z',
        'globex refused',
      );
    });
    const window = await api.request('POST', '/api/maintenance-windows', {
      token,
      body: {
        websiteId: shop,
        title: 'Server upgrade',
        startsAt: '2026-10-20T02:00:00+02:00',
        endsAt: '2026-10-20T04:00:00+02:00',
        timezone: 'Europe/Berlin',
      },
    });
    expect(window.status).toBe(201);
    const rollups = new RollupRecorder(new RollupRepository(api.db), {
      logger: createLogger('test', 'silent'),
      mongo: { available: true, onLost: () => () => undefined },
      flushEveryMs: 3_600_000,
    });
    for (const websiteId of [shop, blog, api3])
      for (let day = 1; day <= 31; day += 1)
        for (const ms of [100, 120, 140, 900])
          rollups.add({
            organizationId,
            websiteId,
            region: 'local',
            startedAt: new Date(Date.UTC(2026, 9, day, 12)),
            status: 'up',
            timings: { total: ms },
            // The certificate renewed mid-month: the report shows the newer one's expiry.
            ssl:
              websiteId === shop
                ? { validTo: new Date(day < 15 ? '2026-11-01T00:00:00Z' : '2027-01-15T00:00:00Z') }
                : null,
          });
    await rollups.close();
  });
  afterAll(() => api?.stop());

  const report = (customerId: number, query = 'from=2026-10-01&to=2026-10-31') =>
    api.request<Report>('GET', `/api/customers/${customerId}/reports?${query}`, { token });

  it('JSON: uptime and SLA uptime match hand-computed values to 0.001 %', async () => {
    const answer = await report(acme);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    const { body } = answer;
    expect(body.period).toEqual({
      from: '2026-10-01',
      to: '2026-10-31',
      timezone: 'Europe/Berlin',
      days: 31,
    });
    const [shop, blog, third] = body.websites;
    // Shop: down 3,600 + 1,800 s; maintenance 7,200 s of which 1,800 down.
    expect(shop?.figures.uptimePercent).toBe(Math.round((1 - 5400 / OCTOBER_SECONDS) * 100_000) / 1000);
    expect(shop?.figures.slaUptimePercent).toBe(
      Math.round((1 - 3600 / (OCTOBER_SECONDS - 7200)) * 100_000) / 1000,
    );
    expect(blog?.figures.uptimePercent).toBe(100);
    expect(third?.figures.uptimePercent).toBe(Math.round((1 - 1800 / OCTOBER_SECONDS) * 100_000) / 1000);
    expect(body.totals.uptimePercent).toBe(Math.round((1 - 7200 / (3 * OCTOBER_SECONDS)) * 100_000) / 1000);
    expect(body.totals.slaUptimePercent).toBe(
      Math.round((1 - 5400 / (3 * OCTOBER_SECONDS - 7200)) * 100_000) / 1000,
    );
    expect(body.totals).toMatchObject({ incidents: 3, checks: 3 * 31 * 4, downtimeSeconds: 7200 });
    expect(shop?.figures.checks).toBe(124);
    expect(shop?.figures.responseTimeMs.p50).toBeGreaterThanOrEqual(107);
    expect(shop?.figures.responseTimeMs.p50).toBeLessThanOrEqual(124);
    expect(shop?.incidents.map((i) => i.durationSeconds)).toEqual([3600, 1800]);
    expect((shop as unknown as { certificateExpiresAt: string }).certificateExpiresAt).toBe(
      '2027-01-15T00:00:00.000Z',
    );
    expect((blog as unknown as { certificateExpiresAt: string | null }).certificateExpiresAt).toBeNull();
    expect(shop?.maintenance.map((m) => m.title)).toEqual(['Server upgrade']);
    expect((body.totals.previous as { incidents: number }).incidents).toBe(1);
  });

  it('HTML shows the JSON’s figures, branded and self-contained; CSV parses and neutralises formulas', async () => {
    const json = (await report(acme)).body;
    const html = await api.request<string>(
      'GET',
      `/api/customers/${acme}/reports?from=2026-10-01&to=2026-10-31&format=html`,
      {
        token,
      },
    );
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(html.headers.get('content-security-policy')).toContain("default-src 'none'");
    for (const site of json.websites)
      expect(html.body).toContain(`${site.figures.uptimePercent.toFixed(3)} %`);
    expect(html.body).toContain(`${json.totals.slaUptimePercent.toFixed(3)} %`);
    expect(html.body).toContain('Monitoring report: Acme Bakery');
    expect(html.body).toContain('1 October 2026 – 31 October 2026');
    expect(html.body).toContain('=HYPERLINK(&quot;http://evil.example&quot;)');
    expect(html.body).not.toContain('<script');

    const csv = await api.request<string>(
      'GET',
      `/api/customers/${acme}/reports?from=2026-10-01&to=2026-10-31&format=csv`,
      {
        token,
      },
    );
    expect(csv.headers.get('content-disposition')).toMatch(
      /attachment; filename="report-Acme-Bakery-2026-10-01-2026-10-31.csv"/,
    );
    const rows = parse(csv.body, { columns: true }) as Array<Record<string, string>>;
    const periodRows = rows.filter((row) => row.period_kind === 'period' && row.monitor === '');
    expect(periodRows.map((row) => row.website)).toEqual([
      'Shop',
      'Blog',
      `'=HYPERLINK("http://evil.example")`,
      '(all websites)',
    ]);
    expect(Number(periodRows[0]?.uptime_percent)).toBe(json.websites[0]?.figures.uptimePercent);
    expect(rows.filter((row) => row.period_kind === 'week').length).toBe(3 * 5);
  });

  it('PDF: printed by Chromium on A4 or Letter, its text (pdftotext) carries the same figures', async () => {
    const json = (await report(acme)).body;
    const dir = mkdtempSync(join(tmpdir(), 'webmon-report-'));
    try {
      for (const paper of ['A4', 'Letter'] as const) {
        const response = await fetch(
          `${api.api.url}/api/customers/${acme}/reports?from=2026-10-01&to=2026-10-31&format=pdf&paper=${paper}`,
          { headers: { authorization: `Bearer ${token}` } },
        );
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('application/pdf');
        const file = join(dir, `${paper}.pdf`);
        writeFileSync(file, Buffer.from(await response.arrayBuffer()));
        const info = (await run('pdfinfo', [file])).stdout;
        expect(info).toMatch(
          paper === 'A4' ? /Page size:.* pts \(A4\)/ : /Page size:\s+612 x 792 pts \(letter\)/,
        );
        if (paper !== 'A4') continue;
        const text = (await run('pdftotext', ['-layout', file, '-'])).stdout;
        expect(text).toContain('Monitoring report: Acme Bakery');
        for (const site of json.websites)
          expect(text).toContain(`${site.figures.uptimePercent.toFixed(3)} %`);
        for (const monitor of json.websites.flatMap((site) => site.monitors))
          expect(text).toContain(`${Number(monitor.figures.uptimePercent).toFixed(3)} %`);
        expect(text).toContain('Port check Database');
        expect(text).toContain(`${json.totals.slaUptimePercent.toFixed(3)} %`);
        mkdirSync(SCREENSHOTS, { recursive: true });
        await run('pdftoppm', [
          '-png',
          '-r',
          '80',
          '-f',
          '1',
          '-l',
          '1',
          '-singlefile',
          file,
          join(SCREENSHOTS, 'client-report-pdf'),
        ]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is branded: the organization’s logo, accent colour and footer, the customer’s cover line', async () => {
    // A 1×1 PNG; an SVG (it could carry script) is refused whatever it claims to be.
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    ).toString('base64');
    const refused = await api.request<{ errors: Array<{ path: string }> }>('PUT', '/api/organization/logo', {
      token,
      body: { contentType: 'image/png', data: svg },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]?.path).toBe('data');
    const uploaded = await api.request<{ branding: { logo: { sha256: string } | null } }>(
      'PUT',
      '/api/organization/logo',
      {
        token,
        body: { contentType: 'image/png', data: png },
      },
    );
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.branding.logo?.sha256).toMatch(/^[0-9a-f]{64}$/);
    const served = await api.request<{ contentType: string; data: string }>('GET', '/api/organization/logo', {
      token,
    });
    expect(served.body).toMatchObject({ contentType: 'image/png', data: png });
    const branded = await api.request('PATCH', '/api/organization', {
      token,
      body: { branding: { accentColor: '#b45309', footerText: 'Looked after by Example Agency <3' } },
    });
    expect(branded.status).toBe(200);
    const intro = await api.request('PATCH', `/api/customers/${acme}`, {
      token,
      body: { reportIntro: 'October: PHP 8.3 upgrade, CDN in front of the shop.' },
    });
    expect(intro.status).toBe(200);
    const html = (
      await api.request<string>(
        'GET',
        `/api/customers/${acme}/reports?from=2026-10-01&to=2026-10-31&format=html`,
        { token },
      )
    ).body;
    expect(html).toContain(`<img src="data:image/png;base64,${png}"`);
    expect(html).toContain('--accent: #b45309');
    expect(html).toContain('Looked after by Example Agency &lt;3');
    expect(html).toContain('October: PHP 8.3 upgrade, CDN in front of the shop.');
    const viewer = await api.createToken(organizationId, ['read']);
    expect(
      (await api.request('PATCH', '/api/organization', { token: viewer, body: { name: 'x' } })).status,
    ).toBe(403);
  });

  it('defaults to the last full month; refuses a period that is not one, naming the field', async () => {
    const latest = await report(acme, '');
    expect(latest.status).toBe(200);
    expect(latest.body.period.days).toBeGreaterThanOrEqual(28);
    const backwards = await api.request<{ errors: Array<{ path: string }> }>(
      'GET',
      `/api/customers/${acme}/reports?from=2026-10-02&to=2026-10-01`,
      { token },
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors[0]?.path).toBe('to');
    const notADay = await api.request<{ errors: Array<{ path: string }> }>(
      'GET',
      `/api/customers/${acme}/reports?from=2026-02-30`,
      { token },
    );
    expect(notADay.status).toBe(400);
    expect(notADay.body.errors[0]?.path).toBe('from');
  });

  it('lists each website’s other monitors with their own uptime and incidents, the customer’s only, no secret', async () => {
    const { body } = await report(acme);
    const blog = body.websites.find((w) => w.name === 'Blog');
    // The HTTP check's figures stay its own: the monitors' incidents are not in them.
    expect(blog?.figures.uptimePercent).toBe(100);
    expect(body.totals.uptimePercent).toBe(Math.round((1 - 7200 / (3 * OCTOBER_SECONDS)) * 100_000) / 1000);
    const port = blog?.monitors.find((m) => m.id === portCheck);
    const backup = blog?.monitors.find((m) => m.id === heartbeat);
    // Kind, name, the host it checks and figures: nothing of its settings.
    expect(Object.keys(port ?? {}).sort()).toEqual(['figures', 'id', 'kind', 'name', 'target']);
    expect(port).toMatchObject({ kind: 'port', name: 'Database', target: 'blog.acme.example' });
    // Down 1 h 30 min of October (the September incident not counted).
    expect(port?.figures).toMatchObject({
      uptimePercent: Math.round((1 - 5400 / OCTOBER_SECONDS) * 100_000) / 1000,
      slaUptimePercent: Math.round((1 - 5400 / OCTOBER_SECONDS) * 100_000) / 1000,
      monitoredSeconds: OCTOBER_SECONDS,
      downtimeSeconds: 5400,
      incidents: 1,
      mttrSeconds: 5400,
    });
    // Added on 17 October (Berlin): 15 days and the hour summer time gave back; 30 min down before the end.
    expect(backup).toMatchObject({ kind: 'heartbeat', name: 'Nightly backup', target: null });
    expect(backup?.figures).toMatchObject({
      monitoredSeconds: 1_299_600,
      downtimeSeconds: 1800,
      uptimePercent: Math.round((1 - 1800 / 1_299_600) * 100_000) / 1000,
      incidents: 1,
    });
    expect(blog?.incidents.map((i) => [i.cause, i.monitor?.kind ?? null])).toEqual([
      ['connect ECONNREFUSED', 'port'],
      ['no ping', 'heartbeat'],
    ]);
    expect(body.websites.find((w) => w.name === 'Shop')?.incidents.every((i) => i.monitor === null)).toBe(
      true,
    );
    const text = JSON.stringify(body);
    expect(text).not.toContain('Globex DB');
    expect(text).not.toContain('globex refused');
    expect(text).not.toContain(heartbeatToken);

    // Another customer's report has its own monitor (down, so monitored without a check), not Acme's.
    const other = (await report(globex)).body;
    expect(other.websites[0]?.monitors.map((m) => m.name)).toEqual(['Globex DB']);
    expect(other.websites[0]?.monitors[0]?.figures.uptimePercent).toBe(
      Math.round((1 - 18_000 / OCTOBER_SECONDS) * 100_000) / 1000,
    );
    expect(JSON.stringify(other)).not.toContain('Nightly backup');

    const html = (
      await api.request<string>(
        'GET',
        `/api/customers/${acme}/reports?from=2026-10-01&to=2026-10-31&format=html`,
        { token },
      )
    ).body;
    expect(html).toContain('<span class="kind">Port check</span> Database');
    expect(html).toContain('<span class="kind">Heartbeat</span> Nightly backup');
    expect(html).toContain(`${Number(port?.figures.uptimePercent).toFixed(3)} %`);
    expect(html).toContain(`${Number(backup?.figures.uptimePercent).toFixed(3)} %`);
    expect(html).toContain('<td>Port check: Database</td>');
    expect(html).not.toContain(heartbeatToken);
    expect(html).not.toContain('Globex DB');

    const csv = await api.request<string>(
      'GET',
      `/api/customers/${acme}/reports?from=2026-10-01&to=2026-10-31&format=csv`,
      { token },
    );
    const rows = parse(csv.body, { columns: true }) as Array<Record<string, string>>;
    const monitorRows = rows.filter((row) => row.monitor !== '');
    expect(
      monitorRows.map((row) => [row.website, row.monitor_kind, row.monitor, row.monitor_target]),
    ).toEqual([
      ['Blog', 'port', 'Database', 'blog.acme.example'],
      ['Blog', 'heartbeat', 'Nightly backup', ''],
    ]);
    expect(Number(monitorRows[0]?.uptime_percent)).toBe(port?.figures.uptimePercent);
    expect(monitorRows[0]).toMatchObject({
      period_kind: 'period',
      downtime_seconds: '5400',
      incidents: '1',
      checks: '',
    });
    expect(rows.find((row) => row.website === 'Shop' && row.period_kind === 'period')?.monitor_kind).toBe(
      'http',
    );
    expect(csv.body).not.toContain(heartbeatToken);
  });

  it('a client user reads its own customer’s report and gets 404 for another’s', async () => {
    const client = await createUser(api, organizationId, 'client', acme);
    const cookie = await signIn(api, client.email);
    const own = await withCookie(
      api,
      cookie,
      'GET',
      `/api/customers/${acme}/reports?from=2026-10-01&to=2026-10-31`,
    );
    expect(own.status).toBe(200);
    expect((await withCookie(api, cookie, 'GET', `/api/customers/${globex}/reports`)).status).toBe(404);
    expect((await report(999_999)).status).toBe(404);
  });
});
