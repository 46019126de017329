import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DnsServer, startDnsServer } from './support/dns-server.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { cookieOf, createOrganizationId, createUser, signIn } from './support/people.js';

const PASSWORD = 'correct horse battery';

/** A raw request (redirects not followed: the password form's answer is a 303 with its cookie). */
async function call(
  api: TestApi,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
) {
  const response = await fetch(`${api.api.url}${path}`, { method, redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** A request with a `Host` of the test's choosing (fetch does not let one set it). */
function byHost(
  api: TestApi,
  host: string,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      new URL(path, api.api.url),
      { method, headers: { host, ...init.headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(init.body);
  });
}

const form = (password: string, headers: Record<string, string> = {}) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams({ password }).toString(),
});

describe('private status pages: password, address ranges, client users; the page’s badge and widget', () => {
  let api: TestApi;
  let token: string;
  let organizationId: number;
  let customerId: number;
  let otherCustomerId: number;
  const slugs = {
    open: `open-${randomUUID().slice(0, 8)}`,
    password: `pw-${randomUUID().slice(0, 8)}`,
    ranges: `net-${randomUUID().slice(0, 8)}`,
    clients: `cl-${randomUUID().slice(0, 8)}`,
  };
  const ids: Record<keyof typeof slugs, number> = { open: 0, password: 0, ranges: 0, clients: 0 };

  const createPage = async (slug: string, access?: Record<string, unknown>) => {
    const created = await api.request<{ id: number; access: Record<string, unknown> }>(
      'POST',
      '/api/status-pages',
      {
        token,
        body: { slug, title: `Private ${slug}`, customerId, public: true, ...(access ? { access } : {}) },
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };

  beforeAll(async () => {
    api = await TestApi.start({ TRUST_PROXY: 'true', PUBLIC_URL: 'https://app.agency.test' });
    organizationId = await createOrganizationId(api);
    token = await api.createToken(organizationId, ['admin']);
    const pkg = await createPackage(api, token);
    customerId = await createCustomer(api, token, pkg.id, 'Client');
    otherCustomerId = await createCustomer(api, token, pkg.id, 'Other client');
    ids.open = (await createPage(slugs.open)).id;
    ids.password = (await createPage(slugs.password, { mode: 'password', password: PASSWORD })).id;
    ids.ranges = (
      await createPage(slugs.ranges, { mode: 'cidr', cidrs: ['203.0.113.0/24', '2001:db8:7::/48'] })
    ).id;
    ids.clients = (await createPage(slugs.clients, { mode: 'clients' })).id;
  });
  afterAll(() => api.stop());

  describe('the access setting', () => {
    it('is write-only for the password and reads as public on pages that never had one', async () => {
      const page = await api.request<{ access: unknown }>('GET', `/api/status-pages/${ids.password}`, {
        token,
      });
      expect(page.body.access).toEqual({ mode: 'password', passwordSet: true, cidrs: [] });
      expect(JSON.stringify(page.body)).not.toContain('scrypt');
      const open = await api.request<{ access: unknown }>('GET', `/api/status-pages/${ids.open}`, { token });
      expect(open.body.access).toEqual({ mode: 'public', passwordSet: false, cidrs: [] });
      // A page stored before access existed.
      await api.db.collection('status_pages').updateOne({ id: ids.open }, { $unset: { access: '' } });
      const older = await api.request<{ access: unknown }>('GET', `/api/status-pages/${ids.open}`, { token });
      expect(older.body.access).toEqual({ mode: 'public', passwordSet: false, cidrs: [] });
    });

    it('refuses a password mode without a password and a range that is not one, naming the field', async () => {
      const noPassword = await api.request<{ errors: Array<{ path: string }> }>(
        'PATCH',
        `/api/status-pages/${ids.open}`,
        {
          token,
          body: { access: { mode: 'password' } },
        },
      );
      expect(noPassword.status).toBe(400);
      expect(noPassword.body.errors.map((e) => e.path)).toContain('access.password');
      const badRange = await api.request<{ errors: Array<{ path: string }> }>(
        'PATCH',
        `/api/status-pages/${ids.open}`,
        {
          token,
          body: {
            access: { mode: 'cidr', cidrs: ['10.0.0.0/8', '10.0.0.0/33', '2001:db8::/48', 'example.com'] },
          },
        },
      );
      expect(badRange.status).toBe(400);
      expect(badRange.body.errors.map((e) => e.path).sort()).toEqual(['access.cidrs.1', 'access.cidrs.3']);
      const created = await api.request<{ errors: Array<{ path: string }> }>('POST', '/api/status-pages', {
        token,
        body: { slug: `x-${randomUUID().slice(0, 8)}`, title: 'x', customerId, access: { mode: 'password' } },
      });
      expect(created.status).toBe(400);
      expect(created.body.errors.map((e) => e.path)).toContain('access.password');
    });
  });

  describe('a password page', () => {
    it('shows a form, not the page, to one without its session; its JSON twin is 404 as no page', async () => {
      const page = await call(api, 'GET', `/status/${slugs.password}`);
      expect(page.status).toBe(403);
      expect(page.text).toContain('<form method="post" action="/status/');
      expect(page.text).not.toContain(`Private ${slugs.password}`);
      expect(page.text).not.toContain('<script');
      expect(page.headers.get('cache-control')).toBe('private, no-store');
      expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
      const json = await call(api, 'GET', `/status/${slugs.password}.json`);
      const none = await call(api, 'GET', '/status/no-such-page.json');
      expect(json.status).toBe(404);
      // The same problem as for no page at all (its instance is the path asked for).
      const { requestId: _a, instance: _b, ...problem } = JSON.parse(json.text);
      const { requestId: _c, instance: _d, ...nonePage } = JSON.parse(none.text);
      expect(problem).toEqual(nonePage);
    });

    it('refuses a wrong password, and a right one sets the page session that opens the page and its JSON twin', async () => {
      const wrong = await call(api, 'POST', `/status/${slugs.password}/access`, form('not it'));
      expect(wrong.status).toBe(403);
      expect(wrong.text).toContain('That password is not right');
      expect(wrong.headers.getSetCookie()).toEqual([]);

      const right = await call(api, 'POST', `/status/${slugs.password}/access`, form(PASSWORD));
      expect(right.status).toBe(303);
      expect(right.headers.get('location')).toBe(`/status/${slugs.password}`);
      const setCookie = right.headers.getSetCookie().join('\n');
      expect(setCookie).toMatch(
        /webmon_status_access=[^;]+; path=\/status\/pw-[^;]+; expires=[^;]+; samesite=lax; httponly/i,
      );
      expect(setCookie).not.toMatch(/secure/i);
      const cookie = cookieOf(right, 'webmon_status_access') as string;

      const page = await call(api, 'GET', `/status/${slugs.password}`, { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(page.text).toContain(`Private ${slugs.password}`);
      expect(page.headers.get('cache-control')).toBe('private, no-store');
      const json = await call(api, 'GET', `/status/${slugs.password}.json`, { headers: { cookie } });
      expect(json.status).toBe(200);
      expect(JSON.parse(json.text).title).toBe(`Private ${slugs.password}`);
      expect(json.headers.get('cache-control')).toBe('private, no-store');
      // A session of another page opens nothing here.
      expect((await call(api, 'GET', `/status/${slugs.clients}`, { headers: { cookie } })).status).toBe(403);
    });

    it('is Secure behind an HTTPS proxy, and JSON clients get 204 with the cookie', async () => {
      const json = await call(api, 'POST', `/status/${slugs.password}/access`, {
        headers: {
          'content-type': 'application/json',
          'x-forwarded-proto': 'https',
          'x-forwarded-for': '198.51.100.50',
        },
        body: JSON.stringify({ password: PASSWORD }),
      });
      expect(json.status).toBe(204);
      expect(json.headers.getSetCookie().join('\n')).toMatch(/; secure/i);
      const wrong = await call(api, 'POST', `/status/${slugs.password}/access`, {
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.50' },
        body: JSON.stringify({ password: 'nope' }),
      });
      expect(wrong.status).toBe(403);
      expect(JSON.parse(wrong.text).type).toBe('/problems/forbidden');
    });

    it('leaves a subscriber’s links (their own credential) open: leaving never needs the password', async () => {
      const link = await call(api, 'GET', `/status/${slugs.password}/subscriptions/1/unsubscribe?token=x`);
      expect(link.text).not.toContain('Enter the page’s password');
    });

    it('limits attempts per client address and page (429 with Retry-After)', async () => {
      const from = (address: string, password: string) =>
        call(api, 'POST', `/status/${slugs.password}/access`, form(password, { 'x-forwarded-for': address }));
      const answers: number[] = [];
      for (let i = 0; i < 10; i++) answers.push((await from('198.51.100.77', `wrong ${i}`)).status);
      expect(answers.every((status) => status === 403)).toBe(true);
      const limited = await from('198.51.100.77', PASSWORD);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.text).toContain('Too many attempts');
      // Another address is not held back by it.
      expect((await from('198.51.100.78', PASSWORD)).status).toBe(303);
    });

    it('ends every session of the page when its password changes', async () => {
      const right = await call(
        api,
        'POST',
        `/status/${slugs.password}/access`,
        form(PASSWORD, { 'x-forwarded-for': '198.51.100.60' }),
      );
      const cookie = cookieOf(right, 'webmon_status_access') as string;
      expect((await call(api, 'GET', `/status/${slugs.password}`, { headers: { cookie } })).status).toBe(200);
      const changed = await api.request('PATCH', `/api/status-pages/${ids.password}`, {
        token,
        body: { access: { mode: 'password', password: 'a brand new secret' } },
      });
      expect(changed.status).toBe(200);
      expect((await call(api, 'GET', `/status/${slugs.password}`, { headers: { cookie } })).status).toBe(403);
      expect((await call(api, 'GET', `/status/${slugs.password}.json`, { headers: { cookie } })).status).toBe(
        404,
      );
      const again = await call(
        api,
        'POST',
        `/status/${slugs.password}/access`,
        form('a brand new secret', { 'x-forwarded-for': '198.51.100.60' }),
      );
      expect(again.status).toBe(303);
    });
  });

  describe('a page for address ranges', () => {
    it('shows the page inside its ranges (IPv4 and IPv6, by X-Forwarded-For behind TRUST_PROXY)', async () => {
      for (const address of ['203.0.113.9', '2001:db8:7:1::5']) {
        const page = await call(api, 'GET', `/status/${slugs.ranges}`, {
          headers: { 'x-forwarded-for': address },
        });
        expect(page.status, address).toBe(200);
        expect(page.headers.get('cache-control')).toBe('private, no-store');
      }
      // The proxy's own entry is the last: what a client wrote before it does not count.
      const spoofed = await call(api, 'GET', `/status/${slugs.ranges}`, {
        headers: { 'x-forwarded-for': '203.0.113.9, 192.0.2.44' },
      });
      expect(spoofed.status).toBe(403);
    });

    it('answers a 403 page without detail outside them, and 404 to its JSON twin', async () => {
      const page = await call(api, 'GET', `/status/${slugs.ranges}`, {
        headers: { 'x-forwarded-for': '192.0.2.44' },
      });
      expect(page.status).toBe(403);
      expect(page.text).toContain('This status page is private');
      expect(page.text).not.toContain('203.0.113');
      expect(page.text).not.toContain(`Private ${slugs.ranges}`);
      expect(page.headers.get('cache-control')).toBe('private, no-store');
      const json = await call(api, 'GET', `/status/${slugs.ranges}.json`, {
        headers: { 'x-forwarded-for': '192.0.2.44' },
      });
      expect(json.status).toBe(404);
    });

    it('reads the connection’s address, not X-Forwarded-For, without TRUST_PROXY', async () => {
      const direct = await TestApi.start();
      try {
        const org = await createOrganizationId(direct);
        const directToken = await direct.createToken(org, ['admin']);
        const pkg = await createPackage(direct, directToken);
        const customer = await createCustomer(direct, directToken, pkg.id, 'Direct');
        const slug = `dir-${randomUUID().slice(0, 8)}`;
        const created = await direct.request('POST', '/api/status-pages', {
          token: directToken,
          body: {
            slug,
            title: 'Direct',
            customerId: customer,
            public: true,
            access: { mode: 'cidr', cidrs: ['203.0.113.0/24'] },
          },
        });
        expect(created.status).toBe(201);
        const claimed = await call(direct, 'GET', `/status/${slug}`, {
          headers: { 'x-forwarded-for': '203.0.113.9' },
        });
        expect(claimed.status).toBe(403);
        await direct.request('PATCH', `/api/status-pages/${(created.body as { id: number }).id}`, {
          token: directToken,
          body: { access: { mode: 'cidr', cidrs: ['127.0.0.0/8', '::1/128'] } },
        });
        expect((await call(direct, 'GET', `/status/${slug}`)).status).toBe(200);
      } finally {
        await direct.stop();
      }
    });
  });

  describe('a page for client users', () => {
    it('is shown to a client user of its customer and to the organization’s staff', async () => {
      const client = await signIn(api, (await createUser(api, organizationId, 'client', customerId)).email);
      const page = await call(api, 'GET', `/status/${slugs.clients}`, { headers: { cookie: client } });
      expect(page.status).toBe(200);
      expect(page.text).toContain(`Private ${slugs.clients}`);
      expect(page.headers.get('cache-control')).toBe('private, no-store');
      const staff = await signIn(api, (await createUser(api, organizationId, 'viewer')).email);
      expect(
        (await call(api, 'GET', `/status/${slugs.clients}.json`, { headers: { cookie: staff } })).status,
      ).toBe(200);
    });

    it('is not shown to a client of another customer, another organization, or an anonymous visitor', async () => {
      const other = await signIn(
        api,
        (await createUser(api, organizationId, 'client', otherCustomerId)).email,
      );
      const stranger = await signIn(
        api,
        (await createUser(api, await createOrganizationId(api), 'admin')).email,
      );
      for (const cookie of [other, stranger, undefined]) {
        const page = await call(
          api,
          'GET',
          `/status/${slugs.clients}`,
          cookie ? { headers: { cookie } } : {},
        );
        expect(page.status).toBe(403);
        expect(page.text).toContain(
          `https://app.agency.test/sign-in?next=${encodeURIComponent(`/status/${slugs.clients}`)}`,
        );
        expect(page.text).not.toContain(`Private ${slugs.clients}`);
        const json = await call(
          api,
          'GET',
          `/status/${slugs.clients}.json`,
          cookie ? { headers: { cookie } } : {},
        );
        expect(json.status).toBe(404);
      }
    });
  });

  describe('caching, badges and the widget', () => {
    it('answers a public page’s usual cache headers and a private one’s never', async () => {
      const open = await call(api, 'GET', `/status/${slugs.open}`);
      expect(open.status).toBe(200);
      expect(open.headers.get('cache-control')).toBe('no-cache');
      for (const slug of [slugs.password, slugs.ranges, slugs.clients])
        for (const path of [
          `/status/${slug}`,
          `/status/${slug}.json`,
          `/status/${slug}/badge.svg`,
          `/status/${slug}/widget`,
        ]) {
          const answer = await call(api, 'GET', path);
          expect(answer.headers.get('cache-control') ?? '', path).not.toMatch(/public|max-age/);
        }
    });

    it('serves the page’s badge and widget for a public page only', async () => {
      const badge = await call(api, 'GET', `/status/${slugs.open}/badge.svg`);
      expect(badge.status).toBe(200);
      expect(badge.headers.get('content-type')).toContain('image/svg+xml');
      expect(badge.text).toContain('status: no data');
      const widget = await call(api, 'GET', `/status/${slugs.open}/widget`);
      expect(widget.status).toBe(200);
      expect(widget.text).toContain(`Private ${slugs.open}`);
      expect(widget.text).toContain(`href="/status/${slugs.open}"`);
      expect(widget.text).not.toContain('<script');
      expect(widget.headers.get('content-security-policy')).not.toContain('frame-ancestors');
      expect(widget.headers.get('x-frame-options')).toBeNull();
      for (const slug of [slugs.password, slugs.ranges, slugs.clients]) {
        expect(
          (
            await call(api, 'GET', `/status/${slug}/badge.svg`, {
              headers: { 'x-forwarded-for': '203.0.113.9' },
            })
          ).status,
        ).toBe(404);
        const hidden = await call(api, 'GET', `/status/${slug}/widget`, {
          headers: { 'x-forwarded-for': '203.0.113.9' },
        });
        expect(hidden.status).toBe(404);
        expect(hidden.text).not.toContain(`Private ${slug}`);
      }
      expect((await call(api, 'GET', '/status/no-such-page/badge.svg')).status).toBe(404);
    });

    it('gives no public badge to a website on private pages only', async () => {
      const website = await api.request<{ publicId: string }>('POST', '/api/websites', {
        token,
        body: {
          customerId: otherCustomerId,
          name: 'Hidden shop',
          url: 'https://hidden.example.com/',
          paused: true,
        },
      });
      expect(website.status).toBe(201);
      const page = await api.request<{ id: number }>('POST', '/api/status-pages', {
        token,
        body: {
          slug: `hid-${randomUUID().slice(0, 8)}`,
          title: 'Hidden',
          customerId: otherCustomerId,
          public: true,
        },
      });
      const path = `/badge/${website.body.publicId}/status.svg`;
      expect((await call(api, 'GET', path)).status).toBe(200);
      await api.request('PATCH', `/api/status-pages/${page.body.id}`, {
        token,
        body: { access: { mode: 'password', password: PASSWORD } },
      });
      expect((await call(api, 'GET', path)).status).toBe(404);
    });
  });

  describe('on a page’s own domain', () => {
    const STATUS_HOST = 'status.agency.test';
    let dns: DnsServer;
    let domainApi: TestApi;
    const hosts = {
      password: `status-${randomUUID().slice(0, 6)}.client.test`,
      clients: `clients-${randomUUID().slice(0, 6)}.client.test`,
    };
    const domainSlugs = {
      password: `dpw-${randomUUID().slice(0, 8)}`,
      clients: `dcl-${randomUUID().slice(0, 8)}`,
    };

    beforeAll(async () => {
      dns = await startDnsServer({});
      domainApi = await TestApi.start({
        DNS_RESOLVERS: dns.address,
        STATUS_PAGES_HOST: STATUS_HOST,
        PUBLIC_URL: 'https://app.agency.test',
      });
      const org = await domainApi.createOrganization(['admin']);
      const customer = await createCustomer(
        domainApi,
        org.token,
        (await createPackage(domainApi, org.token)).id,
      );
      dns.setZone({
        [hosts.password]: { CNAME: STATUS_HOST },
        [hosts.clients]: { CNAME: STATUS_HOST },
        [STATUS_HOST]: { A: ['127.0.0.1'] },
      });
      for (const kind of ['password', 'clients'] as const) {
        const page = await domainApi.request<{ id: number }>('POST', '/api/status-pages', {
          token: org.token,
          body: {
            slug: domainSlugs[kind],
            title: `Domain ${kind}`,
            customerId: customer,
            public: true,
            access: kind === 'password' ? { mode: 'password', password: PASSWORD } : { mode: 'clients' },
          },
        });
        expect(page.status).toBe(201);
        const domains = `/api/status-pages/${page.body.id}/domains`;
        expect(
          (await domainApi.request('POST', domains, { token: org.token, body: { host: hosts[kind] } }))
            .status,
        ).toBe(201);
        const verified = await domainApi.request<{ verified: boolean }>(
          'POST',
          `${domains}/${hosts[kind]}/verify`,
          {
            token: org.token,
          },
        );
        expect(verified.body.verified).toBe(true);
      }
    }, 60_000);
    afterAll(async () => {
      await domainApi?.stop();
      await dns?.close();
    });

    it('asks for the password at /, and the page session’s cookie is for the whole domain', async () => {
      const host = hosts.password;
      const asked = await byHost(domainApi, host, 'GET', '/');
      expect(asked.status).toBe(403);
      expect(asked.text).toContain('action="/access"');
      expect(asked.text).not.toContain('Domain password');
      const entered = await byHost(domainApi, host, 'POST', '/access', form(PASSWORD));
      expect(entered.status).toBe(303);
      expect(entered.headers.location).toBe('/');
      const setCookie = [entered.headers['set-cookie'] ?? []].flat().join('\n');
      expect(setCookie).toMatch(/webmon_status_access=[^;]+; path=\/; /);
      const cookie = setCookie.split(';')[0] as string;
      const page = await byHost(domainApi, host, 'GET', '/', { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(page.text).toContain('Domain password');
      expect(page.headers['cache-control']).toBe('private, no-store');
      expect((await byHost(domainApi, host, 'GET', '/index.json', { headers: { cookie } })).status).toBe(200);
      expect((await byHost(domainApi, host, 'GET', '/badge.svg', { headers: { cookie } })).status).toBe(404);
    });

    it('sends a client-only page’s visitor to the page at the agency’s address, where the sign-in is', async () => {
      const page = await byHost(domainApi, hosts.clients, 'GET', '/');
      expect(page.status).toBe(403);
      expect(page.text).toContain('Your sign-in does not reach this address');
      expect(page.text).toContain(`href="https://app.agency.test/status/${domainSlugs.clients}"`);
      expect(page.text).not.toContain('Domain clients');
    });
  });
});
