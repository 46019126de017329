import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisEvidenceBodyGate } from '../libs/monitoring/index.js';
import { systemResolve, TlsContexts } from '../libs/probe/index.js';
import { createCustomer, createPackage, type TestApi } from './support/harness.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { createUser, signIn, withCookie } from './support/people.js';
import { issue } from './support/pki-forge.js';
import { startHttpsTarget } from './support/targets.js';

/** A site under maintenance: 503 with Retry-After and a cookie, pages that echo the key sent, and odd bodies. */
async function startTroubledSite() {
  const server: Server = createServer((req, res) => {
    if (req.url === '/maintenance') {
      res.writeHead(503, {
        'content-type': 'text/html; charset=utf-8',
        'retry-after': '120',
        'set-cookie': 'session=s3cr3t-session; HttpOnly',
      });
      res.end('<html><h1>Down for maintenance</h1><p>Back at 14:00.</p></html>');
    } else if (req.url === '/echo') {
      res.writeHead(500, { 'content-type': 'text/plain', 'x-seen-key': String(req.headers['x-api-key']) });
      res.end(`debug: you sent x-api-key=${req.headers['x-api-key']}`);
    } else if (req.url === '/echo-body') {
      let received = '';
      req.on('data', (chunk: Buffer) => {
        received += chunk.toString();
      });
      req.on('end', () => {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`invalid request: ${received} (api_key ${JSON.parse(received).api_key} unknown)`);
      });
    } else if (req.url === '/big') {
      // 2 MB of text, sent gzip-encoded, in ISO-8859-1.
      res.writeHead(502, { 'content-type': 'text/plain; charset=iso-8859-1', 'content-encoding': 'gzip' });
      res.end(
        gzipSync(
          Buffer.concat([Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20]), Buffer.alloc(2 * 1024 * 1024, 0x78)]),
        ),
      );
    } else res.end('fine');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const ca = issue({ commonName: 'webmon evidence test CA', isCa: true, validToDays: 30 });

interface ResultItem {
  id: string;
  status: string;
  hasEvidence: boolean;
}
interface EvidenceBody {
  statusLine: string | null;
  headers: Record<string, string>;
  body: {
    kind: string;
    text?: string;
    charset?: string;
    truncated?: boolean;
    bytes: number;
    reason?: string;
  } | null;
  error: { code: string; message: string } | null;
  address: string | null;
  region: string;
  tls: {
    subject: string;
    issuer: string;
    validTo: string;
    chainTrusted: boolean;
    chainError: string | null;
    hostnameMatches: boolean;
    protocol: string | null;
  } | null;
}

