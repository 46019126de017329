import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { createUser, signIn, withCookie } from './support/people.js';

interface ExportDocument {
  format: string;
  customerId: number | null;
  packages: Array<{ id: number; key: string }>;
  customers: Array<{ id: number; name: string }>;
  websites: Array<{ id: number; name: string; url: string; checkConfig: { keyword: string | null } }>;
  maintenanceWindows: Array<{ title: string; websiteId: number }>;
  monitors: Array<Record<string, unknown> & { kind: string; name: string; websiteId: number }>;
  channels: Array<{ name: string; config: Record<string, unknown> }>;
  statusPages: Array<{ slug: string }>;
}

/** The websites' fields the CSV carries, by name, of an organization (what a round trip must keep). */
async function portfolio(api: TestApi, token: string) {
  const listed = await api.request<Array<{ publicId: string; name: string }>>(
    'GET',
    '/api/websites?limit=500',
    { token },
  );
  const shown = await Promise.all(
    listed.body.map(async ({ publicId }) => {
      const website = (
        await api.request<Record<string, unknown>>('GET', `/api/websites/${publicId}`, { token })
      ).body;
      const config = (
        await api.request<Record<string, unknown>>('GET', `/api/websites/${publicId}/check-config`, { token })
      ).body;
      return {
        name: website.name,
        url: website.url,
        checkInterval: website.checkInterval,
        timeoutSeconds: website.timeoutSeconds,
        httpMethod: website.httpMethod,
        paused: website.paused,
        keyword: config.checkKeywordEnabled ? config.keyword : null,
        keywordMode: config.checkKeywordEnabled ? config.keywordMode : null,
        expectedStatusCodes: config.expectedStatusCodes,
      };
    }),
  );
  return shown.sort((a, b) => String(a.name).localeCompare(String(b.name)));
}

