import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from '../apps/api/api.js';
import { type EmbeddedServer, findFreePort, startFerretDb } from '../libs/embedded/index.js';
import { createLogger } from '../libs/logging/index.js';
import { createCustomer, createPackage, TestApi, testConfig } from './support/harness.js';

/**
 * A FerretDB of its own, stopped with SIGSTOP (it accepts connections and answers nothing): a ping
 * answered meanwhile did not wait on MongoDB, so it never asked it.
 */
describe('heartbeat pings are answered from Redis alone; port checks are refused at private addresses', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'webmon-pings-'));
  let ferret: EmbeddedServer;
  let api: TestApi;
  let token: string;
  let websiteId: number;
  let pingPath: string;
  beforeAll(async () => {
    ferret = await startFerretDb({
      port: await findFreePort(),
      dataDir: join(dataDir, 'ferretdb'),
      database: 'pings',
      say: () => {},
    });
    api = await TestApi.start({ MONGODB_URL: ferret.url });
    ({ token } = await api.createOrganization());
    const customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
    const website = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Shop', url: 'https://shop.example/', checkInterval: 300 },
    });
    expect(website.status, JSON.stringify(website.body)).toBe(201);
    websiteId = website.body.id;
    const heartbeat = await api.request<{ pingUrl: string }>(
      'POST',
      `/api/websites/${websiteId}/heartbeats`,
      {
        token,
        body: { name: 'Backup', schedule: { periodSeconds: 86_400 } },
      },
    );
    expect(heartbeat.status, JSON.stringify(heartbeat.body)).toBe(201);
    pingPath = new URL(heartbeat.body.pingUrl).pathname;
  }, 120_000);
  afterAll(async () => {
    if (ferret) process.kill(ferret.pid, 'SIGCONT');
    await api?.stop();
    await ferret?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('an unknown token is 404 and a known one recorded while MongoDB answers nothing', async () => {
    process.kill(ferret.pid, 'SIGSTOP');
    try {
      const ask = (path: string) => fetch(`${api.api.url}${path}`, { signal: AbortSignal.timeout(3000) });
      for (const path of [
        '/ping/unknownTokenOf24Chars__',
        '/ping/unknownTokenOf24Chars__/start',
        '/ping/x',
      ]) {
        const answer = await ask(path);
        expect(answer.status, path).toBe(404);
        expect(((await answer.json()) as { detail: string }).detail).toMatch(
          /No heartbeat has this ping URL|No such ping URL/,
        );
      }
      expect((await ask(pingPath)).status).toBe(200);
      const posted = await fetch(`${api.api.url}${pingPath}/fail`, {
        method: 'POST',
        body: 'exit 3: disk full',
        signal: AbortSignal.timeout(3000),
      });
      expect(posted.status).toBe(200);
      expect((await ask(`${pingPath}/0`)).status).toBe(200);
      expect((await ask(`${pingPath}/256`)).status).toBe(404);
    } finally {
      process.kill(ferret.pid, 'SIGCONT');
    }
  });

  it('a port check to 169.254.169.254 or another private address is refused at write time, naming the host', async () => {
    for (const host of ['169.254.169.254', '10.0.0.5', '127.0.0.1', '::1']) {
      const refused = await api.request<{ errors: Array<{ path: string; message: string }> }>(
        'POST',
        `/api/websites/${websiteId}/port-checks`,
        { token, body: { host, port: 25 } },
      );
      expect(refused.status, host).toBe(400);
      expect(refused.body.errors[0]?.path).toBe('host');
    }
    const named = await api.request('POST', `/api/websites/${websiteId}/port-checks`, {
      token,
      body: { host: 'mail.shop.example', port: 25, expectBanner: '220' },
    });
    expect(named.status, JSON.stringify(named.body)).toBe(201);
  });

  it('a heartbeat’s schedule is checked at write time: a bad cron or time zone is named', async () => {
    const bad = await api.request<{ errors: Array<{ path: string }> }>(
      'POST',
      `/api/websites/${websiteId}/heartbeats`,
      {
        token,
        body: { name: 'x', schedule: { cron: '61 * * * *', timezone: 'Mars/Olympus' } },
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.path).sort()).toEqual(expect.arrayContaining(['schedule.timezone']));
  });
});

describe('what the logs hold of pings', () => {
  it('the route’s pattern, never the token in the path', async () => {
    let logs = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs += chunk.toString();
        done();
      },
    });
    const config = testConfig({ LOG_LEVEL: 'trace' });
    const server = await startApi(config, createLogger('api', 'trace', sink));
    const mongo = new MongoClient(config.MONGODB_URL);
    try {
      const { request, createOrganization, createToken } = TestApi.prototype;
      const api = { api: server, request, createOrganization, createToken } as unknown as TestApi;
      Object.defineProperty(api, 'db', { value: mongo.db() });
      const { token } = await api.createOrganization();
      const customerId = await createCustomer(api, token, (await createPackage(api, token)).id);
      const website = await api.request<{ id: number }>('POST', '/api/websites', {
        token,
        body: { customerId, name: 'Shop', url: 'https://shop.example/', checkInterval: 300 },
      });
      const heartbeat = await api.request<{ pingUrl: string }>(
        'POST',
        `/api/websites/${website.body.id}/heartbeats`,
        {
          token,
          body: { name: 'Backup', schedule: { periodSeconds: 3600 } },
        },
      );
      const path = new URL(heartbeat.body.pingUrl).pathname;
      const pingToken = path.split('/').at(-1) as string;
      expect((await api.request('GET', path)).status).toBe(200);
      expect((await api.request('POST', `${path}/fail`, { rawBody: 'x' })).status).toBe(200);
      expect((await api.request('GET', `${path}/999`)).status).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(logs).toContain('/ping/:token');
      expect(logs).not.toContain(pingToken);
    } finally {
      await server.stop();
      await mongo.db().dropDatabase();
      await mongo.close();
    }
  });
});
