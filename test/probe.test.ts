import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../libs/checks/index.js';
import {
  type ProbeOptions,
  type ProbeRequest,
  probeHttp,
  systemResolve,
  TlsContexts,
} from '../libs/probe/index.js';
import { STORE_PORTS } from '../libs/targets/index.js';
import { defaultCheckConfig } from '../libs/websites/index.js';
import { issue } from './support/pki-forge.js';
import { startHttpsTarget, startHttpTarget, type Target } from './support/targets.js';

const ca = issue({ commonName: 'webmon test CA', isCa: true, validToDays: 365 });
const resolveTestNames: ProbeOptions['resolve'] = async (hostname) => {
  if (hostname.endsWith('.test')) return ['127.0.0.1'];
  const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  throw error;
};
const options: ProbeOptions = {
  allowPrivateTargets: true,
  resolve: resolveTestNames,
  tls: new TlsContexts([ca.cert]),
  userAgent: 'webmon-test/1',
};

function request(url: string, overrides: Partial<ProbeRequest> = {}): ProbeRequest {
  return {
    url,
    method: 'GET',
    headers: {},
    body: null,
    followRedirects: true,
    maxRedirects: 10,
    cookieHandling: 'jar',
    clientCertificate: null,
    timeoutMs: 5000,
    maxBodyBytes: 10 * 1024 * 1024,
    ...overrides,
  };
}

const alerting = {
  confirmations: 2,
  recoveryConfirmations: 1,
  responseTimeThresholdMs: 5000,
  sslExpiryWarningDays: 14,
  domainExpiryWarningDays: 30,
  reminderIntervalMinutes: 0,
  regionQuorum: 1,
};