describe('exports: everything configured, as JSON, or the websites as CSV that imports back', () => {
  let api: TestApi;
  let token: string;
  let organizationId: number;
  let acme: number;

  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true' });
    ({ organizationId, token } = await api.createOrganization(['admin']));
    const pkg = await createPackage(api, token, { limits: { minCheckIntervalSeconds: 60 } });
    acme = await createCustomer(api, token, pkg.id, 'Acme');
    const globex = await createCustomer(api, token, pkg.id, 'Globex, Inc.');
    const batch = await api.request<{ created: number; items: Array<{ website: { id: number } }> }>(
      'POST',
      '/api/websites/batch',
      {
        token,
        body: {
          items: [
            {
              customerId: acme,
              name: '=HYPERLINK("http://evil.example","click")',
              url: 'https://shop.acme.example/',
              checkInterval: 120,
              timeoutSeconds: 20,
              checkConfig: { checkKeywordEnabled: true, keyword: '-Sold out', keywordMode: 'absent' },
            },
            {
              customerId: acme,
              name: 'Acme API',
              url: 'https://api.acme.example/health',
              httpMethod: 'HEAD',
              paused: true,
              checkConfig: { expectedStatusCodes: ['200-299', '401'] },
            },
            { customerId: globex, name: 'Globex "main"', url: 'https://globex.example/' },
          ],
        },
      },
    );
    expect(batch.body.created).toBe(3);
    const window = await api.request('POST', '/api/maintenance-windows', {
      token,
      body: {
        websiteId: batch.body.items[0]?.website.id,
        title: 'Deploy',
        startsAt: new Date(Date.now() + 3_600_000).toISOString(),
        endsAt: new Date(Date.now() + 7_200_000).toISOString(),
      },
    });
    expect(window.status).toBe(201);
    const shop = batch.body.items[0]?.website.id;
    for (const [route, body] of [
      ['heartbeats', { name: 'Nightly backup', schedule: { periodSeconds: 86_400 } }],
      [
        'dns-checks',
        { name: 'Address', recordType: 'A', host: 'shop.acme.example', expected: ['192.0.2.7'] },
      ],
      [
        'monitors',
        {
          kind: 'websocket',
          name: 'Live feed',
          url: 'wss://shop.acme.example/live',
          headers: { 'X-Client': 'webmon', Authorization: 'Bearer ws-s3cret-token' },
        },
      ],
      [
        'monitors',
        {
          kind: 'grpc',
          name: 'Orders',
          host: 'grpc.acme.example',
          port: 50051,
          metadata: { 'x-api-key': 'grpc-s3cret' },
        },
      ],
    ] as const) {
      const made = await api.request('POST', `/api/websites/${shop}/${route}`, { token, body });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    const globexSite = batch.body.items[2]?.website.id;
    const port = await api.request('POST', `/api/websites/${globexSite}/port-checks`, {
      token,
      body: { name: 'Database', host: 'db.globex.example', port: 5432 },
    });
    expect(port.status).toBe(201);
    for (const body of [
      {
        type: 'slack',
        name: 'Acme Slack',
        scope: { customerId: acme },
        config: { webhookUrl: 'https://hooks.slack.com/services/T0/B0/s3cretHookPath' },
      },
      { type: 'webhook', name: 'Ops hook', config: { url: 'https://ops.example/hook' } },
    ])
      expect((await api.request('POST', '/api/notification-channels', { token, body })).status).toBe(201);
    const page = await api.request('POST', '/api/status-pages', {
      token,
      body: { slug: 'acme-export', title: 'Acme', customerId: acme },
    });
    expect(page.status).toBe(201);
  }, 60_000);
  afterAll(() => api.stop());

  it('as JSON: every kind of configuration, write-only fields left out; one customer’s alone', async () => {
    const all = await api.request<ExportDocument>('GET', '/api/exports', { token });
    expect(all.status).toBe(200);
    expect(all.headers.get('content-disposition')).toMatch(
      /^attachment; filename="webmon-organization-\d{4}-\d\d-\d\d\.json"$/,
    );
    expect(all.body).toMatchObject({ format: 'webmon', customerId: null });
    expect(all.body.customers.map((c) => c.name).sort()).toEqual(['Acme', 'Globex, Inc.']);
    expect(all.body.websites).toHaveLength(3);
    expect(all.body.websites.find((w) => w.name === 'Acme API')?.checkConfig).toMatchObject({
      expectedStatusCodes: ['200-299', '401'],
    });
    expect(all.body.maintenanceWindows.map((w) => w.title)).toEqual(['Deploy']);
    expect(all.body.statusPages.map((p) => p.slug)).toEqual(['acme-export']);
    expect(all.body.channels.find((c) => c.name === 'Acme Slack')?.config).toMatchObject({
      webhookUrlSet: true,
    });
    expect(JSON.stringify(all.body)).not.toContain('s3cretHookPath');
    // Every monitor with its kind's create fields; credentials named, never exported.
    const shop = all.body.websites.find((w) => w.url === 'https://shop.acme.example/');
    expect(all.body.monitors.map((m) => [m.kind, m.name]).sort()).toEqual([
      ['dns', 'Address'],
      ['grpc', 'Orders'],
      ['heartbeat', 'Nightly backup'],
      ['port', 'Database'],
      ['websocket', 'Live feed'],
    ]);
    expect(all.body.monitors.find((m) => m.kind === 'websocket')).toMatchObject({
      websiteId: shop?.id,
      url: 'wss://shop.acme.example/live',
      headers: { 'X-Client': 'webmon' },
      subprotocol: null,
      intervalSeconds: 300,
      timeoutSeconds: 10,
      secretNames: { headers: ['Authorization'] },
    });
    expect(all.body.monitors.find((m) => m.kind === 'grpc')).toMatchObject({
      metadata: {},
      secretNames: { metadata: ['x-api-key'] },
    });
    expect(all.body.monitors.find((m) => m.kind === 'dns')).toMatchObject({
      recordType: 'A',
      host: 'shop.acme.example',
      expected: ['192.0.2.7'],
      relearnAfterSeconds: 86_400,
    });
    const heartbeat = all.body.monitors.find((m) => m.kind === 'heartbeat');
    expect(heartbeat).toMatchObject({ schedule: { periodSeconds: 86_400 }, graceSeconds: 300 });
    // A heartbeat's token is its job's credential: neither it nor its ping URL is exported.
    expect(Object.keys(heartbeat ?? {}).sort()).toEqual(
      [
        'createdAt',
        'graceSeconds',
        'id',
        'kind',
        'maxRunSeconds',
        'name',
        'schedule',
        'updatedAt',
        'websiteId',
      ].sort(),
    );
    expect(JSON.stringify(all.body)).not.toMatch(/ws-s3cret-token|grpc-s3cret|\/ping\//);

    const one = await api.request<ExportDocument>('GET', `/api/exports?customerId=${acme}`, { token });
    expect(one.body.customerId).toBe(acme);
    expect(one.body.customers.map((c) => c.name)).toEqual(['Acme']);
    expect(one.body.websites.map((w) => w.name).sort()).toEqual([
      '=HYPERLINK("http://evil.example","click")',
      'Acme API',
    ]);
    expect(one.body.channels.map((c) => c.name)).toEqual(['Acme Slack']);
    expect(one.body.monitors.map((m) => m.name).sort()).toEqual([
      'Address',
      'Live feed',
      'Nightly backup',
      'Orders',
    ]);
  });

  it('as CSV: RFC 4180, formulas defused; imported into another organization it makes the same websites', async () => {
    const csv = await api.request<string>('GET', '/api/exports?format=csv', { token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = String(csv.body);
    expect(text.split('\r\n')[0]).toBe(
      'customer,name,url,intervalSeconds,timeoutSeconds,method,keyword,keywordMode,expectedStatusCodes,paused',
    );
    expect(text).toContain(`Acme,"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(text).toContain(`'-Sold out,absent`);
    expect(text).toContain('"Globex, Inc.","Globex ""main""",https://globex.example/');

    const other = await api.createOrganization(['admin']);
    const pkg = await createPackage(api, other.token, { limits: { minCheckIntervalSeconds: 60 } });
    await createCustomer(api, other.token, pkg.id, 'Acme');
    await createCustomer(api, other.token, pkg.id, 'Globex, Inc.');
    const started = await api.request<{ id: number }>('POST', '/api/imports', {
      token: other.token,
      body: { format: 'csv', content: text, customerColumn: 'customer' },
    });
    expect(started.status).toBe(202);
    await expect
      .poll(
        async () =>
          (
            await api.request<{ status: string }>('GET', `/api/imports/${started.body.id}`, {
              token: other.token,
            })
          ).body.status,
        { timeout: 20_000 },
      )
      .toBe('succeeded');
    expect(await portfolio(api, other.token)).toEqual(await portfolio(api, token));
  });

  it('of 100 websites or more: the windows and monitors of those that have them, and no others', async () => {
    // Past 100 websites the export asks which websites have lists at all before reading each one's.
    const other = await api.createOrganization(['admin']);
    const pkg = await createPackage(api, other.token, {
      limits: { minCheckIntervalSeconds: 60, maxWebsites: 500 },
    });
    const customerId = await createCustomer(api, other.token, pkg.id, 'Many');
    const batch = await api.request<{ items: Array<{ website: { id: number } }> }>(
      'POST',
      '/api/websites/batch',
      {
        token: other.token,
        body: {
          items: Array.from({ length: 120 }, (_, i) => ({
            customerId,
            name: `Site ${i}`,
            url: `https://site-${i}.many.example/`,
          })),
        },
      },
    );
    expect(batch.status, JSON.stringify(batch.body).slice(0, 500)).toBe(200);
    const [withWindow, withHeartbeat] = [batch.body.items[50]?.website.id, batch.body.items[110]?.website.id];
    const window = await api.request('POST', '/api/maintenance-windows', {
      token: other.token,
      body: {
        websiteId: withWindow,
        title: 'Move',
        startsAt: new Date(Date.now() + 3_600_000).toISOString(),
        endsAt: new Date(Date.now() + 7_200_000).toISOString(),
      },
    });
    expect(window.status).toBe(201);
    const heartbeat = await api.request('POST', `/api/websites/${withHeartbeat}/heartbeats`, {
      token: other.token,
      body: { name: 'Backup', schedule: { periodSeconds: 86_400 } },
    });
    expect(heartbeat.status).toBe(201);
    const exported = await api.request<ExportDocument>('GET', '/api/exports', { token: other.token });
    expect(exported.status).toBe(200);
    expect(exported.body.websites).toHaveLength(120);
    expect(exported.body.maintenanceWindows.map((w) => [w.title, w.websiteId])).toEqual([
      ['Move', withWindow],
    ]);
    expect(exported.body.monitors.map((m) => [m.name, m.websiteId])).toEqual([['Backup', withHeartbeat]]);
  });

  it('reads only the caller’s organization: another’s customer is unknown; a client user has no export', async () => {
    const other = await api.createOrganization(['admin']);
    const theirs = await createCustomer(api, other.token, (await createPackage(api, other.token)).id);
    const refused = await api.request<{ errors: Array<{ path: string }> }>(
      'GET',
      `/api/exports?customerId=${theirs}`,
      {
        token,
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e) => e.path)).toEqual(['customerId']);
    const client = await signIn(api, (await createUser(api, organizationId, 'client', acme)).email);
    expect((await withCookie(api, client, 'GET', '/api/exports')).status).toBe(404);
    const viewer = await signIn(api, (await createUser(api, organizationId, 'viewer')).email);
    expect((await withCookie(api, viewer, 'GET', '/api/exports?format=csv')).status).toBe(200);
  });
});
