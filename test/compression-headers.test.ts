import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent (fetch would decode them). */
  bytes: Buffer;
}

/** A request whose answer is read as the bytes on the wire: no decoding, no Accept-Encoding of its own. */
function raw(api: TestApi, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<RawResponse>((resolve, reject) => {
    const req = httpRequest(`${api.api.url}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (response: RawResponse) => {
  const coding = response.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(response.bytes);
  if (coding === 'gzip') return gunzipSync(response.bytes);
  return response.bytes;
};

describe('compression and security headers on every answer', () => {
  let api: TestApi;
  let token: string;
  let slug: string;
  let framedSlug: string;
  let badgePath: string;
  /** The browser app's script: its name carries the build's hash. */
  let appScript: string;

  beforeAll(async () => {
    api = await TestApi.start();
    await api.serveRegion('local');
    ({ token } = await api.createOrganization(['admin']));
    const pkg = await createPackage(api, token, { limits: { maxWebsites: 100 } });
    const customerId = await createCustomer(api, token, pkg.id);
    let publicId = '';
    for (let n = 1; n <= 20; n++) {
      const created = await api.request<{ publicId: string }>('POST', '/api/websites', {
        token,
        body: { customerId, name: `Site ${n}`, url: `https://site${n}.example.com/`, paused: true },
      });
      publicId = created.body.publicId;
    }
    badgePath = `/badge/${publicId}/status.svg`;
    appScript = /src="(\/assets\/[^"]+\.js)"/.exec((await raw(api, '/')).bytes.toString())?.[1] ?? 'missing';
    slug = `press-${randomUUID().slice(0, 8)}`;
    framedSlug = `framed-${randomUUID().slice(0, 8)}`;
    for (const [pageSlug, embedAllowedOrigins] of [
      [slug, []],
      [framedSlug, ['https://www.example.com', 'https://intranet.example.org:8443']],
    ] as const) {
      const page = await api.request('POST', '/api/status-pages', {
        token,
        body: { slug: pageSlug, title: 'Press', customerId, public: true, embedAllowedOrigins },
      });
      expect(page.status).toBe(201);
    }
  });
  afterAll(() => api?.stop());

  it('negotiates br, gzip or identity by Accept-Encoding and its q-values; the bytes decode to the same', async () => {
    const paths = [
      `/status/${slug}`,
      `/status/${slug}.json`,
      '/openapi.json',
      '/api/websites',
      '/',
      appScript,
    ];
    for (const path of paths) {
      const headers: Record<string, string> = path.startsWith('/api/')
        ? { authorization: `Bearer ${token}` }
        : {};
      const identity = await raw(api, path, headers);
      expect(identity.status, path).toBe(200);
      expect(identity.headers['content-encoding'], path).toBeUndefined();
      expect(identity.bytes.length, path).toBeGreaterThan(1024);
      const cases: Array<[string, string | undefined]> = [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0.5, gzip;q=0.8', 'gzip'],
        ['br;q=0, gzip;q=0', undefined],
        ['*', 'br'],
        ['identity', undefined],
      ];
      for (const [acceptEncoding, expected] of cases) {
        const answer = await raw(api, path, { ...headers, 'accept-encoding': acceptEncoding });
        expect(answer.headers['content-encoding'], `${path} ${acceptEncoding}`).toBe(expected);
        expect(answer.headers.vary, path).toMatch(/accept-encoding/i);
        expect(decode(answer).equals(identity.bytes), `${path} ${acceptEncoding}`).toBe(true);
        if (expected) expect(answer.bytes.length).toBeLessThan(identity.bytes.length / 2);
      }
    }
  });

  it('leaves small answers, HEAD and 304 uncompressed', async () => {
    const small = await raw(api, '/healthz', { 'accept-encoding': 'gzip, br' });
    expect(small.bytes.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    const badge = await raw(api, badgePath, { 'accept-encoding': 'gzip, br' });
    expect(badge.status).toBe(200);
    expect(badge.headers['content-encoding']).toBeUndefined();
    const head = await raw(api, `/status/${slug}`, { 'accept-encoding': 'gzip, br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(head.bytes.length).toBe(0);
    const etag = String((await raw(api, `/status/${slug}`, { 'accept-encoding': 'br' })).headers.etag);
    expect(etag).toMatch(/-br"$/);
    const notModified = await raw(api, `/status/${slug}`, { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.headers['content-encoding']).toBeUndefined();
    expect(notModified.bytes.length).toBe(0);
  });

  it('sets nosniff, a Referrer-Policy and a CSP on every route, problems included', async () => {
    const routes: Array<[string, Record<string, string>, number]> = [
      [`/status/${slug}`, {}, 200],
      [`/status/${slug}.json`, {}, 200],
      ['/status/no-such-page-here', {}, 404],
      ['/status/no-such-page-here.json', {}, 404],
      [badgePath, {}, 200],
      [`/badge/${randomUUID()}/status.svg`, {}, 404],
      ['/', {}, 200],
      [appScript, {}, 200],
      ['/openapi.json', {}, 200],
      ['/healthz', {}, 200],
      ['/api/websites', { authorization: `Bearer ${token}` }, 200],
      ['/api/websites', {}, 401],
      ['/api/no-such-route', {}, 404],
    ];
    for (const [path, headers, status] of routes) {
      const answer = await raw(api, path, headers);
      expect(answer.status, path).toBe(status);
      expect(answer.headers['x-content-type-options'], path).toBe('nosniff');
      expect(answer.headers['referrer-policy'], path).toMatch(
        /^(strict-origin-when-cross-origin|no-referrer)$/,
      );
      expect(answer.headers['content-security-policy'], path).toMatch(/default-src 'none'/);
    }
  });

  it('frames a page only where its embedAllowedOrigins say; JSON and the dashboard nowhere; badges anywhere', async () => {
    const closed = await raw(api, `/status/${slug}`);
    expect(closed.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(closed.headers['x-frame-options']).toBe('DENY');
    expect(closed.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');

    const framed = await raw(api, `/status/${framedSlug}`);
    expect(framed.headers['content-security-policy']).toContain(
      'frame-ancestors https://www.example.com https://intranet.example.org:8443',
    );
    expect(framed.headers['x-frame-options']).toBeUndefined();

    for (const path of [`/status/${slug}.json`, '/', '/api/no-such-route', '/status/nothing-here']) {
      const answer = await raw(api, path);
      expect(answer.headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
      expect(answer.headers['x-frame-options'], path).toBe('DENY');
    }
    const badge = await raw(api, badgePath);
    expect(badge.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(badge.headers['x-frame-options']).toBeUndefined();
  });

  it('refuses an embedding origin that is not an origin, naming the field', async () => {
    const [page] = (await api.request<Array<{ id: number }>>('GET', '/api/status-pages', { token })).body;
    for (const origin of [
      'https://www.example.com/path',
      'javascript:alert(1)',
      "https://a.example 'unsafe-inline'",
    ]) {
      const refused = await api.request<{ errors: Array<{ path: string }> }>(
        'PATCH',
        `/api/status-pages/${page?.id}`,
        { token, body: { embedAllowedOrigins: [origin] } },
      );
      expect(refused.status, origin).toBe(400);
      expect(refused.body.errors.map((error) => error.path)).toEqual(['embedAllowedOrigins.0']);
    }
  });
});