describe('HTTP probe', () => {
  let http: Target;
  let exempt: Target;
  beforeAll(async () => {
    http = await startHttpTarget();
    exempt = await startHttpTarget('127.0.0.2');
  });
  afterAll(async () => {
    await http.close();
    await exempt.close();
  });

  it('answers status, body, size and the timing phases', async () => {
    const result = await probeHttp(request(`http://shop.test:${http.port}/ok`), options);
    expect(result).toMatchObject({
      httpStatus: 200,
      error: null,
      sizeBytes: 28,
      bodyTruncated: false,
      redirects: [],
    });
    expect(result.body?.toString()).toContain('Welcome');
    const { timings } = result;
    expect(timings.total).toBeGreaterThanOrEqual(timings.connect + timings.ttfb);
    for (const phase of ['dns', 'connect', 'ttfb', 'download', 'total'] as const)
      expect(timings[phase]).toBeGreaterThanOrEqual(0);
    expect(timings.tls).toBe(0);
  });

  it('sends the method, custom headers and body; the User-Agent names the product unless overridden', async () => {
    const result = await probeHttp(
      request(`${http.url}/echo`, {
        method: 'POST',
        headers: { 'X-Api-Key': 'k1', 'Content-Type': 'application/json' },
        body: '{"ping":1}',
      }),
      options,
    );
    const echoed = JSON.parse(result.body!.toString());
    expect(echoed).toMatchObject({
      method: 'POST',
      body: '{"ping":1}',
      headers: { 'x-api-key': 'k1', 'user-agent': 'webmon-test/1' },
    });
    const custom = await probeHttp(
      request(`${http.url}/echo`, { headers: { 'User-Agent': 'Mine/2' } }),
      options,
    );
    expect(JSON.parse(custom.body!.toString()).headers['user-agent']).toBe('Mine/2');
  });

  it('follows redirects, recording each hop', async () => {
    const result = await probeHttp(request(`${http.url}/redirect/3`), options);
    expect(result.httpStatus).toBe(200);
    const timed = { dns: expect.any(Number), connect: expect.any(Number), tls: 0, ttfb: expect.any(Number) };
    expect(result.redirects).toEqual([
      { url: `${http.url}/redirect/3`, status: 302, timings: timed },
      { url: `${http.url}/redirect/2`, status: 301, timings: timed },
      { url: `${http.url}/redirect/1`, status: 307, timings: timed },
    ]);
    // Each hop's phases are its own; the result's add up every request, the final one too.
    const hopsTtfb = result.redirects.reduce((sum, hop) => sum + (hop.timings?.ttfb ?? 0), 0);
    expect(hopsTtfb).toBeGreaterThan(0);
    expect(hopsTtfb).toBeLessThanOrEqual(result.timings.ttfb);
    expect(result.finalUrl).toBe(`${http.url}/ok`);
  });

  it('does not follow when followRedirects is off, and reports the Location', async () => {
    const result = await probeHttp(request(`${http.url}/redirect/3`, { followRedirects: false }), options);
    expect(result).toMatchObject({ httpStatus: 302, location: '/redirect/2', redirects: [] });
  });

  it.each([
    ['/redirect/3', { maxRedirects: 2 }, 'TOO_MANY_REDIRECTS'],
    ['/loop/a', {}, 'REDIRECT_LOOP'],
    ['/to-file', {}, 'INVALID_REDIRECT'],
  ])('%s fails (case %#)', async (path, overrides, code) => {
    const result = await probeHttp(request(`${http.url}${path}`, overrides), options);
    expect(result.error?.code).toBe(code);
  });

  it('a redirect to another host drops credentials but keeps other headers', async () => {
    const result = await probeHttp(
      request(`http://shop.test:${http.port}/cross-host`, {
        headers: { Authorization: 'Bearer secret', 'X-Trace': 't1' },
      }),
      options,
    );
    expect(result.redirects).toHaveLength(1);
    expect(result.finalUrl).toContain('other.test');
    const echoed = JSON.parse(result.body!.toString()).headers;
    expect(echoed.authorization).toBeUndefined();
    expect(echoed['x-trace']).toBe('t1');
    expect(echoed.host).toBe(`other.test:${http.port}`);
  });

  it('a redirect to another host drops the website’s secret headers and secret body too', async () => {
    const sent = {
      method: 'POST',
      headers: { 'X-Api-Key': 'k3y', 'X-Trace': 't1' },
      body: 'token=s3cret',
    };
    const guarded = await probeHttp(
      request(`http://shop.test:${http.port}/cross-host-307`, {
        ...sent,
        originBound: { headers: ['x-api-key'], body: true },
      }),
      options,
    );
    const echoed = JSON.parse(guarded.body!.toString());
    expect(echoed.headers['x-api-key']).toBeUndefined();
    expect(echoed.headers['x-trace']).toBe('t1');
    expect(echoed.body).toBe('');
    // Headers and bodies that are not secrets follow a 307 as they are.
    const plain = await probeHttp(request(`http://shop.test:${http.port}/cross-host-307`, sent), options);
    expect(JSON.parse(plain.body!.toString())).toMatchObject({
      method: 'POST',
      body: 'token=s3cret',
      headers: { 'x-api-key': 'k3y' },
    });
  });

  it('a 303 continues with GET and no body', async () => {
    const result = await probeHttp(
      request(`${http.url}/see-other`, { method: 'POST', body: 'data' }),
      options,
    );
    expect(JSON.parse(result.body!.toString())).toMatchObject({ method: 'GET', body: '' });
  });

  it('carries cookies set on one hop to the next with the jar, not without', async () => {
    expect((await probeHttp(request(`${http.url}/cookie/set`), options)).httpStatus).toBe(200);
    expect(
      (await probeHttp(request(`${http.url}/cookie/set`, { cookieHandling: 'none' }), options)).httpStatus,
    ).toBe(401);
  });

  it('gives up at the timeout', async () => {
    const result = await probeHttp(request(`${http.url}/slow`, { timeoutMs: 500 }), options);
    expect(result.error?.code).toBe('TIMEOUT');
    expect(result.timings.total).toBeLessThan(1500);
  });

  it('reads at most the cap of a huge body and stops downloading', async () => {
    const started = Date.now();
    const result = await probeHttp(request(`${http.url}/big`, { maxBodyBytes: 1024 * 1024 }), options);
    expect(result).toMatchObject({
      httpStatus: 200,
      sizeBytes: 1024 * 1024,
      bodyTruncated: true,
      error: null,
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('decodes gzip: size and keyword see the decoded body', async () => {
    const result = await probeHttp(request(`${http.url}/gzip`), options);
    expect(result.sizeBytes).toBe(10_006);
    expect(result.body?.toString().endsWith('needle')).toBe(true);
  });

  it('classifies DNS and connection failures', async () => {
    expect((await probeHttp(request('http://no-such-host.invalid/'), options)).error?.code).toBe('DNS');
    const closed = await startHttpTarget();
    await closed.close();
    expect((await probeHttp(request(`${closed.url}/ok`), options)).error?.code).toBe('CONNECT');
  });

  describe('SSRF guard (ALLOW_PRIVATE_TARGETS off)', () => {
    const guarded: ProbeOptions = {
      ...options,
      allowPrivateTargets: false,
      resolve: systemResolve,
      exemptAddresses: [{ address: '127.0.0.2', exceptPorts: STORE_PORTS }],
    };

    it.each([
      ['an IP literal in loopback', () => `${http.url}/ok`],
      ['a host name resolving to loopback', () => `http://localhost:${http.port}/ok`],
      ['IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${http.port}/ok`],
      ['IPv6 loopback', () => `http://[::1]:${http.port}/ok`],
      ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ])('refuses %s', async (_label, url) => {
      const result = await probeHttp(request(url()), guarded);
      expect(result.error?.code).toBe('BLOCKED_TARGET');
      expect(result.httpStatus).toBeNull();
    });

    it('refuses a redirect into loopback from an allowed first hop', async () => {
      expect((await probeHttp(request(`${exempt.url}/ok`), guarded)).httpStatus).toBe(200);
      const result = await probeHttp(request(`${exempt.url}/to-loopback`), guarded);
      expect(result.error?.code).toBe('BLOCKED_TARGET');
      expect(result.redirects).toMatchObject([{ url: `${exempt.url}/to-loopback`, status: 302 }]);
    });
  });
});

describe('HTTPS probe and the SSL check', () => {
  const targets: Target[] = [];
  const start = async (cert: { cert: string; key: string }) => {
    const target = await startHttpsTarget(cert);
    targets.push(target);
    return target;
  };
  afterAll(async () => Promise.all(targets.map((t) => t.close())));

  const sslOf = async (cert: { cert: string; key: string }, host = 'shop.test') => {
    const target = await start(cert);
    const result = await probeHttp(request(`https://${host}:${target.port}/ok`), options);
    const { checks } = evaluate(
      { ...result, httpsRedirect: null, domain: null },
      {
        config: defaultCheckConfig('https://x/', () => true),
        alerting,
        now: new Date(),
      },
    );
    return { result, ssl: checks.find((c) => c.name === 'ssl')! };
  };

  it('a certificate from the trusted CA for the host passes, with TLS timing', async () => {
    const { result, ssl } = await sslOf(issue({ commonName: 'shop.test', names: ['shop.test'], issuer: ca }));
    expect(result.httpStatus).toBe(200);
    expect(result.timings.tls).toBeGreaterThan(0);
    expect(result.tls).toMatchObject({ chainTrusted: true, hostnameMatches: true, subject: 'CN=shop.test' });
    // What evidence shows of the connection: the negotiated protocol and cipher, the address.
    expect(result.tls?.protocol).toMatch(/^TLSv1\.[23]$/);
    expect(result.tls?.cipher).toMatch(/^[A-Z0-9_-]+$/);
    expect(result.address).toBe('127.0.0.1');
    expect(ssl.outcome).toBe('pass');
  });

  it.each([
    [
      'expired',
      { commonName: 'shop.test', names: ['shop.test'], issuer: ca, validFromDays: -90, validToDays: -1 },
      'fail',
      /expired/,
    ],
    [
      'for another host',
      { commonName: 'other.test', names: ['other.test'], issuer: ca },
      'fail',
      /host name/,
    ],
    ['self-signed', { commonName: 'shop.test', names: ['shop.test'] }, 'fail', /not trusted/],
    [
      'expiring in 5 days',
      { commonName: 'shop.test', names: ['shop.test'], issuer: ca, validToDays: 5 },
      'warn',
      /expires in [45] day/,
    ],
  ])('a certificate %s', async (_label, spec, outcome, message) => {
    const { result, ssl } = await sslOf(issue(spec));
    expect(result.httpStatus).toBe(200);
    expect(ssl.outcome).toBe(outcome);
    expect(ssl.message).toMatch(message);
  });

  it.each([
    ['a wildcard for its parent', { commonName: 'x', names: ['*.shop.test'] }, 'www.shop.test', true],
    ['a wildcard, one label only', { commonName: 'x', names: ['*.shop.test'] }, 'a.b.shop.test', false],
    ['a wildcard, not the parent itself', { commonName: 'x', names: ['*.shop.test'] }, 'shop.test', false],
    ['no partial wildcards', { commonName: 'x', names: ['w*.shop.test'] }, 'www.shop.test', false],
    ['the subject without DNS names', { commonName: 'cn-only.test' }, 'cn-only.test', true],
    ['not the subject beside DNS names', { commonName: 'cn.test', names: ['san.test'] }, 'cn.test', false],
    ['an IP address name', { commonName: 'x', names: ['127.0.0.1'] }, '127.0.0.1', true],
    [
      'not a DNS name for an IP address',
      { commonName: '127.0.0.1', names: ['shop.test'] },
      '127.0.0.1',
      false,
    ],
  ])('host name matching: %s', async (_label, spec, host, matches) => {
    const { result } = await sslOf(issue({ ...spec, issuer: ca }), host);
    expect(result.tls?.hostnameMatches).toBe(matches);
  });

  it('follows http:// to https:// across schemes, measuring TLS on the second hop', async () => {
    const secure = await start(issue({ commonName: 'shop.test', names: ['shop.test'], issuer: ca }));
    const plain = await startHttpTarget();
    targets.push(plain);
    const redirector = `${plain.url}/to-https?port=${secure.port}`;
    plain.server.removeAllListeners('request');
    plain.server.on('request', (req, res) => {
      res.statusCode = 301;
      res.setHeader(
        'location',
        `https://shop.test:${new URL(req.url ?? '/', 'http://x').searchParams.get('port')}/ok`,
      );
      res.end();
    });
    const result = await probeHttp(request(redirector), options);
    expect(result).toMatchObject({ httpStatus: 200, redirects: [{ url: redirector, status: 301 }] });
    expect(result.tls?.chainTrusted).toBe(true);
    expect(result.timings.tls).toBeGreaterThan(0);
  });

  it('mTLS: the server refuses a client without the certificate and accepts the website’s own', async () => {
    const clientCa = issue({ commonName: 'client CA', isCa: true });
    const client = issue({ commonName: 'webmon client', issuer: clientCa, clientAuth: true });
    const server = issue({ commonName: 'shop.test', names: ['shop.test'], issuer: ca });
    const target = await startHttpsTarget({ ...server, clientCa: clientCa.cert });
    targets.push(target);
    const url = `https://shop.test:${target.port}/client-cert`;
    const without = await probeHttp(request(url), options);
    expect(without.httpStatus).toBeNull();
    // Told as what it is, with the time the connection and handshake took.
    expect(without.error).toEqual({
      code: 'TLS',
      message: expect.stringContaining('requires a client certificate'),
    });
    expect(without.timings.connect).toBeGreaterThan(0);
    expect(without.timings.tls).toBeGreaterThan(0);
    const withCert = await probeHttp(
      request(url, { clientCertificate: { cert: client.cert, key: client.key } }),
      options,
    );
    expect(withCert.httpStatus).toBe(200);
    expect(withCert.body?.toString()).toBe('hello webmon client');
    // Contexts are kept per certificate: another website's certificate is its own, never the last one used.
    const other = issue({ commonName: 'other client', issuer: clientCa, clientAuth: true });
    const withOther = await probeHttp(
      request(url, { clientCertificate: { cert: other.cert, key: other.key } }),
      options,
    );
    expect(withOther.body?.toString()).toBe('hello other client');
    const again = await probeHttp(
      request(url, { clientCertificate: { cert: client.cert, key: client.key } }),
      options,
    );
    expect(again.body?.toString()).toBe('hello webmon client');
    expect((await probeHttp(request(url), options)).httpStatus).toBeNull();
  });

  it('mTLS: a client key that is not a key fails the check as TLS, with the reason', async () => {
    const server = issue({ commonName: 'shop.test', names: ['shop.test'], issuer: ca });
    const target = await startHttpsTarget(server);
    targets.push(target);
    const result = await probeHttp(
      request(`https://shop.test:${target.port}/ok`, {
        clientCertificate: {
          cert: server.cert,
          key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
        },
      }),
      options,
    );
    expect(result.httpStatus).toBeNull();
    expect(result.error?.code).toBe('TLS');
  });
});
