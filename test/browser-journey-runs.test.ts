import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../apps/worker/worker.js';
import { createLogger } from '../libs/logging/index.js';
import { MONITOR_KINDS } from '../libs/monitors/kinds/index.js';
import type { RunningService } from '../libs/runtime/index.js';
import { DueSet, regionDueKey } from '../libs/scheduler/index.js';
import { createCustomer, createPackage, TestApi, until } from './support/harness.js';
import { commandOn, type MongoFaultProxy, startMongoFaultProxy } from './support/mongo-fault-proxy.js';
import { type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';
import { startTestShop, type TestShop } from './support/test-shop.js';

const DAY_MS = 86_400_000;
const PUBLIC_URL = 'http://monitor.agency.test';

interface Result {
  at: string;
  status: string;
  evidence: { runId: string; screenshots: string[]; trace: boolean; filesKeptUntil?: string | null };
}

/** A journey on the shop: its sign-in page, a screenshot of it, then `more` steps. */
const journey = (shop: TestShop, name: string, more: Array<Record<string, unknown>> = []) => ({
  kind: 'browser',
  name,
  intervalSeconds: 3600,
  timeoutSeconds: 60,
  variables: { shop: shop.url },
  steps: [{ action: 'goto', url: '{{shop}}/sign-in' }, { action: 'screenshot', name: 'sign-in' }, ...more],
});
/** A step that fails: nothing on the page reads so. */
const missing = { action: 'click', locator: { by: 'text', text: 'Nowhere on this page' }, timeoutMs: 1000 };

describe('what a browser journey’s run keeps, through the worker', { timeout: 240_000 }, () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(async () => {
    await shop?.close();
  });

  describe('a worker whose browser breaks', () => {
    let stack: MonitoringStack;
    let redis: Redis;
    let folder: string;
    let websiteId: number;
    let monitorId: number;
    /** What the worker warned of. */
    let warned = '';

    beforeAll(async () => {
      // A Chromium that plays for 8 s and is then killed (under the run, every launch), or, once
      // `cannot-start` exists, one that exits at once.
      folder = mkdtempSync(join(tmpdir(), 'webmon-broken-chromium-'));
      const chromium = join(folder, 'chromium');
      writeFileSync(
        chromium,
        `#!/bin/sh\n[ -e '${folder}/cannot-start' ] && exit 1\n/usr/bin/chromium "$@" &\nbrowser=$!\nsleep 8\nkill -9 $browser\nwait $browser\n`,
      );
      chmodSync(chromium, 0o755);
      const logs = new Writable({
        write(chunk, _encoding, done) {
          warned += chunk.toString();
          done();
        },
      });
      stack = await startMonitoringStack(
        'broken-browser',
        {},
        { CHROMIUM_PATH: chromium },
        createLogger('worker', 'warn', logs),
      );
      redis = new Redis(stack.api.config.REDIS_URL);
      const created = await stack.api.request<{ id: number }>('POST', '/api/websites', {
        token: stack.token,
        body: { customerId: stack.customerId, name: 'Tea Shop', url: `${shop.url}/` },
      });
      expect(created.status).toBe(201);
      websiteId = created.body.id;
      await until(async () => (await stack.status(websiteId)).status === 'up', 30_000);
    }, 90_000);
    afterAll(async () => {
      redis?.disconnect();
      await stack?.stop();
      rmSync(folder, { recursive: true, force: true });
    });

    /** Nothing the check could have left: no result, no state, no alert; the website as it was. */
    async function nothingChanged() {
      const request = <T>(path: string) => stack.api.request<T>('GET', path, { token: stack.token });
      expect((await request<{ items: unknown[] }>(`/api/monitors/${monitorId}/results`)).body.items).toEqual(
        [],
      );
      expect((await request<{ status: string }>(`/api/monitors/${monitorId}`)).body.status).toBe('unknown');
      expect(await stack.status(websiteId)).toMatchObject({ status: 'up', openIncidentId: null });
      const { db } = stack.api;
      expect(await db.collection('monitor_log').countDocuments({ monitorId })).toBe(0);
      expect(await db.collection('events').countDocuments({ websiteId, type: /^browser\./ })).toBe(0);
      expect(await db.collection('incidents').countDocuments({ websiteId })).toBe(0);
      expect(await db.collection('run_artifacts').countDocuments({ websiteId })).toBe(0);
    }

    it('a browser killed under the run, twice: the check stores no result and changes no state', async () => {
      const made = await stack.api.request<{ id: number }>('POST', `/api/websites/${websiteId}/monitors`, {
        token: stack.token,
        // Waits for what never comes: the browser is killed while it waits.
        body: journey(shop, 'Waits', [
          {
            action: 'waitFor',
            until: 'element',
            locator: { by: 'css', selector: '#never' },
            timeoutMs: 30_000,
          },
        ]),
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      monitorId = made.body.id;
      // Its first run is due as it is made: played, broken, played again on a fresh browser, broken again.
      await expect
        .poll(() => warned.includes('the browser broke twice under this journey'), { timeout: 60_000 })
        .toBe(true);
      expect(warned).toContain('the journey browser broke under a run: launched again');
      expect(warned).toContain(`"monitor":"browser:${monitorId}"`);
      await nothingChanged();
    });

    it('a browser that cannot start: the check stores no result and changes no state', async () => {
      writeFileSync(join(folder, 'cannot-start'), '');
      warned = '';
      const { REDIS_KEY_PREFIX: prefix, NODE_REGION: region } = stack.api.config;
      await new DueSet(redis, regionDueKey(prefix, region, MONITOR_KINDS.browser.lane)).schedule(
        { kind: 'browser', monitorId, organizationId: stack.organizationId, websiteId },
        Date.now(),
      );
      // Made due now, or tried again 30 s after the last failure, whichever the lane takes first.
      await expect.poll(() => warned.includes('chromium could not start'), { timeout: 60_000 }).toBe(true);
      expect(warned).toContain('check not made; tried again later');
      await nothingChanged();
    });
  });

  describe('a worker storing runs’ files through a connection to MongoDB that can be cut', () => {
    let api: TestApi;
    let proxy: MongoFaultProxy;
    let worker: RunningService;
    let token: string;
    let websiteId: number;
    let websitePublicId: string;

    const request = <T>(method: string, path: string, body?: unknown) =>
      api.request<T>(method, path, { token, ...(body === undefined ? {} : { body }) });

    /** A journey made a monitor, and its first run (due as it is made), played by the worker. */
    async function firstRun(body: ReturnType<typeof journey>): Promise<{ monitorId: number; run: Result }> {
      const made = await request<{ id: number }>('POST', `/api/websites/${websiteId}/monitors`, body);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const results = async () =>
        (await request<{ items: Result[] }>('GET', `/api/monitors/${made.body.id}/results`)).body.items;
      await expect.poll(async () => (await results()).length, { timeout: 60_000 }).toBe(1);
      return { monitorId: made.body.id, run: (await results())[0] as Result };
    }

    /** A run's files as stored, without their bytes. */
    const filesOf = (runId: string) =>
      api.db
        .collection<{ kind: string; name: string; retainUntil: Date }>('run_artifacts')
        .find({ runId }, { projection: { _id: 0, kind: 1, name: 1, retainUntil: 1 } })
        .sort({ kind: 1, name: 1 })
        .toArray();

    /** The browser.down alert of a monitor, once told. */
    async function downAlert(monitorId: number) {
      const events = api.db.collection<{ data: Record<string, unknown> }>('events');
      const query = { type: 'browser.down', 'data.monitor.monitorId': monitorId };
      await expect.poll(() => events.countDocuments(query), { timeout: 30_000 }).toBe(1);
      return (await events.findOne(query))?.data;
    }

    beforeAll(async () => {
      api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true', PUBLIC_URL });
      proxy = await startMongoFaultProxy(api.config.MONGODB_URL);
      worker = await startWorker(
        { ...api.config, MONGODB_URL: proxy.url, NODE_PUBLIC_IP: '203.0.113.50', NODE_ID: 'journey-files' },
        createLogger('worker', 'silent'),
      );
      ({ token } = await api.createOrganization(['admin']));
      const pkg = await createPackage(api, token, {
        limits: { minBrowserIntervalSeconds: 60, resultRetentionDays: 30 },
        alerting: { confirmations: 1, recoveryConfirmations: 1 },
      });
      const customerId = await createCustomer(api, token, pkg.id);
      const website = await request<{ id: number; publicId: string }>('POST', '/api/websites', {
        customerId,
        name: 'Tea Shop',
        url: `${shop.url}/`,
      });
      expect(website.status).toBe(201);
      websiteId = website.body.id;
      websitePublicId = website.body.publicId;
    }, 90_000);
    afterAll(async () => {
      await worker?.stop();
      await proxy?.close();
      await api?.stop();
    });

    it('a passing run keeps its screenshot steps a week and no trace; its evidence says so', async () => {
      const { run } = await firstRun(journey(shop, 'Shows the sign-in page'));
      expect(run.status).toBe('up');
      const keptUntil = new Date(Date.parse(run.at) + 7 * DAY_MS);
      expect(await filesOf(run.evidence.runId)).toEqual([
        { kind: 'screenshot', name: 'sign-in', retainUntil: keptUntil },
      ]);
      expect(run.evidence).toMatchObject({
        screenshots: ['sign-in'],
        trace: false,
        filesKeptUntil: keptUntil.toISOString(),
      });
    });

    it('a failing run keeps its screenshots, the failure’s and its trace as long as its result; its alert links the screenshot', async () => {
      const { monitorId, run } = await firstRun(journey(shop, 'Signs in', [missing]));
      expect(run.status).toBe('down');
      const keptUntil = new Date(Date.parse(run.at) + 30 * DAY_MS);
      expect(await filesOf(run.evidence.runId)).toEqual([
        { kind: 'screenshot', name: 'failure', retainUntil: keptUntil },
        { kind: 'screenshot', name: 'sign-in', retainUntil: keptUntil },
        { kind: 'trace', name: 'trace', retainUntil: keptUntil },
      ]);
      expect(run.evidence).toMatchObject({ trace: true, filesKeptUntil: keptUntil.toISOString() });
      expect(await downAlert(monitorId)).toMatchObject({
        screenshotUrl: `${PUBLIC_URL}/api/websites/${websitePublicId}/results/${run.evidence.runId}/screenshot`,
      });
    });

    it('files that could not be stored: the alert links no screenshot and the result says none can be read', async () => {
      const cut = proxy.dropOnce(commandOn('insert', 'run_artifacts'));
      const { monitorId, run } = await firstRun(journey(shop, 'Signs in again', [missing]));
      await cut;
      expect(run.status).toBe('down');
      expect(await filesOf(run.evidence.runId)).toEqual([]);
      const alert = await downAlert(monitorId);
      expect(alert).toMatchObject({ status: 'down', monitor: { monitorId } });
      expect(alert).not.toHaveProperty('screenshotUrl');
      expect(run.evidence.filesKeptUntil).toBeNull();
    });
  });
});
