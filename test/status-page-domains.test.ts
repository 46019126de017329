import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DnsServer, startDnsServer } from './support/dns-server.js';
import { createCustomer, createPackage, TestApi, withServices } from './support/harness.js';
import { getWithHost } from './support/host-request.js';

interface DomainView {
  host: string;
  verified: boolean;
  verifiedAt: string | null;
  checkedAt: string | null;
  lastCheck: string | null;
  records: Array<{ type: 'CNAME' | 'TXT'; name: string; value: string }>;
}
interface Problem {
  status: number;
  detail: string;
  errors?: Array<{ path: string; message: string }>;
}

const STATUS_HOST = 'status.agency.test';

describe('custom domains of status pages', () => {
  let api: TestApi;
  let dns: DnsServer;
  const orgs: Array<{ organizationId: number; token: string; pageId: number; slug: string; title: string }> =
    [];
  let readToken: string;
  const hostA = `status-${randomUUID().slice(0, 6)}.client-a.test`;
  const hostB = `status.client-b-${randomUUID().slice(0, 6)}.test`;

  const domains = (org: number) => `/api/status-pages/${orgs[org]?.pageId}/domains`;
  const call = <T = DomainView>(org: number, method: string, path: string, body?: unknown) =>
    api.request<T>(method, path, { token: orgs[org]?.token, body });
  const ask = (domain?: string) =>
    api.request(
      'GET',
      `/internal/tls/ask${domain === undefined ? '' : `?domain=${encodeURIComponent(domain)}`}`,
    );
  const byHost = (host: string, path = '/') => getWithHost(api.api.url, host, path);

  beforeAll(async () => {
    dns = await startDnsServer({});
    api = await TestApi.start({ DNS_RESOLVERS: dns.address, STATUS_PAGES_HOST: STATUS_HOST });
    for (const name of ['Alpha', 'Beta']) {
      const { organizationId, token } = await api.createOrganization(['admin']);
      const pkg = await createPackage(api, token);
      const customerId = await createCustomer(api, token, pkg.id);
      const slug = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}`;
      const title = `${name} services ${randomUUID().slice(0, 4)}`;
      const page = await api.request<{ id: number }>('POST', '/api/status-pages', {
        token,
        body: { slug, title, customerId, public: true },
      });
      expect(page.status).toBe(201);
      orgs.push({ organizationId, token, pageId: page.body.id, slug, title });
    }
    readToken = await api.createToken(orgs[0]?.organizationId ?? 0, ['read']);
  }, 60_000);
  afterAll(async () => {
    await api?.stop();
    await dns?.close();
  });

  it.each([
    ['192.0.2.7', 'IP address'],
    ['*.client-a.test', 'wildcard'],
    ['https://status.client-a.test/', 'no scheme'],
    [STATUS_HOST, 'own host'],
    ['localhost', 'own host'],
    ['client', 'full host name'],
  ])('refuses %j with a 400 naming the host (%s)', async (host, words) => {
    const refused = await call<Problem>(0, 'POST', domains(0), { host });
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]).toMatchObject({ path: 'host', message: expect.stringContaining(words) });
  });

  it('claims a domain unverified (IDN as punycode), listing the records to create; not served, no certificate', async () => {
    const idn = await call(0, 'POST', domains(0), { host: 'Bücher.Client-A.test.' });
    expect(idn.status).toBe(201);
    expect(idn.body.host).toBe('xn--bcher-kva.client-a.test');
    expect((await call(0, 'DELETE', `${domains(0)}/${idn.body.host}`)).status).toBe(204);

    const added = await call(0, 'POST', domains(0), { host: hostA });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ host: hostA, verified: false, verifiedAt: null, checkedAt: null });
    expect(added.body.records).toEqual([
      { type: 'CNAME', name: hostA, value: STATUS_HOST },
      {
        type: 'TXT',
        name: `_webmon-challenge.${hostA}`,
        value: expect.stringMatching(/^webmon-domain-verification=/),
      },
    ]);
    const again = await call<Problem>(0, 'POST', domains(0), { host: hostA });
    expect(again.status).toBe(409);
    expect(again.body.errors?.[0]?.path).toBe('host');

    const listed = await api.request<DomainView[]>('GET', domains(0), { token: readToken });
    expect(listed.status).toBe(200);
    expect(listed.body.map((d) => d.host)).toEqual([hostA]);
    expect(
      (await api.request('POST', domains(0), { token: readToken, body: { host: 'x.client-a.test' } })).status,
    ).toBe(403);

    const page = await byHost(hostA);
    expect(page.status).toBe(404);
    expect(page.type).toContain('text/plain');
    expect(page.body).not.toContain(orgs[0]?.title);
    expect((await ask(hostA)).status).toBe(404);
  });

  it('keeps one organization out of another’s page and domains', async () => {
    expect((await call(1, 'GET', domains(0))).status).toBe(404);
    expect((await call(1, 'POST', domains(0), { host: 'other.client-b.test' })).status).toBe(404);
    expect((await call(1, 'POST', `${domains(0)}/${hostA}/verify`)).status).toBe(404);
    expect((await call(1, 'DELETE', `${domains(0)}/${hostA}`)).status).toBe(404);
    // Another organization's unverified claim blocks no one.
    expect((await call(1, 'POST', domains(1), { host: hostA })).status).toBe(201);
  });

  it('verifies by a CNAME to the status host through the configured resolvers, then serves the page by Host', async () => {
    const unverified = await call(0, 'POST', `${domains(0)}/${hostA}/verify`);
    expect(unverified.status).toBe(200);
    expect(unverified.body.verified).toBe(false);
    expect(unverified.body.lastCheck).toMatch(/^Not verified: no CNAME .*NXDOMAIN/);
    expect(unverified.body.checkedAt).not.toBeNull();

    dns.setZone({ [hostA]: { CNAME: STATUS_HOST }, [STATUS_HOST]: { A: ['127.0.0.1'] } });
    const verified = await call(0, 'POST', `${domains(0)}/${hostA}/verify`);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      host: hostA,
      verified: true,
      lastCheck: expect.stringContaining('CNAME'),
    });
    expect(dns.queries.some((q) => q.name.toLowerCase() === hostA && q.type === 'CNAME')).toBe(true);

    expect((await ask(hostA)).status).toBe(200);
    expect((await ask(hostA.toUpperCase())).status).toBe(200);
    const page = await byHost(`${hostA}:8443`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(orgs[0]?.title);
    const data = await byHost(hostA, '/index.json');
    expect(data.status).toBe(200);
    expect(JSON.parse(data.body).title).toBe(orgs[0]?.title);
    expect((await byHost(hostA, `/status/${orgs[0]?.slug}.json`)).status).toBe(200);
    // Nothing else of the service by a page's domain: not the API, not another page.
    expect((await byHost(hostA, '/api/status-pages')).status).toBe(404);
    const other = await byHost(hostA, `/status/${orgs[1]?.slug}`);
    expect(other.body).not.toContain(orgs[1]?.title);
  });

  it('answers 409 naming the host to another organization for a domain held verified', async () => {
    const beta = await call<DomainView[]>(1, 'GET', domains(1));
    const token = beta.body.find((d) => d.host === hostA)?.records.find((r) => r.type === 'TXT')?.value ?? '';
    dns.setZone({
      [hostA]: { CNAME: STATUS_HOST },
      [`_webmon-challenge.${hostA}`]: { TXT: [[token]] },
    });
    const taken = await call<Problem>(1, 'POST', `${domains(1)}/${hostA}/verify`);
    expect(taken.status).toBe(409);
    expect(taken.body.errors?.[0]?.path).toBe('host');
    const added = await call<Problem>(1, 'POST', domains(1), { host: hostA.toUpperCase() });
    expect(added.status).toBe(409);
    expect(added.body.errors?.[0]).toMatchObject({
      path: 'host',
      message: expect.stringContaining('another organization'),
    });
    expect((await byHost(hostA)).body).toContain(orgs[0]?.title);
  });

  it('verifies by the token in TXT; each domain shows its own organization’s page only', async () => {
    const added = await call(1, 'POST', domains(1), { host: hostB });
    const token = added.body.records.find((r) => r.type === 'TXT')?.value ?? '';
    dns.setZone({
      [hostA]: { CNAME: STATUS_HOST },
      [`_webmon-challenge.${hostB}`]: { TXT: [['unrelated'], [token]] },
    });
    const verified = await call(1, 'POST', `${domains(1)}/${hostB}/verify`);
    expect(verified.body).toMatchObject({ verified: true, lastCheck: expect.stringContaining('TXT') });
    const page = await byHost(hostB);
    expect(page.body).toContain(orgs[1]?.title);
    expect(page.body).not.toContain(orgs[0]?.title);
    const alpha = await byHost(hostA);
    expect(alpha.body).toContain(orgs[0]?.title);
    expect(alpha.body).not.toContain(orgs[1]?.title);
  });

  it('follows a renamed slug', async () => {
    const slug = `renamed-${randomUUID().slice(0, 8)}`;
    const renamed = await call(0, 'PATCH', `/api/status-pages/${orgs[0]?.pageId}`, { slug });
    expect(renamed.status).toBe(200);
    const page = await byHost(hostA);
    expect(page.status).toBe(200);
    expect(page.body).toContain(orgs[0]?.title);
    expect((await byHost(hostA, `/status/${slug}.json`)).status).toBe(200);
  });

  it('answers unknown hosts a plain 404 naming nothing; the agency’s hosts as before', async () => {
    for (const host of ['nobody.example.test', STATUS_HOST.toUpperCase()]) {
      const answer = await byHost(host, `/status/${orgs[0]?.slug}`);
      expect(answer.body).not.toContain(orgs[0]?.title);
    }
    const unknown = await byHost('nobody.example.test');
    expect(unknown).toMatchObject({ status: 404, body: 'Not found.\n' });
    expect((await byHost('localhost:9', '/healthz')).status).toBe(200);
    expect((await byHost('127.0.0.1', '/healthz')).status).toBe(200);
    // Probes, metrics and the proxy's ask come by a service name too (Compose's api:8080).
    expect((await byHost('api:8080', '/healthz')).status).toBe(200);
    expect((await byHost('api:8080', '/metrics')).status).toBe(200);
    expect((await byHost('api:8080', '/internal/tls/ask?domain=nobody.example.test')).status).toBe(404);
    // A service name is the agency's (a proxy that does not keep Host sends it; no page domain has one label).
    expect((await byHost('api:8080', '/openapi.json')).status).toBe(200);
    expect((await byHost('api.internal.example:8080', '/openapi.json')).status).toBe(404);
    expect((await ask('nobody.example.test')).status).toBe(404);
    expect((await ask()).status).toBe(400);
    expect((await ask('not a host')).status).toBe(400);
  });

  it('stops serving and certifying a removed domain at once', async () => {
    expect((await call(0, 'DELETE', `${domains(0)}/${hostA}`)).status).toBe(204);
    expect((await ask(hostA)).status).toBe(404);
    expect((await byHost(hostA)).status).toBe(404);
    expect((await call(0, 'DELETE', `${domains(0)}/${hostA}`)).status).toBe(404);
    expect((await call(0, 'GET', domains(0))).body).toEqual([]);
  });

  it('replaces a page’s domains (PATCH domains), changing nothing for a bad one, and removes them with the page', async () => {
    const page = `/api/status-pages/${orgs[1]?.pageId}`;
    const refused = await call<Problem>(1, 'PATCH', page, { title: 'Renamed', domains: [hostB, '10.0.0.1'] });
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.map((e) => e.path)).toEqual(['domains.1']);
    expect((await call<{ title: string }>(1, 'GET', page)).body.title).toBe(orgs[1]?.title);
    const patched = await call(1, 'PATCH', page, { domains: [hostB, 'www.client-b.test'] });
    expect(patched.status).toBe(200);
    expect((await call<DomainView[]>(1, 'GET', domains(1))).body.map((d) => [d.host, d.verified])).toEqual([
      [hostB, true],
      ['www.client-b.test', false],
    ]);
    expect((await ask(hostB)).status).toBe(200);
    // The page's posts and subscribers go with it too.
    const post = await call<{ id: number }>(1, 'POST', `${page}/incidents`, {
      title: 'Down',
      components: [],
      status: 'investigating',
      message: 'Looking.',
    });
    expect(post.status).toBe(201);
    expect(
      (
        await api.request('POST', `/status/${orgs[1]?.slug}/subscriptions`, {
          body: { email: 'a@example.com' },
        })
      ).status,
    ).toBe(202);
    await expect
      .poll(() => api.db.collection('status_page_subscribers').countDocuments({ pageId: orgs[1]?.pageId }))
      .toBe(1);
    expect((await call(1, 'DELETE', page)).status).toBe(204);
    expect((await ask(hostB)).status).toBe(404);
    expect((await byHost(hostB)).status).toBe(404);
    expect(
      await api.db.collection('status_page_subscribers').countDocuments({ pageId: orgs[1]?.pageId }),
    ).toBe(0);
    expect(await api.db.collection('status_posts').countDocuments({ pageId: orgs[1]?.pageId })).toBe(0);
  });

  it('fills Redis’s verified hosts from MongoDB when Redis lost them', async () => {
    const host = `lost-${randomUUID().slice(0, 6)}.client-a.test`;
    const added = await call(0, 'POST', domains(0), { host });
    const token = added.body.records.find((r) => r.type === 'TXT')?.value ?? '';
    dns.setZone({ [`_webmon-challenge.${host}`]: { TXT: [[token]] } });
    expect((await call(0, 'POST', `${domains(0)}/${host}/verify`)).body.verified).toBe(true);
    await withServices(api, async (_, redis) => {
      await redis.del(`${api.config.REDIS_KEY_PREFIX}:status-domains:verified`);
    });
    expect((await ask(host)).status).toBe(200);
    expect((await byHost(host)).body).toContain(orgs[0]?.title);
  });
});
