import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

type Row = Record<string, unknown>;
interface ExportDocument {
  packages: Row[];
  customers: Row[];
  websites: Row[];
  maintenanceWindows: Row[];
  monitors: Row[];
  channels: Row[];
  statusPages: Row[];
}
interface ImportJob {
  id: number;
  status: string;
  progress: { done: number; total: number };
  report: {
    resources: Array<{
      kind: string;
      name: string;
      status: string;
      errors: Array<{ path: string; message: string }>;
    }>;
    adjusted: Array<{ name: string; changes: string[] }>;
  };
}

const strip = (row: Row, ...keys: string[]) =>
  Object.fromEntries(Object.entries(row).filter(([key]) => !keys.includes(key)));
const byText = (a: Row, b: Row) => JSON.stringify(a).localeCompare(JSON.stringify(b));

/** An export with every id and timestamp replaced by what it names (keys, names, URLs): what a round trip keeps. */
function comparable(doc: ExportDocument) {
  const packageKey = new Map(doc.packages.map((p) => [p.id, p.key]));
  const customerName = new Map(doc.customers.map((c) => [c.id, c.name]));
  const channelName = new Map(doc.channels.map((c) => [c.id, c.name]));
  const websiteUrl = new Map(doc.websites.map((w) => [w.id, w.url]));
  const timestamps = ['id', 'organizationId', 'createdAt', 'updatedAt'];
  return {
    packages: doc.packages.map((p) => strip(p, ...timestamps)).sort(byText),
    customers: doc.customers
      .map((c) => ({ ...strip(c, ...timestamps, 'packageId'), package: packageKey.get(c.packageId) }))
      .sort(byText),
    websites: doc.websites
      .map((w) => ({
        ...strip(w, ...timestamps, 'publicId', 'customerId', 'notificationChannelIds', 'checkConfig'),
        customer: customerName.get(w.customerId),
        channels: (w.notificationChannelIds as number[]).map((id) => channelName.get(id)),
        checkConfig: strip(w.checkConfig as Row, 'websiteId'),
      }))
      .sort(byText),
    maintenanceWindows: doc.maintenanceWindows
      .map((m) => ({ ...strip(m, ...timestamps, 'websiteId'), website: websiteUrl.get(m.websiteId) }))
      .sort(byText),
    // Credentials are write-only: not carried (the import says so), compared apart.
    monitors: doc.monitors
      .map((m) => ({
        ...strip(m, ...timestamps, 'websiteId', 'secretNames'),
        website: websiteUrl.get(m.websiteId),
      }))
      .sort(byText),
    channels: doc.channels
      .map((c) => {
        const scope = c.scope as { customerId?: number; listedOnly: boolean };
        return {
          ...strip(c, ...timestamps, 'scope'),
          scope: { ...scope, customerId: scope.customerId && customerName.get(scope.customerId) },
        };
      })
      .sort(byText),
    statusPages: doc.statusPages
      .map((s) => ({
        ...strip(s, ...timestamps, 'customerId', 'websiteIds'),
        customer: customerName.get(s.customerId),
        websites: (s.websiteIds as number[] | null)?.map((id) => websiteUrl.get(id)) ?? null,
      }))
      .sort(byText),
  };
}

