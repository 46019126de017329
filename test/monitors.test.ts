import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { createLogger } from '../libs/logging/index.js';
import { type DnsServer, startDnsServer } from './support/dns-server.js';
import { createCustomer, createPackage, type TestApi, until } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { issue } from './support/pki-forge.js';
import { type Receiver, startReceiver } from './support/receiver.js';
import { greets } from './support/targets.js';

interface Delivered {
  type: string;
  data: {
    status: string;
    monitor?: { kind: string; monitorId: number; name: string };
    result?: { error: { code: string; message: string } | null } | null;
    dnsChange?: { previous: string[]; current: string[] };
  };
}

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as { port: number }).port;
}

describe('heartbeats, DNS and port checks of a website, end to end', { timeout: 120_000 }, () => {
  let stack: MonitoringStack;
  let api: TestApi;
  let token: string;
  let dns: DnsServer;
  let hooks: Receiver;
  let notifier: { stop(): Promise<void> };
  let websiteId: number;
  const servers: Server[] = [];
  let bannerPort: number;
  let tlsPort: number;
  let closedPort: number;

  beforeAll(async () => {
    dns = await startDnsServer({
      'shop.example': { A: ['192.0.2.10'], MX: [{ priority: 10, exchange: 'mx1.shop.example' }] },
    });
    const ca = issue({ commonName: 'Monitors Test CA', isCa: true, validToDays: 365 });
    const caFile = join(mkdtempSync(join(tmpdir(), 'webmon-monitors-')), 'ca.pem');
    writeFileSync(caFile, ca.cert);
    const leaf = issue({ commonName: '127.0.0.1', names: ['127.0.0.1'], issuer: ca, validToDays: 5 });
    const banner = createServer(greets('220 ready\r\n'));
    const tls = createTlsServer({ cert: leaf.cert, key: leaf.key }, greets('* OK ready\r\n'));
    const closed = createServer();
    servers.push(banner, tls);
    bannerPort = await listen(banner);
    tlsPort = await listen(tls as unknown as Server);
    closedPort = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    stack = await startMonitoringStack(
      'monitors-node',
      {},
      { DNS_RESOLVERS: dns.address, PROBE_EXTRA_CA_FILE: caFile },
    );
    ({ api, token } = stack);
    hooks = await startReceiver();
    const channel = await api.request('POST', '/api/notification-channels', {
      token,
      body: { type: 'webhook', name: 'Hook', config: { url: `${hooks.url}/hooks` } },
    });
    expect(channel.status, JSON.stringify(channel.body)).toBe(201);
    notifier = await startNotifier(api.config, createLogger('notifier', api.config.LOG_LEVEL));
    const website = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId: stack.customerId, name: 'Shop', url: stack.target.url, checkInterval: 60 },
    });
    expect(website.status).toBe(201);
    websiteId = website.body.id;
  });
  afterAll(async () => {
    await notifier?.stop();
    await hooks?.close();
    await stack?.stop();
    await dns?.close();
    for (const server of servers) server.close();
  });

  const delivered = (kind: string, monitorId: number) =>
    hooks
      .to('/hooks')
      .map((request) => JSON.parse(request.body) as Delivered)
      .filter((event) => event.type === kind && event.data.monitor?.monitorId === monitorId);
  const monitor = async (path: string) =>
    (
      await api.request<{ status: string; lastCause: string | null; pendingChange?: unknown }>('GET', path, {
        token,
      })
    ).body;

  it('a heartbeat every 10 s with 5 s grace: down within 16 s without a ping, alerted once; a ping brings it up', async () => {
    const created = await api.request<{
      id: number;
      pingUrl: string;
      nextExpectedAt: string[];
      deadlineAt: string;
    }>('POST', `/api/websites/${websiteId}/heartbeats`, {
      token,
      body: { name: 'Nightly backup', schedule: { periodSeconds: 10 }, graceSeconds: 5 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, pingUrl } = created.body;
    expect(pingUrl).toMatch(/\/ping\/[A-Za-z0-9_-]{22,}$/);
    expect(created.body.nextExpectedAt).toHaveLength(5);
    const startedAt = Date.now();
    await until(async () => (await monitor(`/api/heartbeats/${id}`)).status === 'down', 20_000);
    expect(Date.now() - startedAt).toBeLessThan(17_000);
    expect((await monitor(`/api/heartbeats/${id}`)).lastCause).toMatch(/no ping yet: one was expected by/);
    await until(async () => delivered('heartbeat.down', id).length > 0, 15_000);
    const path = new URL(pingUrl).pathname;
    const ping = await api.request('POST', path, {
      rawBody: 'backup done: 12 GB\n',
      headers: { 'content-type': 'text/plain' },
    });
    expect(ping.status, JSON.stringify(ping.body)).toBe(200);
    await until(async () => (await monitor(`/api/heartbeats/${id}`)).status === 'up', 15_000);
    await until(async () => delivered('heartbeat.up', id).length > 0, 15_000);
    expect(delivered('heartbeat.down', id)).toHaveLength(1);
    const pings = await api.request<{ items: Array<{ kind: string; body: string }> }>(
      'GET',
      `/api/heartbeats/${id}/pings`,
      {
        token,
      },
    );
    expect(pings.body.items[0]).toMatchObject({ kind: 'success', body: 'backup done: 12 GB\n' });
    // A failure with its exit code takes it down at once, naming the code and the log's first line.
    await api.request('POST', `${path}/3`, {
      rawBody: 'disk full\n',
      headers: { 'content-type': 'text/plain' },
    });
    await until(async () => (await monitor(`/api/heartbeats/${id}`)).status === 'down', 15_000);
    expect((await monitor(`/api/heartbeats/${id}`)).lastCause).toBe('the job exited with code 3: disk full');
    await api.request('GET', path);
    await until(async () => (await monitor(`/api/heartbeats/${id}`)).status === 'up', 15_000);
  });

  it('a run started and not finished within maxRunSeconds alerts', async () => {
    const created = await api.request<{ id: number; pingUrl: string }>(
      'POST',
      `/api/websites/${websiteId}/heartbeats`,
      {
        token,
        body: {
          name: 'Import',
          schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' },
          graceSeconds: 3600,
          maxRunSeconds: 2,
        },
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id } = created.body;
    const path = new URL(created.body.pingUrl).pathname;
    expect((await api.request('GET', `${path}/start`)).status).toBe(200);
    await until(async () => (await monitor(`/api/heartbeats/${id}`)).status === 'down', 15_000);
    expect((await monitor(`/api/heartbeats/${id}`)).lastCause).toMatch(/has not finished within 2 s/);
    await until(async () => delivered('heartbeat.down', id).length > 0, 15_000);

    // Its incident is listed as the heartbeat's, and acknowledging it reaches the heartbeat's own
    // state (its reminders stop), not the website's HTTP check's.
    const open = await api.request<{
      items: Array<{ id: string; monitor: { kind: string; id: number } | null }>;
    }>('GET', '/api/incidents?open=true', { token });
    const incident = open.body.items.find((i) => i.monitor?.kind === 'heartbeat' && i.monitor.id === id);
    expect(incident, JSON.stringify(open.body)).toBeDefined();
    const acknowledged = await api.request('POST', `/api/incidents/${incident?.id}/acknowledge`, {
      token,
      body: { note: 'Restarting the import' },
    });
    expect(acknowledged.status, JSON.stringify(acknowledged.body)).toBe(200);
    await until(async () => delivered('incident.acknowledged', id).length > 0, 15_000);
  });

  it('pings: an unknown token is 404, one token past its budget 429 with Retry-After, the URL shown to editors only', async () => {
    expect((await api.request('GET', '/ping/AAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await api.request('GET', '/ping/short')).status).toBe(404);
    const created = await api.request<{ id: number; pingUrl: string }>(
      'POST',
      `/api/websites/${websiteId}/heartbeats`,
      {
        token,
        body: { name: 'Flood', schedule: { periodSeconds: 3600 } },
      },
    );
    const path = new URL(created.body.pingUrl).pathname;
    const answers = await Promise.all(Array.from({ length: 200 }, () => api.request('GET', path)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    expect(statuses.filter((status) => status === 429)).toHaveLength(170);
    expect(
      Number(answers.find((answer) => answer.status === 429)?.headers.get('retry-after')),
    ).toBeGreaterThan(0);
    const viewer = await api.createToken(stack.organizationId, ['read']);
    const seen = await api.request<{ pingUrl: string | null }>('GET', `/api/heartbeats/${created.body.id}`, {
      token: viewer,
    });
    expect(seen.status).toBe(200);
    expect(seen.body.pingUrl).toBeNull();
    const listed = await api.request<{ items: Array<{ kind: string; pingUrl?: string | null }> }>(
      'GET',
      `/api/websites/${websiteId}/monitors`,
      { token: viewer },
    );
    expect(
      listed.body.items.filter((item) => item.kind === 'heartbeat').every((item) => item.pingUrl === null),
    ).toBe(true);
  });

  it('DNS: expected A and MX values pass; a changed answer raises dns.changed with both sets; NXDOMAIN and a silent server go down with the cause', async () => {
    const a = await api.request<{ id: number }>('POST', `/api/websites/${websiteId}/dns-checks`, {
      token,
      body: {
        recordType: 'A',
        host: 'shop.example',
        expected: ['192.0.2.10'],
        intervalSeconds: 10,
        timeoutSeconds: 1,
      },
    });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    const mx = await api.request<{ id: number; expected: string[] }>(
      'POST',
      `/api/websites/${websiteId}/dns-checks`,
      {
        token,
        body: {
          recordType: 'MX',
          host: 'shop.example',
          expected: ['10 MX1.Shop.Example.'],
          intervalSeconds: 10,
        },
      },
    );
    expect(mx.body.expected).toEqual(['10 mx1.shop.example']);
    const learning = await api.request<{ id: number }>('POST', `/api/websites/${websiteId}/dns-checks`, {
      token,
      body: { recordType: 'A', host: 'shop.example', expected: 'unchanged', intervalSeconds: 10 },
    });
    for (const id of [a.body.id, mx.body.id, learning.body.id])
      await until(async () => (await monitor(`/api/dns-checks/${id}`)).status === 'up', 20_000);
    const bad = await api.request<{ errors: Array<{ path: string }> }>(
      'POST',
      `/api/websites/${websiteId}/dns-checks`,
      {
        token,
        body: { recordType: 'MX', expected: ['mail.example'], intervalSeconds: 10 },
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.path)).toContain('expected.0');

    dns.setZone({
      'shop.example': { A: ['192.0.2.99'], MX: [{ priority: 10, exchange: 'mx1.shop.example' }] },
    });
    await until(async () => delivered('dns.changed', learning.body.id).length > 0, 40_000);
    const [changed] = delivered('dns.changed', learning.body.id);
    expect(changed?.data.dnsChange).toEqual({ previous: ['192.0.2.10'], current: ['192.0.2.99'] });
    expect((await monitor(`/api/dns-checks/${learning.body.id}`)).pendingChange).toMatchObject({
      current: ['192.0.2.99'],
    });
    await until(async () => (await monitor(`/api/dns-checks/${a.body.id}`)).status === 'down', 40_000);
    expect((await monitor(`/api/dns-checks/${a.body.id}`)).lastCause).toMatch(
      /expected 192\.0\.2\.10, got 192\.0\.2\.99/,
    );
    expect(
      (await api.request('POST', `/api/dns-checks/${learning.body.id}/accept-change`, { token })).status,
    ).toBe(200);
    await until(async () => (await monitor(`/api/dns-checks/${learning.body.id}`)).status === 'up', 40_000);

    dns.setZone({});
    await until(async () => (await monitor(`/api/dns-checks/${mx.body.id}`)).status === 'down', 40_000);
    expect((await monitor(`/api/dns-checks/${mx.body.id}`)).lastCause).toMatch(/NXDOMAIN/);
    dns.setOptions({ silent: true });
    await until(
      async () => /TIMEOUT|timed out/i.test((await monitor(`/api/dns-checks/${a.body.id}`)).lastCause ?? ''),
      40_000,
    );
    dns.setOptions({});
    const results = await api.request<{ items: Array<{ kind: string; monitorId: number; status: string }> }>(
      'GET',
      `/api/dns-checks/${a.body.id}/results`,
      { token },
    );
    expect(results.body.items[0]).toMatchObject({ kind: 'dns', monitorId: a.body.id, status: 'down' });
    const http = await api.request<{ items: Array<{ kind: string; monitorId: number }> }>(
      'GET',
      `/api/websites/${websiteId}/results?kind=http&limit=1`,
      { token },
    );
    expect(http.body.items[0]).toMatchObject({ kind: 'http', monitorId: websiteId });
    // Unfiltered, the website's results hold its DNS checks' beside its HTTP check's.
    const every = await api.request<{ items: Array<{ kind: string; monitorId: number }> }>(
      'GET',
      `/api/websites/${websiteId}/results?limit=1000`,
      { token },
    );
    expect(new Set(every.body.items.map((item) => item.kind))).toEqual(new Set(['http', 'dns']));
  });

  it('ports: a banner server is up, a certificate 5 days from expiry warns, a closed port is down', async () => {
    const create = async (body: Record<string, unknown>) => {
      const created = await api.request<{ id: number }>('POST', `/api/websites/${websiteId}/port-checks`, {
        token,
        body: { host: '127.0.0.1', intervalSeconds: 10, timeoutSeconds: 2, ...body },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id;
    };
    const smtp = await create({ port: bannerPort, expectBanner: '220' });
    const imaps = await create({ port: tlsPort, tls: true });
    const closed = await create({ port: closedPort });
    await until(async () => (await monitor(`/api/port-checks/${smtp}`)).status === 'up', 20_000);
    await until(async () => (await monitor(`/api/port-checks/${closed}`)).status === 'down', 40_000);
    expect((await monitor(`/api/port-checks/${closed}`)).lastCause).toMatch(/connection refused/);
    await until(async () => delivered('ssl.expiring', imaps).length > 0, 40_000);
    const results = await api.request<{
      items: Array<{
        banner: string | null;
        connectMs: number | null;
        tlsMs: number | null;
        certificate: { daysLeft: number } | null;
      }>;
    }>('GET', `/api/port-checks/${imaps}/results`, { token });
    expect(results.body.items[0]?.certificate?.daysLeft).toBeLessThanOrEqual(5);
    expect(results.body.items[0]?.tlsMs).toBeGreaterThan(0);
    const banner = await api.request<{ items: Array<{ banner: string | null }> }>(
      'GET',
      `/api/port-checks/${smtp}/results`,
      {
        token,
      },
    );
    expect(banner.body.items[0]?.banner).toBe('220 ready');
  });

  it('POST /api/monitors/{id}/run answers a DNS and a port check now, through their kinds, with what each saw', async () => {
    type Run = {
      kind: string;
      status: string;
      cause: string | null;
      address: string | null;
      timings: Record<string, number | null>;
      evidence: Record<string, unknown>;
    };
    dns.setZone({ 'run.example': { A: ['192.0.2.10'] } });
    const made: number[] = [];
    const make = async (path: string, body: object) => {
      const created = await api.request<{ id: number }>('POST', `/api/websites/${websiteId}/${path}`, {
        token,
        body: { intervalSeconds: 3600, timeoutSeconds: 2, ...body },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      made.push(created.body.id);
      const run = await api.request<Run>('POST', `/api/monitors/${created.body.id}/run`, { token });
      expect(run.status, JSON.stringify(run.body)).toBe(200);
      return run.body;
    };
    expect(
      await make('dns-checks', { recordType: 'A', host: 'run.example', expected: ['192.0.2.99'] }),
    ).toMatchObject({
      kind: 'dns',
      status: 'down',
      cause: 'A run.example: expected 192.0.2.99, got 192.0.2.10',
      address: null,
      evidence: { values: ['192.0.2.10'] },
    });
    const banner = await make('port-checks', { host: '127.0.0.1', port: bannerPort, expectBanner: '220' });
    expect(banner).toMatchObject({
      kind: 'port',
      status: 'up',
      address: '127.0.0.1',
      evidence: { banner: '220 ready' },
    });
    expect(banner.timings.connectMs).toBeGreaterThanOrEqual(0);
    const closed = await make('port-checks', { host: '127.0.0.1', port: closedPort });
    expect(closed).toMatchObject({ kind: 'port', status: 'down' });
    expect(closed.cause).toMatch(/connection refused/);
    for (const id of made)
      expect((await api.request('DELETE', `/api/monitors/${id}`, { token })).status).toBe(204);
  });

  it('the website’s status, the dashboard, its status page and a badge show its monitors', async () => {
    const status = await api.request<{ monitors: Array<{ kind: string; name: string; status: string }> }>(
      'GET',
      `/api/websites/${websiteId}/status`,
      { token },
    );
    expect(status.body.monitors.map((m) => m.kind)).toEqual(
      expect.arrayContaining(['heartbeat', 'dns', 'port']),
    );
    expect(status.body.monitors.find((m) => m.name === 'Import')).toMatchObject({ status: 'down' });
    const dashboard = await api.request<{
      items: Array<{ id: number; monitors: { total: number; down: number } }>;
    }>('GET', '/api/dashboard/websites', { token });
    const row = dashboard.body.items.find((item) => item.id === websiteId);
    expect(row?.monitors.total).toBe(status.body.monitors.length);
    expect(row?.monitors.down).toBe(status.body.monitors.filter((m) => m.status === 'down').length);
    const page = await api.request('POST', '/api/status-pages', {
      token,
      body: { slug: 'monitors-shop', title: 'Shop status', customerId: stack.customerId, public: true },
    });
    expect(page.status, JSON.stringify(page.body)).toBe(201);
    const json = await api.request<{
      websites: Array<{
        monitors: Array<{
          kind: string;
          name: string;
          statusText: string;
          days: Array<{ date: string; uptimePercent: number | null; downtimeSeconds: number }>;
        }>;
      }>;
      incidents: Array<{ website: string; open: boolean }>;
    }>('GET', '/status/monitors-shop.json');
    expect(json.body.websites[0]?.monitors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'Scheduled job', name: 'Import', statusText: 'Down' }),
      ]),
    );
    // Each monitor has its 90 days as the website has them: the down job's today holds its downtime,
    // and its open incident is listed by the website's and its own name.
    const job = json.body.websites[0]?.monitors.find((m) => m.name === 'Import');
    expect(job?.days).toHaveLength(90);
    expect(job?.days.at(-1)?.downtimeSeconds).toBeGreaterThan(0);
    expect(json.body.incidents).toContainEqual(
      expect.objectContaining({ website: expect.stringContaining('Scheduled job: Import'), open: true }),
    );
    const html = await api.request<string>('GET', '/status/monitors-shop');
    expect(html.body).toContain('Scheduled job: Import');
    expect(html.body.match(/<ol class="bars"/g)?.length).toBeGreaterThan(1);
    const { publicId } = (
      await api.request<{ publicId: string }>('GET', `/api/websites/${websiteId}`, { token })
    ).body;
    const badge = await api.request<string>('GET', `/badge/${publicId}/monitors.svg`);
    expect(badge.status).toBe(200);
    expect(badge.body).toMatch(/jobs &amp; checks: \d+ of \d+ down/);
  });

  it('in the website’s maintenance a missed heartbeat tells nobody; a paused website’s monitors are paused', async () => {
    const window = await api.request('POST', '/api/maintenance-windows', {
      token,
      body: {
        websiteId,
        title: 'Server move',
        startsAt: new Date(Date.now() - 1000).toISOString(),
        endsAt: new Date(Date.now() + 600_000).toISOString(),
      },
    });
    expect(window.status, JSON.stringify(window.body)).toBe(201);
    await until(async () => (await stack.status(websiteId)).status === 'maintenance', 20_000);
    const created = await api.request<{ id: number }>('POST', `/api/websites/${websiteId}/heartbeats`, {
      token,
      body: { name: 'During the move', schedule: { periodSeconds: 10 }, graceSeconds: 0 },
    });
    const { id } = created.body;
    expect((await monitor(`/api/heartbeats/${id}`)).status).toBe('maintenance');
    // Late at 10 s, looked at every second: well past it, nothing was told.
    await new Promise((resolve) => setTimeout(resolve, 14_000));
    expect(delivered('heartbeat.down', id)).toHaveLength(0);
    const { publicId } = (
      await api.request<{ publicId: string }>('GET', `/api/websites/${websiteId}`, { token })
    ).body;
    const paused = await api.request('PATCH', `/api/websites/${publicId}`, {
      token,
      body: { paused: true },
    });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect((await monitor(`/api/heartbeats/${id}`)).status).toBe('paused');
    const monitors = await api.request<{ items: Array<{ status: string }> }>(
      'GET',
      `/api/websites/${websiteId}/monitors`,
      {
        token,
      },
    );
    expect(new Set(monitors.body.items.map((item) => item.status))).toEqual(new Set(['paused']));
  });

  it('the package decides: a feature switched off refuses (403), the per-website limit answers 409', async () => {
    const pkg = await createPackage(api, token, {
      features: { heartbeats: false },
      limits: { minCheckIntervalSeconds: 10, maxPortChecksPerWebsite: 1 },
    });
    const customerId = await createCustomer(api, token, pkg.id, 'Small');
    const site = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Small site', url: stack.target.url, checkInterval: 60 },
    });
    const refused = await api.request('POST', `/api/websites/${site.body.id}/heartbeats`, {
      token,
      body: { name: 'x', schedule: { periodSeconds: 60 } },
    });
    expect(refused.status).toBe(403);
    const port = { host: '127.0.0.1', port: bannerPort, intervalSeconds: 10 };
    expect(
      (await api.request('POST', `/api/websites/${site.body.id}/port-checks`, { token, body: port })).status,
    ).toBe(201);
    expect(
      (await api.request('POST', `/api/websites/${site.body.id}/port-checks`, { token, body: port })).status,
    ).toBe(409);
  });
});
