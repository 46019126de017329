import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../apps/worker/worker.js';
import { createLogger } from '../libs/logging/index.js';
import { cadenceOffsetMs, DueSet, regionDueKey, websiteCheckMember } from '../libs/scheduler/index.js';
import { createCustomer, createPackage, TestApi } from './support/harness.js';

/**
 * The fleet with real worker processes of different regions against one FerretDB and Redis: a
 * dead region does not hold a status, a stray region does not capture websites, schedules follow
 * nodes coming and going, unmonitored is told.
 */
describe('fleet: regions live with their nodes', () => {
  let api: TestApi;
  let token: string;
  let organizationId: number;
  let multiCustomer: number;
  let singleCustomer: number;
  let healthy = true;
  let target: Server;
  let targetUrl: string;
  const children = new Set<ChildProcess>();

  beforeAll(async () => {
    api = await TestApi.start({ ALLOW_PRIVATE_TARGETS: 'true', RECHECK_DELAY_SECONDS: '1' });
    ({ token, organizationId } = await api.createOrganization(['admin']));
    const settings = (multiRegion: boolean) => ({
      features: { multiRegion },
      limits: { minCheckIntervalSeconds: 10 },
      alerting: { confirmations: 2 },
    });
    multiCustomer = await createCustomer(api, token, (await createPackage(api, token, settings(true))).id);
    singleCustomer = await createCustomer(api, token, (await createPackage(api, token, settings(false))).id);
    target = createServer((_req, res) => {
      res.statusCode = healthy ? 200 : 503;
      res.end(healthy ? 'ok' : 'down');
    });
    target.listen(0, '127.0.0.1');
    await once(target, 'listening');
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  });
  // A test that fails midway must not leave its workers serving (and taking jobs) in the next one.
  afterEach(async () => {
    await Promise.all([...children].map((child) => stop(child, 'SIGTERM')));
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    target.closeAllConnections();
    target.close();
    await api.stop();
  });

  const nodes = () => api.db.collection<{ nodeId: string; stoppedAt: Date | null }>('monitoring_nodes');
  /** A worker process of `region`; resolves once its node is registered (however slowly it starts). */
  async function spawnWorker(region: string, nodeId: string): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/worker/main.ts'], {
      env: {
        ...process.env,
        MONGODB_URL: api.config.MONGODB_URL,
        REDIS_URL: api.config.REDIS_URL,
        REDIS_KEY_PREFIX: api.config.REDIS_KEY_PREFIX,
        SECRETS_KEY: api.config.SECRETS_KEY?.toString('base64') ?? '',
        ALLOW_PRIVATE_TARGETS: 'true',
        RECHECK_DELAY_SECONDS: '1',
        NODE_REGION: region,
        NODE_ID: nodeId,
        NODE_PUBLIC_IP: '203.0.113.20',
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    children.add(child);
    child.once('exit', () => children.delete(child));
    await expect
      .poll(async () => (await nodes().findOne({ nodeId }))?.stoppedAt === null, {
        timeout: 90_000,
        interval: 250,
      })
      .toBe(true);
    return child;
  }
  async function stop(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  }
  const website = async (customerId: number, extra: Record<string, unknown> = {}) =>
    (
      await api.request<{ id: number; publicId: string }>('POST', '/api/websites', {
        token,
        body: {
          customerId,
          name: 'Fleet',
          url: `${targetUrl}/`,
          checkInterval: 10,
          timeoutSeconds: 5,
          ...extra,
        },
      })
    ).body;
  type Status = {
    status: string;
    since: string | null;
    lastCheckedAt: string | null;
    openIncidentId: string | null;
    unmonitored: { reason: string } | null;
    regions: Record<
      string,
      { status: string; fresh: boolean; consecutiveDown: number; lastCheckedAt: string }
    >;
  };
  const status = async (id: number) =>
    (await api.request<Status>('GET', `/api/websites/${id}/status`, { token })).body;
  const events = async (websiteId: number, type: string) =>
    api.db.collection('events').countDocuments({ websiteId, type });
  const resultsFrom = (websiteId: number, region: string, after: Date) =>
    api.db.collection('check_results').countDocuments({ websiteId, region, startedAt: { $gt: after } });

  it('a dead region does not hold a down: the website recovers on the live region, incident resolved', async () => {
    healthy = false;
    const eu = await spawnWorker('eu-west', 'eu-1');
    const us = await spawnWorker('us-east', 'us-1');
    const site = await website(multiCustomer);
    await expect
      .poll(
        async () => {
          const s = await status(site.id);
          return (
            s.status === 'down' &&
            (s.regions['eu-west']?.consecutiveDown ?? 0) >= 2 &&
            (s.regions['us-east']?.consecutiveDown ?? 0) >= 2
          );
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
    const incident = (await status(site.id)).openIncidentId;
    expect(await events(site.id, 'website.down')).toBe(1);

    await stop(us, 'SIGKILL');
    healthy = true;
    const recoveredBy = Date.now() + 2 * 10_000 + 30_000;
    await expect
      .poll(async () => (await status(site.id)).status, { timeout: 55_000, interval: 500 })
      .toBe('up');
    expect(Date.now()).toBeLessThanOrEqual(recoveredBy);
    expect(await events(site.id, 'website.up')).toBe(1);
    expect(await api.db.collection('incidents').findOne({ id: incident })).toMatchObject({
      resolvedAt: expect.any(Date),
    });
    // eu-west reads fresh once its latest result is recent (on a loaded machine its next one may be late).
    await expect
      .poll(async () => (await status(site.id)).regions['eu-west'], { timeout: 30_000, interval: 500 })
      .toMatchObject({ status: 'up', fresh: true });
    const shown = await status(site.id);
    expect(shown.regions['us-east']?.fresh ?? false).toBe(false);
    expect(Date.parse(shown.since ?? '')).toBeGreaterThan(Date.now() - 60_000);
    await stop(eu, 'SIGTERM');
  }, 240_000);

  it.each(['SIGTERM', 'SIGKILL'] as const)(
    'a stray region started and stopped (%s) captures nothing; its websites move to a serving region',
    async (signal) => {
      const eu = await spawnWorker('eu-west', `eu-${signal}`);
      const existing = await website(singleCustomer);
      await expect
        .poll(() => resultsFrom(existing.id, 'eu-west', new Date(0)), { timeout: 20_000 })
        .toBeGreaterThan(0);
      const stray = await spawnWorker('aa-test', `aa-${signal}`);
      const strayServing = new Date();
      // Created while the stray region serves: it goes there (first serving region) and is checked at once.
      const created = await website(singleCustomer);
      await expect
        .poll(() => resultsFrom(created.id, 'aa-test', new Date(0)), { timeout: 15_000 })
        .toBeGreaterThan(0);
      // The existing one came due while the stray served (it could have been captured): eu-west checked it.
      await expect
        .poll(() => resultsFrom(existing.id, 'eu-west', strayServing), { timeout: 30_000, interval: 250 })
        .toBeGreaterThan(0);
      await stop(stray, signal);
      const stoppedAt = new Date();
      // Within 60 s of the stop both are checked from eu-west; the existing one never left it.
      await expect
        .poll(() => resultsFrom(created.id, 'eu-west', stoppedAt), { timeout: 60_000, interval: 500 })
        .toBeGreaterThan(0);
      expect(await resultsFrom(existing.id, 'aa-test', new Date(0))).toBe(0);
      expect((await api.db.collection('websites').findOne({ id: created.id }))?.scheduledRegions).toEqual([
        'eu-west',
      ]);
      expect((await status(created.id)).status).not.toBe('unmonitored');
      await stop(eu, 'SIGTERM');
    },
    240_000,
  );

  it('a new region checks existing multi-region websites within 15 s; no region → unmonitored, told once', async () => {
    healthy = true;
    const eu = await spawnWorker('eu-west', 'eu-new');
    const site = await website(multiCustomer);
    await expect.poll(async () => (await status(site.id)).status, { timeout: 20_000 }).toBe('up');
    const before = Date.now();
    const us = await spawnWorker('ap-south', 'ap-1');
    const registered = (await nodes().findOne({ nodeId: 'ap-1' })) as unknown as { startedAt: Date };
    await expect
      .poll(() => resultsFrom(site.id, 'ap-south', new Date(before)), { timeout: 20_000, interval: 250 })
      .toBeGreaterThan(0);
    const first = await api.db
      .collection<{ startedAt: Date }>('check_results')
      .findOne({ websiteId: site.id, region: 'ap-south' }, { sort: { startedAt: 1 } });
    expect(
      (first?.startedAt.getTime() ?? Number.POSITIVE_INFINITY) - registered.startedAt.getTime(),
    ).toBeLessThanOrEqual(15_000);

    // Every node gone: the API notices, the website is unmonitored, told once.
    await Promise.all([stop(eu, 'SIGTERM'), stop(us, 'SIGTERM')]);
    await expect
      .poll(async () => (await status(site.id)).status, { timeout: 20_000, interval: 500 })
      .toBe('unmonitored');
    expect((await status(site.id)).unmonitored?.reason).toBe('no active monitoring node in any region');
    await expect.poll(() => events(site.id, 'website.unmonitored'), { timeout: 20_000 }).toBe(1);
    // A full reconcile after it (the API's fleet watcher runs one when Redis lost the regions it
    // applied) could tell it again: it does not.
    const applied = `${api.config.REDIS_KEY_PREFIX}:fleet:serving`;
    const redis = new Redis(api.config.REDIS_URL);
    try {
      await redis.del(applied);
      await expect.poll(() => redis.get(applied), { timeout: 30_000, interval: 250 }).toBe('');
    } finally {
      redis.disconnect();
    }
    expect(await events(site.id, 'website.unmonitored')).toBe(1);
    const back = await spawnWorker('eu-west', 'eu-back');
    await expect.poll(() => events(site.id, 'website.monitored'), { timeout: 20_000 }).toBe(1);
    await expect.poll(async () => (await status(site.id)).status, { timeout: 20_000 }).toBe('up');
    await stop(back, 'SIGTERM');
  }, 240_000);

  it('a check that starts more than an interval late is dropped and counted, not probed', async () => {
    const worker = await startWorker(
      { ...api.config, NODE_REGION: 'eu-west', NODE_ID: 'stale-check', NODE_PUBLIC_IP: '203.0.113.21' },
      createLogger('worker', 'silent'),
    );
    const redis = new Redis(api.config.REDIS_URL);
    const due = new DueSet(redis, regionDueKey(api.config.REDIS_KEY_PREFIX, 'eu-west', 'http'));
    try {
      const site = await website(singleCustomer, { checkInterval: 300 });
      await expect.poll(() => resultsFrom(site.id, 'eu-west', new Date(0)), { timeout: 20_000 }).toBe(1);
      // Its check due ten minutes ago (a region whose workers were all away that long).
      const member = websiteCheckMember(site.id, organizationId);
      await due.schedule(member, Date.now() - 10 * 60_000);
      // Dropped, then put back at its next slot of the cadence (not left at its lease's end).
      const staleCount = async () =>
        (await worker.metrics.getSingleMetric('webmon_checks_dropped_total')?.get())?.values.find(
          (series) => series.labels.reason === 'stale',
        )?.value ?? 0;
      await expect.poll(staleCount, { timeout: 20_000 }).toBe(1);
      const onCadence = async () => {
        const at = (await due.members()).find((m) => m.member.websiteId === site.id)?.at ?? 0;
        return at > Date.now() && (at - cadenceOffsetMs(site.id, 300_000)) % 300_000 === 0;
      };
      await expect.poll(onCadence, { timeout: 5_000 }).toBe(true);
      expect(await resultsFrom(site.id, 'eu-west', new Date(0))).toBe(1);
      const dropped = await worker.metrics.getSingleMetric('webmon_checks_dropped_total')?.get();
      // Only the stale count is this check's: other websites' slots may overlap on a loaded machine.
      expect(dropped?.values.filter((series) => series.labels.reason === 'stale')).toEqual([
        { labels: { region: 'eu-west', reason: 'stale' }, value: 1 },
      ]);
    } finally {
      redis.disconnect();
      await worker.stop();
    }
  }, 120_000);

  it('status says what is true: a changed URL is checked at once; paused and cancelled with when they began', async () => {
    healthy = true;
    const worker = await startWorker(
      { ...api.config, NODE_REGION: 'eu-west', NODE_ID: 'truth', NODE_PUBLIC_IP: '203.0.113.22' },
      createLogger('worker', 'silent'),
    );
    try {
      const customerId = await createCustomer(
        api,
        token,
        (await createPackage(api, token, { limits: { minCheckIntervalSeconds: 10 } })).id,
      );
      const site = await website(customerId, { checkInterval: 300 });
      await expect.poll(async () => (await status(site.id)).status, { timeout: 20_000 }).toBe('up');
      const upSince = (await status(site.id)).since;
      // The next scheduled check is up to 5 minutes away: a result within seconds is the check at once.
      const patchedAt = new Date();
      await api.request('PATCH', `/api/websites/${site.publicId}`, {
        token,
        body: { url: `${targetUrl}/?v=2` },
      });
      await expect.poll(() => resultsFrom(site.id, 'eu-west', patchedAt), { timeout: 10_000 }).toBe(1);
      expect((await status(site.id)).since).toBe(upSince);

      const pausedAt = Date.now();
      await api.request('PATCH', `/api/websites/${site.publicId}`, { token, body: { paused: true } });
      const paused = await status(site.id);
      expect(paused.status).toBe('paused');
      expect(Date.parse(paused.since ?? '')).toBeGreaterThanOrEqual(pausedAt - 1000);
      await api.request('PATCH', `/api/websites/${site.publicId}`, { token, body: { paused: false } });

      const cancellationDate = new Date(Date.now() + 3000).toISOString();
      const marked = await api.request('PATCH', `/api/customers/${customerId}`, {
        token,
        body: { status: 'marked_for_cancellation', cancellationDate },
      });
      expect(marked.status).toBe(200);
      await expect
        .poll(async () => (await status(site.id)).status, { timeout: 20_000, interval: 500 })
        .toBe('cancelled');
      expect(Date.parse((await status(site.id)).since ?? '')).toBeGreaterThanOrEqual(
        Date.parse(cancellationDate) - 1000,
      );
    } finally {
      await worker.stop();
    }
  }, 120_000);
});