describe('evidence kept with failing results', () => {
  let stack: MonitoringStack;
  let api: TestApi;
  let token: string;
  let site: Awaited<ReturnType<typeof startTroubledSite>>;

  beforeAll(async () => {
    stack = await startMonitoringStack('evidence-node', {
      // shop.test is this machine, and the test CA is trusted: the probe's edge to the network.
      probe: {
        tls: new TlsContexts([ca.cert]),
        resolve: (hostname) =>
          hostname === 'shop.test' ? Promise.resolve(['127.0.0.1']) : systemResolve(hostname),
      },
    });
    ({ api, token } = stack);
    site = await startTroubledSite();
  });
  afterAll(async () => {
    await site?.close();
    await stack?.stop();
  });

  const create = async (name: string, url: string, extra: Record<string, unknown> = {}) => {
    const created = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId: stack.customerId, name, url, checkInterval: 10, ...extra },
    });
    expect(created.status).toBe(201);
    return created.body.id;
  };
  const results = async (id: number) =>
    (await api.request<{ items: ResultItem[] }>('GET', `/api/websites/${id}/results?limit=20`, { token }))
      .body.items;
  const evidenceOf = (id: number, resultId: string) =>
    api.request<EvidenceBody>('GET', `/api/websites/${id}/results/${resultId}/evidence`, { token });
  const firstEvidence = async (id: number, count = 1) => {
    let failing: ResultItem[] = [];
    await expect
      .poll(
        async () => {
          failing = (await results(id)).filter((result) => result.hasEvidence);
          return failing.length;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBeGreaterThanOrEqual(count);
    return failing;
  };

  it('a maintenance page: its status line, Retry-After and body, the cookie redacted; later bodies within 5 minutes omitted', async () => {
    const id = await create('Maintenance', `${site.url}/maintenance`);
    // The quick re-check (1 s) makes a second failing result soon after the first.
    const failing = await firstEvidence(id, 2);
    const [newest, first] = [failing[0] as ResultItem, failing.at(-1) as ResultItem];
    const kept = await evidenceOf(id, first.id);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({
      statusLine: '503 Service Unavailable',
      address: '127.0.0.1',
      region: expect.any(String),
      error: null,
    });
    expect(kept.body.headers['retry-after']).toBe('120');
    expect(kept.body.headers['set-cookie']).toBe('[redacted]');
    expect(kept.body.body).toMatchObject({ kind: 'text', charset: 'utf-8', truncated: false });
    expect(kept.body.body?.text).toContain('Down for maintenance');
    expect(JSON.stringify(kept.body)).not.toContain('s3cr3t-session');
    const later = await evidenceOf(id, newest.id);
    expect(later.body.statusLine).toBe('503 Service Unavailable');
    expect(later.body.body).toMatchObject({ kind: 'omitted' });
    expect(later.body.body?.bytes).toBeGreaterThan(0);
    // A passing result has none, and another website's result is not found through this one.
    const other = await create('Fine', `${site.url}/fine`);
    await expect.poll(async () => (await results(other)).length, { timeout: 20_000 }).toBeGreaterThan(0);
    const passing = (await results(other))[0] as ResultItem;
    expect(passing.hasEvidence).toBe(false);
    expect((await evidenceOf(other, passing.id)).status).toBe(404);
    expect((await evidenceOf(other, first.id)).status).toBe(404);
    expect((await evidenceOf(id, 'not-an-id')).status).toBe(400);
  }, 60_000);

  it('a secret header the server echoes is blanked in the body and headers', async () => {
    const id = await create('Echo', `${site.url}/echo`, { secretHeaders: { 'X-Api-Key': 'key-0123456789' } });
    const [failing] = await firstEvidence(id);
    const evidence = await evidenceOf(id, (failing as ResultItem).id);
    expect(evidence.body.statusLine).toBe('500 Internal Server Error');
    expect(evidence.body.body?.text).toBe('debug: you sent x-api-key=[redacted]');
    expect(evidence.body.headers['x-seen-key']).toBe('[redacted]');
    expect(JSON.stringify(evidence.body)).not.toContain('key-0123456789');
  }, 60_000);

  it('a 2 MB gzip body in ISO-8859-1 is decoded and cut to 16 KB', async () => {
    const id = await create('Big', `${site.url}/big`);
    const [failing] = await firstEvidence(id);
    const evidence = await evidenceOf(id, (failing as ResultItem).id);
    expect(evidence.body.body).toMatchObject({ kind: 'text', charset: 'windows-1252', truncated: true });
    expect(evidence.body.body?.text?.startsWith('Café x')).toBe(true);
    expect(evidence.body.body?.text).toHaveLength(16 * 1024);
  }, 60_000);

  it('a connection refused: the error, no status line, no body', async () => {
    const id = await create('Refused', 'http://127.0.0.1:9/');
    const [failing] = await firstEvidence(id);
    const evidence = await evidenceOf(id, (failing as ResultItem).id);
    expect(evidence.body).toMatchObject({ statusLine: null, body: null, error: { code: 'CONNECT' } });
  }, 60_000);

  it('a TLS failure: an expired certificate and one for another host, with the certificate’s details', async () => {
    const expired = await startHttpsTarget(
      issue({
        commonName: 'shop.test',
        names: ['shop.test'],
        issuer: ca,
        validFromDays: -30,
        validToDays: -2,
      }),
    );
    const otherHost = await startHttpsTarget(
      issue({ commonName: 'other.test', names: ['other.test'], issuer: ca }),
    );
    try {
      const lapsed = await create('Expired', `https://shop.test:${expired.port}/ok`);
      const wrong = await create('Wrong host', `https://shop.test:${otherHost.port}/ok`);
      const [lapsedResult] = await firstEvidence(lapsed);
      const [wrongResult] = await firstEvidence(wrong);
      const lapsedEvidence = (await evidenceOf(lapsed, (lapsedResult as ResultItem).id)).body;
      expect(lapsedEvidence.tls).toMatchObject({
        subject: expect.stringContaining('shop.test'),
        issuer: expect.stringContaining('webmon evidence test CA'),
        chainError: expect.stringMatching(/expired/i),
      });
      expect(Date.parse(lapsedEvidence.tls?.validTo ?? '')).toBeLessThan(Date.now());
      const wrongEvidence = (await evidenceOf(wrong, (wrongResult as ResultItem).id)).body;
      expect(wrongEvidence.tls).toMatchObject({
        subject: expect.stringContaining('other.test'),
        hostnameMatches: false,
        protocol: expect.stringMatching(/^TLSv1\.[23]$/),
      });
    } finally {
      await expired.close();
      await otherHost.close();
    }
  }, 60_000);

  it('a down of 20 minutes checked every 10 s keeps at most 4 bodies per region; a resolved incident lets the next one’s first failure keep one after a minute', async () => {
    const redis = new Redis(api.config.REDIS_URL, { maxRetriesPerRequest: 1 });
    try {
      const gate = new RedisEvidenceBodyGate(redis, `${api.config.REDIS_KEY_PREFIX}:gate-test`);
      const start = Date.now();
      const kept = { 'eu-west': 0, 'us-east': 0 };
      for (let check = 0; check < 120; check++)
        for (const region of ['eu-west', 'us-east'] as const)
          if (
            await gate.keepBody(
              4242,
              region,
              'down',
              new Date(start + check * 10_000 + (region === 'us-east' ? 3000 : 0)),
            )
          )
            kept[region]++;
      expect(kept).toEqual({ 'eu-west': 4, 'us-east': 4 });
      // A late check (older than the last body kept) takes no body either.
      expect(await gate.keepBody(4242, 'eu-west', 'down', new Date(start))).toBe(false);
      // Bodies were kept at 0, 5, 10 and 15 minutes. A minute after the last, none is due yet…
      expect(await gate.keepBody(4242, 'eu-west', 'down', new Date(start + 961_000))).toBe(false);
      // …unless the incident was resolved meanwhile: the next incident's first failure keeps its body.
      await gate.reopen(4242, 'eu-west');
      expect(await gate.keepBody(4242, 'eu-west', 'down', new Date(start + 962_000))).toBe(true);
      expect(await gate.keepBody(4242, 'eu-west', 'down', new Date(start + 1_030_000))).toBe(false);
      expect(await gate.keepBody(4242, 'us-east', 'down', new Date(start + 964_000))).toBe(false);
    } finally {
      redis.disconnect();
    }
  });

  it('a sealed request body the server quotes back is blanked, whole and field by field', async () => {
    const id = await create('Echo body', `${site.url}/echo-body`, {
      httpMethod: 'POST',
      requestBody: JSON.stringify({ api_key: 'ak-9876543210', user: 'monitor' }),
      requestBodySecret: true,
    });
    const [failing] = await firstEvidence(id);
    const evidence = await evidenceOf(id, (failing as ResultItem).id);
    expect(evidence.body.statusLine).toBe('400 Bad Request');
    expect(JSON.stringify(evidence.body)).not.toContain('ak-9876543210');
    expect(evidence.body.body?.text).toContain('invalid request: [redacted]');
  }, 60_000);

  it('a client user reads their own customer’s evidence, not another customer’s', async () => {
    const id = await create('Maintenance again', `${site.url}/maintenance`);
    const [failing] = await firstEvidence(id);
    const path = `/api/websites/${id}/results/${(failing as ResultItem).id}/evidence`;
    const own = await signIn(
      api,
      (await createUser(api, stack.organizationId, 'client', stack.customerId)).email,
    );
    expect((await withCookie(api, own, 'GET', path)).status).toBe(200);
    const otherCustomer = await createCustomer(api, token, (await createPackage(api, token)).id);
    const other = await signIn(
      api,
      (await createUser(api, stack.organizationId, 'client', otherCustomer)).email,
    );
    expect((await withCookie(api, other, 'GET', path)).status).toBe(404);
  }, 60_000);
});
