import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
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
import { type Running, startGrpcHealthServer, startUdpServer } from './support/service-servers.js';
import { startHttpTarget, type Target } from './support/targets.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * MongoDB stalled (SIGSTOP) for 22 s while a worker runs a website's UDP, gRPC and port checks
 * every 10 s: they go on meanwhile (each has results made inside the stall), the UDP check that
 * fails during it is decided down on the hot state and told once MongoDB answers, once, and every
 * result is stored once. A heartbeat's failure ping during the stall is decided then too, and
 * another's missed deadline (its decision kept in the worker until MongoDB answers). A FerretDB of
 * its own, since it is stopped.
 */
describe('other kinds of monitors when MongoDB stalls', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'webmon-monitor-stall-'));
  let ferret: EmbeddedServer;
  let api: TestApi;
  let worker: RunningService | undefined;
  let notifier: RunningService | undefined;
  let receiver: Receiver;
  let target: Target;
  let tcp: Server;
  const servers: Running[] = [];
  let udpAnswers = true;

  beforeAll(async () => {
    const port = await findFreePort();
    ferret = await startFerretDb({
      port,
      dataDir: join(dataDir, 'ferretdb'),
      database: 'stall',
      say: () => {},
    });
    api = await TestApi.start({
      MONGODB_URL: ferret.url,
      ALLOW_PRIVATE_TARGETS: 'true',
      RECHECK_DELAY_SECONDS: '1',
    });
    receiver = await startReceiver();
    target = await startHttpTarget();
    servers.push(await startUdpServer((datagram) => (udpAnswers ? datagram : null)));
    servers.push(await startGrpcHealthServer({ '': 'SERVING' }));
    tcp = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await notifier?.stop();
    await api?.stop();
    await receiver?.close();
    await target?.close();
    tcp?.close();
    await Promise.all(servers.map((server) => server.close()));
    await ferret?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('checks and decides on through a 22 s stall, storing each result and telling each change once after', async () => {
    const { token } = await api.createOrganization(['admin']);
    const pkg = await createPackage(api, token, {
      limits: { minCheckIntervalSeconds: 10 },
      alerting: { confirmations: 1 },
    });
    const customerId = await createCustomer(api, token, pkg.id);
    const channel = await api.request('POST', '/api/notification-channels', {
      token,
      body: { type: 'webhook', name: 'Ops', config: { url: `${receiver.url}/hooks/ops` } },
    });
    expect(channel.status).toBe(201);
    const website = await api.request<{ id: number }>('POST', '/api/websites', {
      token,
      body: { customerId, name: 'Shop', url: target.url, checkInterval: 60 },
    });
    expect(website.status).toBe(201);
    const tcpPort = (tcp.address() as { port: number }).port;
    const [udpServer, grpcServer] = servers as [Running, Running];
    const bodies = {
      udp: {
        kind: 'udp',
        host: '127.0.0.1',
        port: udpServer.port,
        payload: 'PING',
        intervalSeconds: 10,
        timeoutSeconds: 1,
      },
      grpc: { kind: 'grpc', host: '127.0.0.1', port: grpcServer.port, intervalSeconds: 10 },
      port: { host: '127.0.0.1', port: tcpPort, intervalSeconds: 10 },
    };
    const ids: Record<string, number> = {};
    for (const [kind, body] of Object.entries(bodies)) {
      const route = kind === 'port' ? 'port-checks' : 'monitors';
      const made = await api.request<{ id: number }>('POST', `/api/websites/${website.body.id}/${route}`, {
        token,
        body,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      ids[kind] = made.body.id;
    }
    const heartbeat = await api.request<{ id: number; pingUrl: string }>(
      'POST',
      `/api/websites/${website.body.id}/heartbeats`,
      { token, body: { name: 'Backup', schedule: { periodSeconds: 3600 }, graceSeconds: 3600 } },
    );
    expect(heartbeat.status, JSON.stringify(heartbeat.body)).toBe(201);
    const pingPath = new URL(heartbeat.body.pingUrl).pathname;
    worker = await startWorker(
      { ...api.config, NODE_PUBLIC_IP: '203.0.113.31', NODE_ID: 'stall' },
      createLogger('worker', api.config.LOG_LEVEL),
    );
    notifier = await startNotifier(api.config, createLogger('notifier', api.config.LOG_LEVEL));
    const log = api.db.collection<{ monitorId: number; kind: string; at: Date; once?: string }>(
      'monitor_log',
    );
    const checked = async (since: Date) =>
      (await log.distinct('kind', { monitorId: { $in: Object.values(ids) }, at: { $gt: since } })).length;
    await expect.poll(() => checked(new Date(0)), { timeout: 60_000, interval: 500 }).toBe(3);
    // Heard before the stall: up.
    expect((await api.request('POST', pingPath, { rawBody: 'ok\n' })).status).toBe(200);
    const heartbeatStatus = async () =>
      (await api.request<{ status: string }>('GET', `/api/heartbeats/${heartbeat.body.id}`, { token })).body
        .status;
    await expect.poll(heartbeatStatus, { timeout: 30_000, interval: 250 }).toBe('up');

    // Stalled right after a UDP check (its next one fails within the stall): accepts connections,
    // answers nothing; the UDP server stops answering meanwhile.
    const fresh = async () =>
      log.countDocuments({ monitorId: ids.udp, kind: 'udp', at: { $gt: new Date(Date.now() - 700) } });
    await expect.poll(fresh, { timeout: 30_000, interval: 100 }).toBeGreaterThan(0);
    // Made and pinged just before the stall: its deadline (10 s on) comes while MongoDB stalls.
    const nightly = await api.request<{ id: number; pingUrl: string }>(
      'POST',
      `/api/websites/${website.body.id}/heartbeats`,
      { token, body: { name: 'Nightly', schedule: { periodSeconds: 10 }, graceSeconds: 0 } },
    );
    expect(nightly.status, JSON.stringify(nightly.body)).toBe(201);
    expect((await api.request('POST', new URL(nightly.body.pingUrl).pathname, { rawBody: '' })).status).toBe(
      200,
    );
    const nightlyStatus = async () =>
      (await api.request<{ status: string }>('GET', `/api/heartbeats/${nightly.body.id}`, { token })).body
        .status;
    await expect.poll(nightlyStatus, { timeout: 5_000, interval: 100 }).toBe('up');
    udpAnswers = false;
    const stall = { from: Date.now(), to: 0 };
    process.kill(ferret.pid, 'SIGSTOP');
    try {
      await sleep(1_000);
      // Pings are answered from Redis while MongoDB stalls; this one fails the job.
      expect((await api.request('POST', `${pingPath}/3`, { rawBody: 'disk full\n' })).status).toBe(200);
      // Past the deadline's judgement (10 s in) by more than a write's 10 s bound: its decision
      // cannot wait for MongoDB, it is kept in the buffer.
      await sleep(21_000);
    } finally {
      stall.to = Date.now();
      process.kill(ferret.pid, 'SIGCONT');
    }
    await expect.poll(() => checked(new Date(stall.to)), { timeout: 60_000, interval: 500 }).toBe(3);
    const downs = () =>
      receiver.to('/hooks/ops').filter((r) => (r.json as { type?: string } | undefined)?.type === 'udp.down');
    await expect.poll(() => downs().length, { timeout: 60_000, interval: 500 }).toBe(1);
    const heartbeatDownsOf = (id: number) =>
      receiver.to('/hooks/ops').filter((r) => {
        const json = r.json as { type?: string; data?: { monitor?: { monitorId?: number } } } | undefined;
        return json?.type === 'heartbeat.down' && json.data?.monitor?.monitorId === id;
      });
    const heartbeatDowns = () => heartbeatDownsOf(heartbeat.body.id);
    await expect.poll(() => heartbeatDowns().length, { timeout: 60_000, interval: 500 }).toBe(1);
    await expect
      .poll(() => heartbeatDownsOf(nightly.body.id).length, { timeout: 60_000, interval: 500 })
      .toBe(1);
    await worker.stop();
    worker = undefined;

    for (const [kind, id] of Object.entries(ids)) {
      const entries = await log.find({ monitorId: id, kind }).toArray();
      const times = entries.map((entry) => entry.at.getTime());
      // Checked on through the stall, each result stored once.
      expect({ kind, inStall: times.some((t) => t > stall.from && t < stall.to) }).toEqual({
        kind,
        inStall: true,
      });
      expect({ kind, distinct: new Set(times).size }).toEqual({ kind, distinct: times.length });
    }
    // Told once, decided while MongoDB stalled (on the hot state), written after.
    const told = downs();
    expect(told).toHaveLength(1);
    const down = told[0]?.json as
      | { createdAt: string; data: { monitor?: { monitorId: number } } }
      | undefined;
    expect(down?.data.monitor?.monitorId).toBe(ids.udp);
    const decidedAt = Date.parse(down?.createdAt ?? '');
    expect(decidedAt).toBeGreaterThan(stall.from);
    expect(decidedAt).toBeLessThan(stall.to);
    expect(await api.db.collection('events').countDocuments({ type: 'udp.down' })).toBe(1);

    // The heartbeat's failure: decided during the stall (on the hot state), told once after it;
    // both pings in its log once each, the failure's time written.
    const heartbeatDown = heartbeatDowns()[0]?.json as { createdAt: string } | undefined;
    const heartbeatDecidedAt = Date.parse(heartbeatDown?.createdAt ?? '');
    expect(heartbeatDecidedAt).toBeGreaterThan(stall.from);
    expect(heartbeatDecidedAt).toBeLessThan(stall.to);
    expect(await api.db.collection('events').countDocuments({ type: 'heartbeat.down' })).toBe(2);
    // The missed deadline too: judged while MongoDB stalled, from the worker's copy and the
    // deadline Redis held (no ping moved it), told once after.
    const nightlyDown = heartbeatDownsOf(nightly.body.id)[0]?.json as { createdAt: string } | undefined;
    const nightlyDecidedAt = Date.parse(nightlyDown?.createdAt ?? '');
    expect(nightlyDecidedAt).toBeGreaterThan(stall.from);
    expect(nightlyDecidedAt).toBeLessThan(stall.to);
    expect(await nightlyStatus()).toBe('down');
    const pings = await log.find({ monitorId: heartbeat.body.id, kind: 'heartbeat' }).toArray();
    expect(pings).toHaveLength(2);
    const stored = await api.db.collection('website_monitors').findOne({ id: heartbeat.body.id });
    expect((stored?.lastFailureAt as Date | undefined)?.getTime()).toBeGreaterThan(stall.from);
    expect(await heartbeatStatus()).toBe('down');
  }, 180_000);
});
