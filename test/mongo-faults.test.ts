import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifier } from '../apps/notifier/notifier.js';
import { startWorker } from '../apps/worker/worker.js';
import { type EmbeddedServer, findFreePort, startFerretDb } from '../libs/embedded/index.js';
import { createLogger } from '../libs/logging/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';
import { type Receiver, startReceiver } from './support/receiver.js';
import { type SiteFarm, startSiteFarm } from './support/site-farm.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SITES = 50;

type Window = { from: number; to: number };

/**
 * MongoDB stalled (SIGSTOP) for 15 s and, separately, killed for 60 s while a worker checks 50
 * websites every 10 s: checks go on meanwhile (every website has a result made inside each
 * outage), decisions too (a target failing during the outage is told down once MongoDB is back,
 * once), every check made is stored once, and the API answers 503 quickly meanwhile while the
 * worker says it is degraded. A FerretDB of its own, since it is stopped. The stall is 15 s, not
 * 12: a 12 s stall left a website checked every 10 s only 2 s of leeway for a late check, and
 * beside the suite's CPU-heavy tests site 8 went unchecked in it once.
 */
describe('when MongoDB stalls or dies under load', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'webmon-mongo-faults-'));
  let port: number;
  let ferret: EmbeddedServer;
  let api: TestApi;
  let worker: RunningService | undefined;
  let notifier: RunningService | undefined;
  let farm: SiteFarm;
  let receiver: Receiver;

  const startFerret = async () =>
    startFerretDb({ port, dataDir: join(dataDir, 'ferretdb'), database: 'faults', say: () => {} });

  beforeAll(async () => {
    port = await findFreePort();
    ferret = await startFerret();
    api = await TestApi.start({
      MONGODB_URL: ferret.url,
      ALLOW_PRIVATE_TARGETS: 'true',
      RECHECK_DELAY_SECONDS: '1',
    });
    farm = await startSiteFarm();
    receiver = await startReceiver();
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await notifier?.stop();
    await api?.stop();
    farm?.close();
    await receiver?.close();
    await ferret?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('checks and decides on through a 15 s stall and a 60 s death, storing and telling each once after', async () => {
    const { token } = await api.createOrganization(['admin']);
    const customerId = await createCustomer(
      api,
      token,
      (
        await createPackage(api, token, {
          limits: { minCheckIntervalSeconds: 10 },
          alerting: { confirmations: 2 },
        })
      ).id,
    );
    const channel = await api.request('POST', '/api/notification-channels', {
      token,
      body: { type: 'webhook', name: 'Ops', config: { url: `${receiver.url}/hooks/ops` } },
    });
    expect(channel.status).toBe(201);
    const metricsPort = await findFreePort();
    worker = await startWorker(
      { ...api.config, NODE_PUBLIC_IP: '203.0.113.30', NODE_ID: 'faults', METRICS_PORT: metricsPort },
      createLogger('worker', api.config.LOG_LEVEL),
    );
    notifier = await startNotifier(api.config, createLogger('notifier', api.config.LOG_LEVEL));
    const ids = await farm.createSites(api, token, customerId, SITES, 10);
    const results = api.db.collection<{ websiteId: number; startedAt: Date }>('check_results');
    const checkedSince = async (since: Date) =>
      (await results.distinct('websiteId', { startedAt: { $gt: since } })).length;
    await expect.poll(() => checkedSince(new Date(0)), { timeout: 60_000, interval: 500 }).toBe(SITES);

    // Stalled: accepts connections, answers nothing.
    const stall: Window = { from: Date.now(), to: 0 };
    process.kill(ferret.pid, 'SIGSTOP');
    try {
      await sleep(1000);
      const started = Date.now();
      const answer = await api.request('GET', '/api/tokens', { token });
      expect(answer.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(3000);
      await sleep(15_000 - (Date.now() - stall.from));
    } finally {
      stall.to = Date.now();
      process.kill(ferret.pid, 'SIGCONT');
    }
    await expect.poll(() => checkedSince(new Date(stall.to)), { timeout: 60_000, interval: 500 }).toBe(SITES);

    // Killed, and back 60 s later on the same data; site 7 goes down meanwhile.
    const death: Window = { from: Date.now(), to: 0 };
    process.kill(ferret.pid, 'SIGKILL');
    await ferret.stop();
    await sleep(10_000);
    farm.failing.add(7);
    const readiness = await fetch(`http://127.0.0.1:${metricsPort}/readyz`);
    expect(readiness.status).toBe(200);
    expect(await readiness.json()).toMatchObject({
      status: 'degraded',
      checks: { mongodb: 'down', redis: 'up' },
    });
    await sleep(50_000);
    ferret = await startFerret();
    death.to = Date.now();

    // Nothing restarted: new checks of every website are stored again, and what waited is written.
    await expect.poll(() => checkedSince(new Date(death.to)), { timeout: 60_000, interval: 500 }).toBe(SITES);
    const downs = () =>
      receiver
        .to('/hooks/ops')
        .filter((r) => (r.json as { type?: string } | undefined)?.type === 'website.down');
    await expect.poll(() => downs().length, { timeout: 60_000, interval: 500 }).toBe(1);
    await worker.stop();
    worker = undefined;

    const stored = new Map<number, number[]>();
    for (const result of await results.find({}, { projection: { websiteId: 1, startedAt: 1 } }).toArray())
      stored.set(result.websiteId, [...(stored.get(result.websiteId) ?? []), result.startedAt.getTime()]);
    const inside = (times: number[], window: Window) => times.some((t) => t > window.from && t < window.to);
    for (const [n, id] of ids.entries()) {
      const times = stored.get(id) ?? [];
      // Checked on through both outages.
      const around = (window: Window) =>
        times.map((t) => t - window.from).filter((t) => t > -12_000 && t < 75_000);
      expect(
        { site: n, inStall: inside(times, stall), inDeath: inside(times, death) },
        `site ${n} checked (ms from each outage's start): stall ${around(stall)}, death ${around(death)}`,
      ).toEqual({
        site: n,
        inStall: true,
        inDeath: true,
      });
      // 0 lost: as many stored as the target saw checks; 0 duplicated: no check stored twice.
      expect({ site: n, stored: times.length }).toEqual({ site: n, stored: farm.hits.get(n)?.length });
      expect(new Set(times).size).toBe(times.length);
    }
    // Told once, about site 7 alone, decided during the outage; MongoDB's own trouble told nobody down.
    const told = downs();
    // Still one after the worker wrote everything it kept and stopped: no late duplicate.
    expect(told).toHaveLength(1);
    const down = told[0]?.json as { createdAt: string } | undefined;
    expect(down).toMatchObject({ data: { website: { id: ids[7] }, status: 'down' } });
    const decidedAt = Date.parse(down?.createdAt ?? '');
    expect(decidedAt).toBeGreaterThan(death.from);
    expect(decidedAt).toBeLessThan(death.to);
    const events = await api.db.collection('events').find({ type: 'website.down' }).toArray();
    expect(events.map((e) => e.websiteId)).toEqual([ids[7]]);
    expect(await api.db.collection('incidents').countDocuments({ websiteId: ids[7] })).toBe(1);
    expect(await api.db.collection('events').countDocuments({ type: 'website.unmonitored' })).toBe(0);
  }, 300_000);
});
