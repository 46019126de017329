import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createPackage,
  scheduledInterval,
  TestApi,
  type TestResponse,
} from './support/harness.js';
import { encryptedKey, selfSignedClientCertificate } from './support/pki.js';

interface Website {
  id: number;
  publicId: string;
  [field: string]: unknown;
}
type Problem = { errors?: Array<{ path: string; message: string }>; detail: string };

describe('websites', () => {
  let api: TestApi;
  let organizationId: number;
  let token: string;
  let customerId: number;

  const create = (body: Record<string, unknown>, as = token) =>
    api.request<Website & Problem>('POST', '/api/websites', {
      token: as,
      body: { customerId, name: 'Shop', url: 'https://shop.example.com/', ...body },
    });
  const patch = (publicId: string, body: unknown, as = token) =>
    api.request<Website & Problem>('PATCH', `/api/websites/${publicId}`, { token: as, body });
  const pathsOf = (res: { body: Problem }) => (res.body.errors ?? []).map((e) => e.path).sort();

  beforeAll(async () => {
    api = await TestApi.start();
    // A serving region: websites are scheduled only where a monitoring node is active.
    await api.serveRegion('local');
    ({ organizationId, token } = await api.createOrganization(['admin']));
    const pkg = await createPackage(api, token, {
      limits: { minCheckIntervalSeconds: 30 },
      features: { multiRegion: false },
    });
    customerId = await createCustomer(api, token, pkg.id);
  });
  afterAll(() => api.stop());

  it('creates with defaults, answers 201 with Location, and schedules the checks', async () => {
    const res = await create({});
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/websites/${res.body.publicId}`);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      publicId: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
      organizationId,
      customerId,
      httpMethod: 'GET',
      customHeaders: {},
      requestBody: null,
      followRedirects: true,
      maxRedirects: 10,
      cookieHandling: 'jar',
      mtlsEnabled: false,
      mtlsClientCert: null,
      mtlsClientKeySet: false,
      checkInterval: 300,
      timeoutSeconds: 30,
      regions: [],
      paused: false,
    });
    expect(res.body).not.toHaveProperty('mtlsClientKey');
    expect(await scheduledInterval(api, res.body.id)).toBe(300_000);
  });

  it('gets a website by publicId and by integer id', async () => {
    const { body } = await create({ name: 'Lookup' });
    expect((await api.request<Website>('GET', `/api/websites/${body.publicId}`, { token })).body.id).toBe(
      body.id,
    );
    expect((await api.request<Website>('GET', `/api/websites/${body.id}`, { token })).body.publicId).toBe(
      body.publicId,
    );
    expect((await api.request('GET', '/api/websites/not-an-id', { token })).status).toBe(400);
    expect(
      (await api.request('GET', '/api/websites/00000000-0000-4000-8000-000000000000', { token })).status,
    ).toBe(404);
  });

  it('lists a customer’s websites', async () => {
    const res = await api.request<Website[]>('GET', `/api/websites?customerId=${customerId}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    expect(res.body.every((w) => w.customerId === customerId)).toBe(true);
    expect((await api.request('GET', '/api/websites?customerId=999999', { token })).status).toBe(404);
    // A required query parameter that is missing says so.
    const missing = await api.request<{ errors: Array<{ path: string; message: string }> }>(
      'GET',
      '/api/maintenance-windows',
      { token },
    );
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ path: 'websiteId', message: 'Required' }]);
  });

  it('lists the organization’s websites across customers, paged, with status, filters and tenancy', async () => {
    const pkg = await createPackage(api, token);
    const [first, second] = [
      await createCustomer(api, token, pkg.id),
      await createCustomer(api, token, pkg.id),
    ];
    const made: number[] = [];
    for (const [customer, paused] of [
      [first, false],
      [second, true],
    ] as const) {
      const created = await api.request<Website>('POST', '/api/websites', {
        token,
        body: { customerId: customer, name: 'Agency', url: 'https://agency.example.com/', paused },
      });
      made.push(created.body.id);
    }
    type Listed = Website & { status: string; lastCheckedAt: string | null };
    const all = await api.request<Listed[]>('GET', '/api/websites?limit=500', { token });
    expect(all.status).toBe(200);
    const mine = all.body.filter((w) => made.includes(w.id));
    expect(mine.map((w) => [w.customerId, w.status, w.lastCheckedAt])).toEqual([
      [first, 'unknown', null],
      [second, 'paused', null],
    ]);
    const paused = await api.request<Listed[]>('GET', '/api/websites?status=paused&limit=500', { token });
    expect(paused.body.every((w) => w.status === 'paused')).toBe(true);
    expect(paused.body.map((w) => w.id)).toContain(made[1]);

    // A page at a time, following the Link header.
    const seen: number[] = [];
    let next: string | null = '/api/websites?limit=2';
    while (next) {
      const page: TestResponse<Listed[]> = await api.request<Listed[]>('GET', next, { token });
      seen.push(...page.body.map((w) => w.id));
      next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1] ?? null;
    }
    expect(seen).toEqual(all.body.map((w) => w.id));

    const other = await api.createOrganization(['read']);
    expect((await api.request<Listed[]>('GET', '/api/websites', { token: other.token })).body).toEqual([]);
    expect((await api.request('GET', '/api/websites?status=sideways', { token })).status).toBe(400);

    // The summaries: the same websites, pages and filters in a few fields each.
    const summaries = await api.request<Array<Record<string, unknown>>>(
      'GET',
      '/api/websites/summaries?limit=1000',
      { token },
    );
    expect(summaries.status).toBe(200);
    expect(summaries.body).toEqual(
      all.body.map((w) => ({
        id: w.id,
        publicId: w.publicId,
        organizationId: w.organizationId,
        customerId: w.customerId,
        name: w.name,
        url: w.url,
        status: w.status,
        lastCheckedAt: w.lastCheckedAt,
      })),
    );
    const pausedSummaries = await api.request<Listed[]>('GET', '/api/websites/summaries?status=paused', {
      token,
    });
    expect(pausedSummaries.body.map((w) => w.id)).toEqual(paused.body.map((w) => w.id));
    const searched = await api.request<Listed[]>('GET', '/api/websites/summaries?q=agency.example', {
      token,
    });
    expect(searched.body.map((w) => w.id)).toEqual(expect.arrayContaining(made));
    const summaryIds: number[] = [];
    next = '/api/websites/summaries?limit=1';
    while (next) {
      const page: TestResponse<Listed[]> = await api.request<Listed[]>('GET', next, { token });
      summaryIds.push(...page.body.map((w) => w.id));
      next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1] ?? null;
      if (next) expect(next).toMatch(/^\/api\/websites\/summaries\?/);
    }
    expect(summaryIds).toEqual(all.body.map((w) => w.id));
    const tooMany = await api.request<{ errors: Array<{ path: string }> }>(
      'GET',
      '/api/websites/summaries?limit=1001',
      { token },
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0]?.path).toBe('limit');
    expect(
      (await api.request<Listed[]>('GET', '/api/websites/summaries', { token: other.token })).body,
    ).toEqual([]);
  });

  it('the dashboard overview pages by limit (at most 1,000) with each website’s customer', async () => {
    const pkg = await createPackage(api, token);
    const customer = await createCustomer(api, token, pkg.id, 'Overview Customer');
    for (const n of [1, 2, 3])
      await create({
        customerId: customer,
        name: `Overview ${n}`,
        url: `https://overview-${n}.example.com/`,
        paused: true,
      });
    type Overview = {
      items: Array<{ id: number; name: string; customerName: string; status: string }>;
      nextAfterId: number | null;
    };
    const all = await api.request<Overview>('GET', '/api/dashboard/websites?limit=1000', { token });
    expect(all.status).toBe(200);
    expect(all.body.nextAfterId).toBeNull();
    const mine = all.body.items.filter((item) => item.name.startsWith('Overview '));
    expect(mine.map((item) => [item.name, item.customerName, item.status])).toEqual([
      ['Overview 1', 'Overview Customer', 'paused'],
      ['Overview 2', 'Overview Customer', 'paused'],
      ['Overview 3', 'Overview Customer', 'paused'],
    ]);
    const seen: number[] = [];
    let afterId: number | null = 0;
    while (afterId !== null) {
      const page: TestResponse<Overview> = await api.request<Overview>(
        'GET',
        `/api/dashboard/websites?limit=2${afterId ? `&afterId=${afterId}` : ''}`,
        { token },
      );
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((item) => item.id));
      afterId = page.body.nextAfterId;
    }
    expect(seen).toEqual(all.body.items.map((item) => item.id));
    const tooMany = await api.request<Problem>('GET', '/api/dashboard/websites?limit=1001', { token });
    expect(tooMany.status).toBe(400);
    expect(pathsOf(tooMany)).toEqual(['limit']);
  });

  it('the dashboard overview builds a few pages at once: past those, 503 with Retry-After; the rest of the API answers on', async () => {
    const pkg = await createPackage(api, token, { limits: { maxWebsites: 100 } });
    const customer = await createCustomer(api, token, pkg.id, 'Crowd');
    const batch = await api.request('POST', '/api/websites/batch', {
      token,
      body: {
        items: Array.from({ length: 100 }, (_, n) => ({
          customerId: customer,
          name: `Crowd ${n}`,
          url: `https://crowd-${n}.example.com/`,
          paused: true,
        })),
      },
    });
    expect(batch.status).toBe(200);
    let lastOverviewAt = 0;
    const burst = Promise.all(
      Array.from({ length: 30 }, () =>
        api.request('GET', '/api/dashboard/websites?limit=1000', { token }).finally(() => {
          lastOverviewAt = performance.now();
        }),
      ),
    );
    // While the overviews are built and wait, the rest of the API answers (before the last of them).
    const during = await api.request('GET', '/api/websites/summaries?limit=10', { token });
    const duringAt = performance.now();
    const answers = await burst;
    expect(during.status).toBe(200);
    expect(duringAt).toBeLessThan(lastOverviewAt);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(2);
    // 30 at once: 2 built, 8 waiting, the others refused at once (each takes ~100 ms here).
    expect(statuses.filter((status) => status === 503).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 503)).toBe(true);
    const refused = answers.find((answer) => answer.status === 503);
    expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('a short interval without a timeout gets a default timeout that fits it', async () => {
    const quick = await createCustomer(
      api,
      token,
      (await createPackage(api, token, { limits: { minCheckIntervalSeconds: 10 } })).id,
    );
    const created = await api.request<Website & { timeoutSeconds: number }>('POST', '/api/websites', {
      token,
      body: { customerId: quick, name: 'Quick', url: 'https://quick.example.com/', checkInterval: 10 },
    });
    expect(created.status).toBe(201);
    expect(created.body.timeoutSeconds).toBe(9);
    const explicit = await api.request('POST', '/api/websites', {
      token,
      body: {
        customerId,
        name: 'Quick',
        url: 'https://quick.example.com/',
        checkInterval: 10,
        timeoutSeconds: 30,
      },
    });
    expect(explicit.status).toBe(400);
  });

  it.each([
    [{ url: 'ftp://example.com/' }, ['url']],
    [{ url: '/relative' }, ['url']],
    [{ url: 'https://user:pw@example.com/' }, ['url']],
    [{ name: '' }, ['name']],
    [{ name: 'x'.repeat(201) }, ['name']],
    [{ httpMethod: 'TRACE' }, ['httpMethod']],
    [{ customHeaders: { Host: 'evil.example' } }, ['customHeaders.Host']],
    [{ customHeaders: { 'transfer-encoding': 'chunked' } }, ['customHeaders.transfer-encoding']],
    [{ customHeaders: { 'Bad Header': 'x' } }, ['customHeaders.Bad Header']],
    [{ customHeaders: { 'X-Foo': 'a\r\nInjected: 1' } }, ['customHeaders.X-Foo']],
    [{ customHeaders: { 'X-A': '1', 'x-a': '2' } }, ['customHeaders.x-a']],
    [
      { customHeaders: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v'])) },
      ['customHeaders'],
    ],
    [{ requestBody: 'x'.repeat(64 * 1024 + 1) }, ['requestBody']],
    [{ httpMethod: 'HEAD', requestBody: '{}' }, ['requestBody']],
    [{ checkInterval: 0 }, ['checkInterval']],
    [{ checkInterval: 86_401 }, ['checkInterval']],
    [{ checkInterval: 60.5 }, ['checkInterval']],
    [{ checkInterval: '300' }, ['checkInterval']],
    [{ timeoutSeconds: 121 }, ['timeoutSeconds']],
    [{ checkInterval: 30, timeoutSeconds: 30 }, ['timeoutSeconds']],
    [{ maxRedirects: 21 }, ['maxRedirects']],
    [{ cookieHandling: 'keep' }, ['cookieHandling']],
    [{ regions: ['EU'] }, ['regions.0']],
    [{ followRedirects: 'yes' }, ['followRedirects']],
    [{ colour: 'red' }, ['colour']],
  ])('400 for %j naming %j', async (body, paths) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(pathsOf(res)).toEqual(paths);
  });

  it('enforces the package: minimum interval and multiRegion (403 naming the field)', async () => {
    const tooFast = await create({ checkInterval: 10, timeoutSeconds: 5 });
    expect(tooFast.status).toBe(403);
    expect(pathsOf(tooFast)).toEqual(['checkInterval']);
    const regions = await create({ regions: ['eu-west', 'us-east'] });
    expect(regions.status).toBe(403);
    expect(regions.body.detail).toContain('multiRegion');
  });

  it('enforces maxWebsites per customer, also under concurrency', async () => {
    const pkg = await createPackage(api, token, { limits: { maxWebsites: 3 } });
    const small = await createCustomer(api, token, pkg.id);
    const results = await Promise.all(Array.from({ length: 6 }, () => create({ customerId: small })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    const refused = results.filter((r) => r.status === 403);
    expect(refused).toHaveLength(3);
    expect(refused[0]?.body.detail).toContain('maxWebsites');
  });

  it('PATCH with the seed’s partial body changes only those fields and reschedules', async () => {
    const { body: website } = await create({
      customHeaders: { 'X-Token': 'abc' },
      httpMethod: 'POST',
      requestBody: '{"a":1}',
    });
    const res = await patch(website.publicId, { name: 'Renamed', checkInterval: 120, timeoutSeconds: 20 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Renamed',
      checkInterval: 120,
      timeoutSeconds: 20,
      customHeaders: { 'X-Token': 'abc' },
      httpMethod: 'POST',
      requestBody: '{"a":1}',
      url: 'https://shop.example.com/',
    });
    expect(await scheduledInterval(api, website.id)).toBe(120_000);
    expect(
      (await api.request<Website>('GET', `/api/websites/${website.publicId}`, { token })).body,
    ).toMatchObject({ name: 'Renamed' });
  });

  it('PATCH with customerId, name and url is a full update: omitted fields return to their defaults', async () => {
    const { body: website } = await create({
      customHeaders: { 'X-Token': 'abc' },
      httpMethod: 'POST',
      requestBody: '{"a":1}',
      followRedirects: false,
      checkInterval: 600,
      cookieHandling: 'none',
    });
    const res = await patch(website.publicId, {
      customerId,
      name: 'Full',
      url: 'https://full.example.com/health',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Full',
      url: 'https://full.example.com/health',
      customHeaders: {},
      httpMethod: 'GET',
      requestBody: null,
      followRedirects: true,
      checkInterval: 300,
      cookieHandling: 'jar',
    });
    expect(await scheduledInterval(api, website.id)).toBe(300_000);
  });

  it('PATCH refuses an empty body, a non-UUID path and bad values, and changes nothing then', async () => {
    const { body: website } = await create({ name: 'Stable' });
    expect((await patch(website.publicId, {})).status).toBe(400);
    expect(
      (await api.request('PATCH', `/api/websites/${website.id}`, { token, body: { name: 'x' } })).status,
    ).toBe(400);
    expect((await patch(website.publicId, { name: 'Changed', checkInterval: -5 })).status).toBe(400);
    expect(
      (await api.request<Website>('GET', `/api/websites/${website.publicId}`, { token })).body.name,
    ).toBe('Stable');
  });

  it('pausing removes the schedule, resuming restores it; DELETE removes website and schedule', async () => {
    const { body: website } = await create({});
    await patch(website.publicId, { paused: true });
    expect(await scheduledInterval(api, website.id)).toBeUndefined();
    await patch(website.publicId, { paused: false });
    expect(await scheduledInterval(api, website.id)).toBe(300_000);
    expect((await api.request('DELETE', `/api/websites/${website.id}`, { token })).status).toBe(400);
    expect((await api.request('DELETE', `/api/websites/${website.publicId}`, { token })).status).toBe(204);
    expect(await scheduledInterval(api, website.id)).toBeUndefined();
    expect((await api.request('GET', `/api/websites/${website.publicId}`, { token })).status).toBe(404);
  });

  it('concurrent PATCHes of different fields all land (no lost update)', async () => {
    const { body: website } = await create({});
    const changes = [
      { name: 'Concurrent' },
      { requestBody: 'ping' },
      { customHeaders: { 'X-A': '1' } },
      { followRedirects: false },
      { maxRedirects: 3 },
      { cookieHandling: 'none' },
      { httpMethod: 'POST' },
      { timeoutSeconds: 7 },
    ];
    const results = await Promise.all(changes.map((change) => patch(website.publicId, change)));
    expect(results.map((r) => r.status)).toEqual(changes.map(() => 200));
    const final = (await api.request<Website>('GET', `/api/websites/${website.publicId}`, { token })).body;
    expect(final).toMatchObject(Object.assign({}, ...changes));
  });

  it('refuses non-JSON and oversized bodies without storing anything', async () => {
    const before = (await api.request<Website[]>('GET', `/api/websites?customerId=${customerId}`, { token }))
      .body.length;
    const form = await api.request('POST', '/api/websites', {
      token,
      rawBody: `customerId=${customerId}&name=x&url=https://x.example.com`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    const broken = await api.request('POST', '/api/websites', {
      token,
      rawBody: '{"customerId":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    const huge = await create({ requestBody: 'x'.repeat(1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(
      (await api.request<Website[]>('GET', `/api/websites?customerId=${customerId}`, { token })).body.length,
    ).toBe(before);
  });

  it('another organization sees none of it', async () => {
    const { body: website } = await create({});
    const other = await api.createOrganization(['admin']);
    expect(
      (await api.request('GET', `/api/websites/${website.publicId}`, { token: other.token })).status,
    ).toBe(404);
    expect((await api.request('GET', `/api/websites/${website.id}`, { token: other.token })).status).toBe(
      404,
    );
    expect((await patch(website.publicId, { name: 'hijack' }, other.token)).status).toBe(404);
    expect(
      (await api.request('DELETE', `/api/websites/${website.publicId}`, { token: other.token })).status,
    ).toBe(404);
    expect(
      (await api.request('GET', `/api/websites/${website.id}/check-config`, { token: other.token })).status,
    ).toBe(404);
    expect(
      (await api.request('GET', `/api/websites?customerId=${customerId}`, { token: other.token })).status,
    ).toBe(404);
    const foreignCustomer = await create({}, other.token);
    expect(foreignCustomer.status).toBe(400);
    expect(pathsOf(foreignCustomer)).toEqual(['customerId']);
  });

  it('read tokens can only GET', async () => {
    const reader = await api.createToken(organizationId, ['read']);
    const { body: website } = await create({});
    expect((await api.request('GET', `/api/websites/${website.publicId}`, { token: reader })).status).toBe(
      200,
    );
    expect((await create({}, reader)).status).toBe(403);
    expect((await patch(website.publicId, { name: 'x' }, reader)).status).toBe(403);
    expect((await api.request('DELETE', `/api/websites/${website.publicId}`, { token: reader })).status).toBe(
      403,
    );
  });

  describe('client certificates (mTLS)', () => {
    const pair = selfSignedClientCertificate();
    const otherPair = selfSignedClientCertificate('someone else');

    it('stores a matching pair, never returns the key, and keeps it encrypted at rest', async () => {
      const res = await create({
        mtlsEnabled: true,
        mtlsClientCert: pair.certificate,
        mtlsClientKey: pair.key,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        mtlsEnabled: true,
        mtlsClientCert: pair.certificate,
        mtlsClientKeySet: true,
      });
      expect(JSON.stringify(res.body)).not.toContain('PRIVATE KEY');
      const stored = await api.db.collection('websites').findOne({ id: res.body.id });
      expect(JSON.stringify(stored)).not.toContain('PRIVATE KEY');
      expect(stored?.mtlsClientKey).toMatchObject({
        v: 1,
        kid: expect.any(String),
        iv: expect.any(String),
        data: expect.any(String),
      });
    });

    it('keeps the key when omitted (partial and full update), clears it with null', async () => {
      const { body: website } = await create({
        mtlsEnabled: true,
        mtlsClientCert: pair.certificate,
        mtlsClientKey: pair.key,
      });
      expect((await patch(website.publicId, { name: 'still mtls' })).body.mtlsClientKeySet).toBe(true);
      const full = await patch(website.publicId, {
        customerId,
        name: 'full',
        url: 'https://mtls.example.com/',
        mtlsEnabled: true,
        mtlsClientCert: pair.certificate,
      });
      expect(full.status).toBe(200);
      expect(full.body.mtlsClientKeySet).toBe(true);
      const clearWhileEnabled = await patch(website.publicId, { mtlsClientKey: null });
      expect(clearWhileEnabled.status).toBe(400);
      expect(pathsOf(clearWhileEnabled)).toEqual(['mtlsClientKey']);
      const cleared = await patch(website.publicId, { mtlsEnabled: false, mtlsClientKey: null });
      expect(cleared.body).toMatchObject({ mtlsEnabled: false, mtlsClientKeySet: false });
    });

    it.each([
      [
        'a key of another certificate',
        () => ({ mtlsClientCert: pair.certificate, mtlsClientKey: otherPair.key }),
        ['mtlsClientKey'],
      ],
      [
        'a certificate that is not PEM',
        () => ({ mtlsClientCert: 'hello', mtlsClientKey: pair.key }),
        ['mtlsClientCert'],
      ],
      [
        'a damaged certificate',
        () => {
          // Half of the DER is gone: never parseable, wherever the cut falls.
          const lines = pair.certificate.trim().split('\n');
          const truncated = [lines[0], ...lines.slice(1, Math.ceil(lines.length / 2)), lines.at(-1)].join(
            '\n',
          );
          return { mtlsClientCert: `${truncated}\n`, mtlsClientKey: pair.key };
        },
        ['mtlsClientCert'],
      ],
      [
        'a key that is not PEM',
        () => ({ mtlsClientCert: pair.certificate, mtlsClientKey: 'secret' }),
        ['mtlsClientKey'],
      ],
      [
        'an encrypted key',
        () => ({ mtlsClientCert: pair.certificate, mtlsClientKey: encryptedKey(pair.key) }),
        ['mtlsClientKey'],
      ],
      ['no certificate', () => ({ mtlsClientKey: pair.key }), ['mtlsClientCert']],
      ['no key', () => ({ mtlsClientCert: pair.certificate }), ['mtlsClientKey']],
    ])('400 for %s', async (_label, fields, paths) => {
      const res = await create({ mtlsEnabled: true, ...fields() });
      expect(res.status).toBe(400);
      expect(pathsOf(res)).toEqual(paths);
    });

    it('checks a new certificate against the stored key', async () => {
      const { body: website } = await create({
        mtlsEnabled: true,
        mtlsClientCert: pair.certificate,
        mtlsClientKey: pair.key,
      });
      const res = await patch(website.publicId, { mtlsClientCert: otherPair.certificate });
      expect(res.status).toBe(400);
      expect(pathsOf(res)).toEqual(['mtlsClientKey']);
    });

    it('keys sealed under a previous SECRETS_KEY still work after rotation', async () => {
      const { body: website } = await create({
        mtlsEnabled: true,
        mtlsClientCert: pair.certificate,
        mtlsClientKey: pair.key,
      });
      const oldKey = api.config.SECRETS_KEY!.toString('base64');
      const rotated = await TestApi.start({
        MONGODB_URL: api.config.MONGODB_URL,
        REDIS_KEY_PREFIX: api.config.REDIS_KEY_PREFIX,
        SECRETS_KEY: Buffer.alloc(32, 99).toString('base64'),
        SECRETS_KEYS_PREVIOUS: oldKey,
      });
      const withoutOldKey = await TestApi.start({
        MONGODB_URL: api.config.MONGODB_URL,
        REDIS_KEY_PREFIX: api.config.REDIS_KEY_PREFIX,
        SECRETS_KEY: Buffer.alloc(32, 98).toString('base64'),
      });
      try {
        // Replacing the certificate makes the API open the stored key to check the pair.
        const ok = await rotated.request('PATCH', `/api/websites/${website.publicId}`, {
          token,
          body: { mtlsClientCert: pair.certificate },
        });
        expect(ok.status).toBe(200);
        const lost = await withoutOldKey.request<Problem>('PATCH', `/api/websites/${website.publicId}`, {
          token,
          body: { mtlsClientCert: pair.certificate },
        });
        expect(lost.status).toBe(500);
        expect(lost.body.detail).toContain('SECRETS_KEYS_PREVIOUS');
        expect(JSON.stringify(lost.body)).not.toContain('PRIVATE KEY');
      } finally {
        await rotated.api.stop();
        await withoutOldKey.api.stop();
      }
    });

    it('403 when the package lacks mtls', async () => {
      const pkg = await createPackage(api, token, { features: { mtls: false } });
      const customer = await createCustomer(api, token, pkg.id);
      const res = await create({
        customerId: customer,
        mtlsEnabled: true,
        mtlsClientCert: pair.certificate,
        mtlsClientKey: pair.key,
      });
      expect(res.status).toBe(403);
      expect(res.body.detail).toContain('mtls');
    });
  });
});
