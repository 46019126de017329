import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../apps/worker/worker.js';
import { type EmbeddedServer, findFreePort, startFerretDb } from '../libs/embedded/index.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { type SiteFarm, startSiteFarm } from './support/site-farm.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * MongoDB stalled (SIGSTOP) and then killed and restarted while a worker checks: every check made
 * meanwhile is stored once (kept in the worker until MongoDB takes it), none twice, no process is
 * restarted, and the API says 503 quickly meanwhile. A FerretDB of its own, since it is stopped.
 */
describe('when MongoDB stalls or dies under load', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'webmon-mongo-faults-'));
  let port: number;
  let ferret: EmbeddedServer;
  let api: TestApi;
  let worker: RunningService | undefined;
  let farm: SiteFarm;

  const startFerret = async () =>
    startFerretDb({ port, dataDir: join(dataDir, 'ferretdb'), database: 'faults', say: () => {} });

  beforeAll(async () => {
    port = await findFreePort();
    ferret = await startFerret();
    api = await TestApi.start({ MONGODB_URL: ferret.url, ALLOW_PRIVATE_TARGETS: 'true' });
    farm = await startSiteFarm();
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await api?.stop();
    farm?.close();
    await ferret?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every result made meanwhile and stores each once; the API answers 503 within 3 s', async () => {
    const { token } = await api.createOrganization(['admin']);
    const customerId = await createCustomer(
      api,
      token,
      (await createPackage(api, token, { limits: { minCheckIntervalSeconds: 10 } })).id,
    );
    worker = await startWorker(
      { ...api.config, NODE_PUBLIC_IP: '203.0.113.30', NODE_ID: 'faults' },
      createLogger('worker', api.config.LOG_LEVEL),
    );
    const sites = 50;
    const ids = await farm.createSites(api, token, customerId, sites, 10);
    const results = api.db.collection<{ websiteId: number; startedAt: Date }>('check_results');
    const checkedSince = async (since: Date) =>
      (await results.distinct('websiteId', { startedAt: { $gt: since } })).length;
    await expect.poll(() => checkedSince(new Date(0)), { timeout: 60_000, interval: 500 }).toBe(sites);

    // Stalled: accepts connections, answers nothing.
    process.kill(ferret.pid, 'SIGSTOP');
    try {
      await sleep(1000);
      const started = Date.now();
      const answer = await api.request('GET', '/api/tokens', { token });
      expect(answer.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(3000);
      await sleep(9000);
    } finally {
      process.kill(ferret.pid, 'SIGCONT');
    }
    await sleep(5000);
    // Killed, and back 15 s later on the same data.
    process.kill(ferret.pid, 'SIGKILL');
    await ferret.stop();
    await sleep(15_000);
    ferret = await startFerret();
    const back = new Date();

    // Nothing restarted: new checks of every website are stored again.
    await expect.poll(() => checkedSince(back), { timeout: 60_000, interval: 500 }).toBe(sites);
    await worker.stop();
    worker = undefined;

    const stored = new Map<number, number[]>();
    for (const result of await results.find({}, { projection: { websiteId: 1, startedAt: 1 } }).toArray())
      stored.set(result.websiteId, [...(stored.get(result.websiteId) ?? []), result.startedAt.getTime()]);
    for (const [n, id] of ids.entries()) {
      const times = stored.get(id) ?? [];
      // 0 lost: as many stored as the target saw checks; 0 duplicated: no check stored twice.
      expect({ site: n, stored: times.length }).toEqual({ site: n, stored: farm.hits.get(n)?.length });
      expect(new Set(times).size).toBe(times.length);
    }
    // MongoDB's trouble is not the websites': none was told down.
    expect(await api.db.collection('events').countDocuments({ type: 'website.down' })).toBe(0);
  }, 240_000);
});