describe('an export imports into another organization as the same configuration (webmon-json)', {
  timeout: 180_000,
}, () => {
  let source: TestApi;
  let elsewhere: TestApi;
  let token: string;
  let exported: ExportDocument;
  let exportedText: string;

  async function importInto(api: TestApi, into: string, body: Row): Promise<ImportJob> {
    const started = await api.request<ImportJob>('POST', '/api/imports', {
      token: into,
      body: { format: 'webmon-json', content: exportedText, ...body },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    for (let i = 0; i < 300; i += 1) {
      const job = await api.request<ImportJob>('GET', `/api/imports/${started.body.id}`, { token: into });
      if (job.body.status !== 'running') return job.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the import did not end');
  }

  beforeAll(async () => {
    [source, elsewhere] = await Promise.all([
      TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' }),
      TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' }),
    ]);
    ({ token } = await source.createOrganization(['admin']));
    const pro = await createPackage(source, token, {
      limits: { maxWebsites: 40, minCheckIntervalSeconds: 30 },
      alerting: { confirmations: 3, regionQuorum: 1 },
      features: { domainExpiryCheck: false },
    });
    await createPackage(source, token, { displayName: 'Unused package' });
    const acme = await createCustomer(source, token, pro.id, 'Acme');
    const globex = await createCustomer(source, token, pro.id, 'Globex');
    const hook = await source.request<{ id: number }>('POST', '/api/notification-channels', {
      token,
      body: {
        type: 'webhook',
        name: 'Ops webhook',
        config: { url: 'http://127.0.0.1:9/hooks' },
        events: ['website.down', 'website.up'],
      },
    });
    expect(hook.status).toBe(201);
    const mail = await source.request('POST', '/api/notification-channels', {
      token,
      body: {
        type: 'email',
        name: 'Acme mail',
        scope: { customerId: acme },
        config: { host: 'smtp.acme.example', from: 'alerts@acme.example', to: ['ops@acme.example'] },
      },
    });
    expect(mail.status).toBe(201);
    const batch = await source.request<{ items: Array<{ website: { id: number } }> }>(
      'POST',
      '/api/websites/batch',
      {
        token,
        body: {
          items: [
            {
              customerId: acme,
              name: 'Shop',
              url: 'https://shop.acme.example/',
              checkInterval: 60,
              httpMethod: 'POST',
              requestBody: '{"ping":true}',
              customHeaders: { 'X-Probe': 'webmon' },
              notificationChannelIds: [hook.body.id],
              checkConfig: { checkKeywordEnabled: true, keyword: 'Basket', expectedStatusCodes: ['200-299'] },
            },
            { customerId: acme, name: 'Blog', url: 'https://blog.acme.example/', paused: true },
            {
              customerId: globex,
              name: 'Globex API',
              url: 'https://api.globex.example/health',
              regions: [],
              checkConfig: {
                assertions: [{ source: 'jsonBody', path: '$.status', operator: 'equals', value: 'ok' }],
              },
            },
          ],
        },
      },
    );
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    const shop = batch.body.items[0]?.website.id;
    const windowCreated = await source.request('POST', '/api/maintenance-windows', {
      token,
      body: {
        websiteId: shop,
        title: 'Weekly deploy',
        startsAt: '2026-12-01T22:00:00+01:00',
        endsAt: '2026-12-01T23:30:00+01:00',
        timezone: 'Europe/Berlin',
        recurrence: { frequency: 'weekly', byWeekday: ['TU', 'TH'] },
      },
    });
    expect(windowCreated.status).toBe(201);
    // One monitor of every kind, on two websites of two customers.
    const globexApi = batch.body.items[2]?.website.id;
    for (const [website, route, body] of [
      [
        shop,
        'heartbeats',
        {
          name: 'Nightly backup',
          schedule: { cron: '30 2 * * *', timezone: 'Europe/Berlin' },
          graceSeconds: 900,
        },
      ],
      [
        shop,
        'dns-checks',
        { name: 'Mail exchanger', recordType: 'MX', host: 'acme.example', expected: ['10 mx.acme.example'] },
      ],
      [shop, 'dns-checks', { recordType: 'A', expected: 'unchanged', intervalSeconds: 600 }],
      [shop, 'port-checks', { name: 'Database', host: 'db.acme.example', port: 5432, expectBanner: 'PG' }],
      [
        shop,
        'monitors',
        { kind: 'icmp', name: 'Ping', count: 5, maxLossPercent: 20, maxRttMs: 300, timeoutSeconds: 5 },
      ],
      [
        shop,
        'monitors',
        {
          kind: 'udp',
          name: 'Game server',
          host: 'game.acme.example',
          port: 27_015,
          payload: 'ffff',
          payloadEncoding: 'hex',
          expect: { contains: 'ok' },
        },
      ],
      [
        globexApi,
        'monitors',
        {
          kind: 'grpc',
          name: 'Orders',
          port: 50_051,
          tls: true,
          service: 'orders.v1',
          metadata: { 'x-tenant': 'globex', 'x-api-key': 'grpc-secret' },
        },
      ],
      [
        globexApi,
        'monitors',
        {
          kind: 'websocket',
          name: 'Live feed',
          url: 'wss://api.globex.example/live',
          headers: { 'X-Client': 'webmon', Authorization: 'Bearer ws-secret' },
          subprotocol: 'chat.v2',
          send: 'ping',
          expect: { matches: '^pong' },
          intervalSeconds: 60,
        },
      ],
      [
        globexApi,
        'monitors',
        { kind: 'smtp', name: 'Outgoing mail', host: 'mail.globex.example', security: 'tls' },
      ],
      [globexApi, 'monitors', { kind: 'imap', host: 'mail.globex.example', port: 1993, security: 'tls' }],
      [globexApi, 'monitors', { kind: 'pop3', host: 'mail.globex.example', security: 'none' }],
      // Their interval and timeout are their schedule's: exported without them, taken back as they were.
      [shop, 'monitors', { kind: 'crawl', schedule: 'weekly', maxPages: 200, ignore: ['*/admin/*'] }],
      [
        shop,
        'monitors',
        { kind: 'lighthouse', presets: ['mobile', 'desktop'], thresholds: { performance: 50, maxDrop: 10 } },
      ],
    ] as const) {
      const made = await source.request('POST', `/api/websites/${website}/${route}`, { token, body });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    const page = await source.request('POST', '/api/status-pages', {
      token,
      body: {
        slug: `acme-${Date.now().toString(36)}`,
        title: 'Acme status',
        customerId: acme,
        websiteIds: [shop],
        public: true,
        branding: { accentColor: '#1570ef', footerText: 'Acme Ltd' },
      },
    });
    expect(page.status).toBe(201);
    const response = await source.request<ExportDocument>('GET', '/api/exports', { token });
    exported = response.body;
    exportedText = JSON.stringify(exported);
  });
  afterAll(async () => {
    await Promise.all([source?.stop(), elsewhere?.stop()]);
  });

  it('into another installation: export → import → export again gives the same configuration but for ids and timestamps', async () => {
    const { token: into } = await elsewhere.createOrganization(['admin']);
    const dry = await importInto(elsewhere, into, { dryRun: true });
    expect(dry.status, JSON.stringify(dry).slice(0, 600)).toBe('succeeded');
    expect(dry.report.resources.map((r) => r.status)).toEqual(
      Array(dry.report.resources.length).fill('would-create'),
    );
    expect(
      (await elsewhere.request<ExportDocument>('GET', '/api/exports', { token: into })).body.customers,
    ).toEqual([]);

    const job = await importInto(elsewhere, into, {});
    expect(job.status).toBe('succeeded');
    expect(job.report.resources.filter((r) => r.status !== 'created')).toEqual([]);
    expect(job.progress).toEqual({ done: job.report.resources.length, total: job.report.resources.length });
    const again = (await elsewhere.request<ExportDocument>('GET', '/api/exports', { token: into })).body;
    expect(comparable(exported).websites).toHaveLength(3);
    expect(comparable(exported).maintenanceWindows).toHaveLength(1);
    expect(exported.monitors.map((m) => m.kind).sort()).toEqual([
      'crawl',
      'dns',
      'dns',
      'grpc',
      'heartbeat',
      'icmp',
      'imap',
      'lighthouse',
      'pop3',
      'port',
      'smtp',
      'udp',
      'websocket',
    ]);
    expect(comparable(again)).toEqual(comparable(exported));
    expect(exported.monitors.find((m) => m.kind === 'crawl')).toMatchObject({
      schedule: 'weekly',
      maxPages: 200,
      ignore: ['*/admin/*'],
    });
    expect(exported.monitors.find((m) => m.kind === 'crawl')).not.toHaveProperty('intervalSeconds');
    // Their credentials are not carried: the import says which, and the monitors are made without them.
    expect(again.monitors.map((m) => m.secretNames).filter(Boolean)).toEqual([
      { metadata: [] },
      { headers: [], query: [], secrets: [] },
    ]);
    expect(job.report.adjusted).toContainEqual(
      expect.objectContaining({
        name: 'WebSocket check "Live feed" (Globex API)',
        changes: ['credentials not carried (write-only): headers.Authorization: give them as {env: NAME}'],
      }),
    );
    expect(job.report.resources.filter((r) => r.kind === 'monitor')).toHaveLength(13);

    // Run again: everything exists by its key, nothing is made twice.
    const second = await importInto(elsewhere, into, {});
    expect(second.report.resources.every((r) => r.status === 'exists')).toBe(true);
    const third = (await elsewhere.request<ExportDocument>('GET', '/api/exports', { token: into })).body;
    expect(third.websites).toHaveLength(exported.websites.length);
  });

  it('into another organization here: a slug taken by the source’s page is said, the rest is made; sealed values are said not carried', async () => {
    const slack = await source.request('POST', '/api/notification-channels', {
      token,
      body: {
        type: 'slack',
        name: 'Team Slack',
        config: { webhookUrl: 'https://hooks.slack.test/services/T0/B0/secret' },
      },
    });
    expect(slack.status).toBe(201);
    exportedText = JSON.stringify((await source.request('GET', '/api/exports', { token })).body);
    expect(exportedText).not.toContain('hooks.slack.test');
    const { token: into } = await source.createOrganization(['admin']);
    const job = await importInto(source, into, {});
    expect(job.status).toBe('succeeded');
    const failed = job.report.resources.filter((r) => r.status !== 'created');
    expect(failed.map((r) => [r.kind, r.status])).toEqual([
      ['channel', 'failed'],
      ['statusPage', 'failed'],
    ]);
    expect(failed[0]?.errors.map((e) => e.path)).toContain('config.webhookUrl');
    expect(failed[1]?.errors[0]?.message).toMatch(/slug/i);
    expect(job.report.adjusted).toContainEqual(
      expect.objectContaining({
        name: 'channel "Team Slack"',
        changes: [expect.stringContaining('webhookUrl')],
      }),
    );
  });

  it('makes packages only for an admin: a write token’s import says so and skips what needs them', async () => {
    const { organizationId } = await source.createOrganization(['admin']);
    const writer = await source.createToken(organizationId, ['write']);
    const dry = await importInto(source, writer, { dryRun: true });
    const packages = dry.report.resources.filter((r) => r.kind === 'package');
    expect(packages.map((r) => r.status)).toEqual(['failed', 'failed']);
    expect(packages[0]?.errors[0]?.message).toContain('needs the admin scope');
    const job = await importInto(source, writer, {});
    expect(job.report.resources.filter((r) => r.status === 'created').map((r) => r.kind)).toEqual([
      'channel',
    ]);
    expect(job.report.resources.find((r) => r.kind === 'customer')?.status).toBe('skipped');
    expect((await source.request<Row[]>('GET', '/api/packages', { token: writer })).body).toEqual([]);
  });

  it('refuses content that is not an export, naming the field', async () => {
    const broken = await source.request<{ errors: Array<{ path: string }> }>('POST', '/api/imports', {
      token,
      body: { format: 'webmon-json', content: JSON.stringify({ ...exported, websites: [{ url: 1 }] }) },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.errors.map((e) => e.path)).toContain('content.websites.0.url');
    const withCustomer = await source.request<{ errors: Array<{ path: string }> }>('POST', '/api/imports', {
      token,
      body: { format: 'webmon-json', content: exportedText, customerId: 1 },
    });
    expect(withCustomer.status).toBe(400);
    expect(withCustomer.body.errors[0]?.path).toBe('customerId');
  });

  it('takes an import’s file past the API’s 1 MiB, up to 16 MiB', async () => {
    const rows = ['name,url', ...Array.from({ length: 40_000 }, (_, i) => `Site ${i},not a url ${i}`)].join(
      '\n',
    );
    expect(rows.length).toBeGreaterThan(1024 * 1024);
    const large = await source.request<{ errors: Array<{ path: string }> }>('POST', '/api/imports', {
      token,
      body: { format: 'csv', content: rows, customerId: 1, dryRun: true },
    });
    expect(large.status, JSON.stringify(large.body).slice(0, 300)).not.toBe(413);
    // Read only for a caller let in: a stranger's large body is not parsed (401, not "malformed JSON").
    const stranger = await source.request('POST', '/api/imports', {
      rawBody: `{${'x'.repeat(2 * 1024 * 1024)}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(stranger.status).toBe(401);
    const tooLarge = await source.request('POST', '/api/imports', {
      token,
      body: { format: 'csv', content: 'x'.repeat(17 * 1024 * 1024) },
    });
    expect(tooLarge.status).toBe(413);
    const elsewhereTooLarge = await source.request('POST', '/api/customers', {
      token,
      body: { name: 'x'.repeat(2 * 1024 * 1024), packageId: 1 },
    });
    expect(elsewhereTooLarge.status).toBe(413);
  });
});
