import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmbeddedServer,
  findFreePort,
  startFerretDb,
  startRedisServer,
} from '../libs/embedded/index.js';
import { TestApi } from './support/harness.js';

const dataDir = mkdtempSync(join(tmpdir(), 'webmon-resilience-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
}

describe('when Redis goes away and comes back', () => {
  let redis: EmbeddedServer;
  let redisPort: number;
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    redisPort = await findFreePort();
    redis = await startRedisServer({ port: redisPort, dataDir: join(dataDir, 'redis') });
    api = await TestApi.start({ REDIS_URL: redis.url });
    ({ token } = await api.createOrganization(['admin']));
  });
  afterAll(async () => {
    await api.stop();
    await redis.stop();
  });

  it('answers 503 quickly, stays up, and recovers by itself', async () => {
    expect((await api.request('GET', '/api/tokens', { token })).status).toBe(200);
    await redis.stop();

    const ready = await timed(() => api.request('GET', '/readyz'));
    expect(ready.value.status).toBe(503);
    expect(ready.value.body).toMatchObject({ checks: { mongodb: 'up', redis: 'down' } });
    expect(ready.ms).toBeLessThan(5000);

    const call = await timed(() => api.request('GET', '/api/tokens', { token }));
    expect(call.value.status).toBe(503);
    expect(call.value.headers.get('retry-after')).toBe('5');
    expect(call.value.body).toMatchObject({
      type: '/problems/service-unavailable',
      detail: expect.stringContaining('Redis'),
    });
    expect(call.ms).toBeLessThan(5000);
    expect((await api.request('GET', '/healthz')).status).toBe(200);

    redis = await startRedisServer({ port: redisPort, dataDir: join(dataDir, 'redis') });
    await expect
      .poll(async () => (await api.request('GET', '/readyz')).status, { timeout: 15_000, interval: 250 })
      .toBe(200);
    expect((await api.request('GET', '/api/tokens', { token })).status).toBe(200);
  }, 40_000);
});

describe('when MongoDB goes away and comes back', () => {
  let ferret: EmbeddedServer;
  let ferretPort: number;
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    ferretPort = await findFreePort();
    ferret = await startFerretDb({
      port: ferretPort,
      dataDir: join(dataDir, 'ferretdb'),
      database: 'resilience',
    });
    api = await TestApi.start({ MONGODB_URL: ferret.url });
    ({ token } = await api.createOrganization(['admin']));
  });
  afterAll(async () => {
    await api.stop();
    await ferret.stop();
  });

  it('answers 503 with Retry-After within 3 s while MongoDB is stalled, and recovers when it resumes', async () => {
    expect((await api.request('GET', '/api/tokens', { token })).status).toBe(200);
    // A stalled server (SIGSTOP) accepts connections and answers nothing: only a deadline tells.
    process.kill(ferret.pid, 'SIGSTOP');
    try {
      const call = await timed(() => api.request('GET', '/api/tokens', { token }));
      expect(call.value.status).toBe(503);
      expect(call.value.headers.get('retry-after')).toBe('5');
      expect(call.value.body).toMatchObject({ detail: expect.stringContaining('MongoDB') });
      expect(call.ms).toBeLessThan(3000);
      const ready = await timed(() => api.request('GET', '/readyz'));
      expect(ready.value.status).toBe(503);
      expect(ready.value.body).toMatchObject({ checks: { mongodb: 'down', redis: 'up' } });
      expect(ready.ms).toBeLessThan(3000);
      const next = await timed(() => api.request('GET', '/api/tokens', { token }));
      expect(next.value.status).toBe(503);
      expect(next.ms).toBeLessThan(3000);
    } finally {
      process.kill(ferret.pid, 'SIGCONT');
    }
    await expect
      .poll(async () => (await api.request('GET', '/readyz')).status, { timeout: 20_000, interval: 250 })
      .toBe(200);
    expect((await api.request('GET', '/api/tokens', { token })).status).toBe(200);
  }, 60_000);

  it('answers 503 within a few seconds, stays up, and recovers by itself', async () => {
    expect((await api.request('GET', '/api/tokens', { token })).status).toBe(200);
    await ferret.stop();

    const ready = await timed(() => api.request('GET', '/readyz'));
    expect(ready.value.status).toBe(503);
    expect(ready.value.body).toMatchObject({ checks: { mongodb: 'down', redis: 'up' } });
    expect(ready.ms).toBeLessThan(5000);

    const call = await timed(() => api.request('GET', '/api/tokens', { token }));
    expect(call.value.status).toBe(503);
    expect(call.value.body).toMatchObject({ detail: expect.stringContaining('MongoDB') });
    expect(call.ms).toBeLessThan(6000);

    ferret = await startFerretDb({
      port: ferretPort,
      dataDir: join(dataDir, 'ferretdb'),
      database: 'resilience',
    });
    await expect
      .poll(async () => (await api.request('GET', '/readyz')).status, { timeout: 20_000, interval: 250 })
      .toBe(200);
    expect((await api.request('GET', '/api/tokens', { token })).status).toBe(200);
  }, 60_000);
});

describe('SIGTERM', () => {
  it('lets an in-flight request finish, then exits 0', async () => {
    const helper = await TestApi.start();
    const { token } = await helper.createOrganization(['admin']);
    const port = await findFreePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/main.ts'], {
      env: {
        ...process.env,
        MONGODB_URL: helper.config.MONGODB_URL,
        REDIS_URL: helper.config.REDIS_URL,
        REDIS_KEY_PREFIX: helper.config.REDIS_KEY_PREFIX,
        SECRETS_KEY: Buffer.alloc(32, 3).toString('base64'),
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let log = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    try {
      await expect.poll(() => log.includes('api started'), { timeout: 120_000 }).toBe(true);

      // A request whose body is still arriving when SIGTERM comes.
      let finishBody: () => void = () => {};
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"name": "drain",'));
          finishBody = () => {
            controller.enqueue(new TextEncoder().encode(' "scopes": ["read"]}'));
            controller.close();
          };
        },
      });
      const response = fetch(`http://127.0.0.1:${port}/api/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
      await new Promise((resolve) => setTimeout(resolve, 300));
      child.kill('SIGTERM');
      await expect.poll(() => log.includes('api shutting down'), { timeout: 5000 }).toBe(true);
      finishBody();
      expect((await response).status).toBe(201);
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      expect(log).toContain('api stopped');
    } finally {
      child.kill('SIGKILL');
      await helper.stop();
    }
  }, 180_000);
});
