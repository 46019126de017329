/**
 * What heartbeats, DNS and port checks cost:
 *   - the API, for a ping: the API as its own process on FerretDB and Redis (started here on free
 *     ports unless MONGODB_URL / REDIS_URL are set), `--heartbeats` heartbeats (1,000) each pinged
 *     in turn for `--seconds` over one connection (what a ping costs: p50/p99) and over
 *     `--connections` (throughput), with the API's CPU per ping; and pings of unknown tokens;
 *   - a worker, for a check: `resolveDns` against a local DNS server and `probePort` against a
 *     local banner server and a TLS one, one at a time and `--connections` at once: wall time
 *     and this process's CPU per check. (What a result's decision costs afterwards is an HTTP
 *     check's: the same transition path, measured by `npm run bench:worker`.)
 *   - each probe kind (SMTP, IMAP, UDP, WebSocket, gRPC, ICMP): its whole check against a local
 *     server, the same figures.
 * Usage: npm run bench:monitors [-- --heartbeats 1000 --seconds 10 --connections 16 --runtime dist|tsx]
 */
import { once } from 'node:events';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { createServer as createTlsServer, rootCertificates } from 'node:tls';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { Pool } from 'undici';
import { PROBE_KINDS, type ProbeKindName } from '../libs/monitors/kinds/index.js';
import { probePort, resolveDns, systemResolve, TlsContexts } from '../libs/probe/index.js';
import { startDnsServer } from '../test/support/dns-server.js';
import { issue } from '../test/support/pki-forge.js';
import {
  startGrpcHealthServer,
  startMailServer,
  startUdpServer,
  startWebSocketServer,
} from '../test/support/service-servers.js';
import { benchOrganization, sendJson } from './support/api-client.js';
import { startApiProcess } from './support/api-process.js';
import { compileForDist, parseRuntime } from './support/app-runtime.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { loadFor } from './support/http-load.js';
import { cpuSecondsOf, percentile } from './support/process-stats.js';

const { values } = parseArgs({
  options: {
    heartbeats: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    runtime: { type: 'string', default: 'dist' },
  },
});
const runtime = parseRuntime(values.runtime);
const heartbeatCount = Number(values.heartbeats);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
if (!(Number.isInteger(heartbeatCount) && heartbeatCount >= 10 && seconds > 0 && connections > 0))
  throw new Error('--heartbeats must be a whole number of at least 10, --seconds and --connections positive');

const say = (message: string) => console.log(`[bench] ${message}`);
const ms = (value: number) => value.toFixed(2);
say(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
if (runtime === 'dist') compileForDist(say);

await withBenchDatabases('monitors', async (stack) => {
  const { url, pid } = await startApiProcess(stack, { runtime });
  const mongo = new MongoClient(stack.mongoUrl);
  await mongo.connect();
  const { token, heartbeat: node } = await benchOrganization(mongo.db());
  const pool = new Pool(url, { connections, pipelining: 1 });
  try {
    const perWebsite = 100;
    const pkg = await sendJson(pool, {
      method: 'POST',
      path: '/api/packages',
      token,
      body: {
        key: 'bench',
        displayName: 'Bench',
        limits: { maxHeartbeatsPerWebsite: perWebsite, maxWebsites: 1000 },
      },
      expected: 201,
    });
    const customer = await sendJson(pool, {
      method: 'POST',
      path: '/api/customers',
      token,
      body: { name: 'Bench', packageId: pkg.id },
      expected: 201,
    });
    const paths: string[] = [];
    const started = performance.now();
    const websiteCount = Math.ceil(heartbeatCount / perWebsite);
    const websiteIds: number[] = [];
    for (let w = 0; w < websiteCount; w++)
      websiteIds.push(
        (
          await sendJson(pool, {
            method: 'POST',
            path: '/api/websites',
            token,
            body: {
              customerId: customer.id,
              name: `Job host ${w}`,
              url: `https://jobs-${w}.example/`,
              checkInterval: 300,
            },
            expected: 201,
          })
        ).id,
      );
    // One website's monitors are created one at a time (under its lock), the websites' side by side.
    await Promise.all(
      websiteIds.map(async (websiteId, w) => {
        for (let i = 0; i < Math.min(perWebsite, heartbeatCount - w * perWebsite); i++) {
          const made = await sendJson<{ pingUrl: string }>(pool, {
            method: 'POST',
            path: `/api/websites/${websiteId}/heartbeats`,
            token,
            body: { name: `Job ${i}`, schedule: { periodSeconds: 3600 } },
            expected: 201,
          });
          paths.push(new URL(made.pingUrl).pathname);
        }
      }),
    );
    say(
      `${paths.length} heartbeats created over the API in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    let turn = 0;
    const nextPing = () => ({
      method: 'POST' as const,
      path: paths[turn++ % paths.length] as string,
      body: 'done\n',
    });
    for (const at of [1, connections]) {
      const cpuBefore = cpuSecondsOf(pid);
      const { latencies, errors } = await loadFor({
        pool,
        connections: at,
        durationMs: seconds * 1000,
        next: nextPing,
        expected: [200],
      });
      const cpu = cpuSecondsOf(pid) - cpuBefore;
      say(
        `ping (recorded), ${at} connection(s): ${latencies.length} in ${seconds} s (${Math.round(latencies.length / seconds)}/s), p50 ${ms(percentile(latencies, 50))} ms, p99 ${ms(percentile(latencies, 99))} ms, API CPU ${((cpu / latencies.length) * 1e6).toFixed(0)} µs a ping, not 200: ${errors}`,
      );
    }
    const unknown = await loadFor({
      pool,
      connections: 1,
      durationMs: seconds * 1000,
      next: () => ({ method: 'GET', path: `/ping/unknown${String(turn++).padStart(20, '0')}` }),
      expected: [404],
    });
    say(
      `ping (unknown token), 1 connection: p50 ${ms(percentile(unknown.latencies, 50))} ms, p99 ${ms(percentile(unknown.latencies, 99))} ms`,
    );
  } finally {
    await pool.close();
    await node.stop();
    await mongo.close();
  }
});

// --- A worker's side: one DNS query, one port check -----------------------------------------------
const dns = await startDnsServer({
  'shop.example': { A: ['192.0.2.10', '192.0.2.11'], MX: [{ priority: 10, exchange: 'mx.shop.example' }] },
});
const ca = issue({ commonName: 'Bench CA', isCa: true });
const leaf = issue({ commonName: '127.0.0.1', names: ['127.0.0.1'], issuer: ca });
const banner = createServer((socket) => socket.end('220 ready\r\n'));
const tls = createTlsServer({ cert: leaf.cert, key: leaf.key }, (socket) => socket.end('220 ready\r\n'));
banner.listen(0, '127.0.0.1');
tls.listen(0, '127.0.0.1');
await Promise.all([once(banner, 'listening'), once(tls, 'listening')]);
const portOf = (server: { address(): unknown }) => (server.address() as { port: number }).port;
const probe = {
  allowPrivateTargets: true,
  resolve: systemResolve,
  tls: new TlsContexts([...rootCertificates, ca.cert]),
};
const kinds: Array<{ name: string; run: () => Promise<{ error: unknown }> }> = [
  {
    name: 'DNS A',
    run: () =>
      resolveDns({ name: 'shop.example', recordType: 'A', timeoutMs: 2000 }, { resolvers: [dns.address] }),
  },
  {
    name: 'DNS MX',
    run: () =>
      resolveDns({ name: 'shop.example', recordType: 'MX', timeoutMs: 2000 }, { resolvers: [dns.address] }),
  },
  {
    name: 'port, banner',
    run: () =>
      probePort(
        { host: '127.0.0.1', port: portOf(banner), tls: false, expectBanner: '220', timeoutMs: 2000 },
        probe,
      ),
  },
  {
    name: 'port, TLS + banner',
    run: () =>
      probePort(
        { host: '127.0.0.1', port: portOf(tls), tls: true, expectBanner: '220', timeoutMs: 2000 },
        probe,
      ),
  },
];
// The probe kinds, each its whole check (probe, verdict, evidence) against a real local server.
const services = {
  smtp: await startMailServer('smtp', leaf),
  imap: await startMailServer('imap', leaf, { implicitTls: true }),
  udp: await startUdpServer((datagram) => datagram),
  websocket: await startWebSocketServer(),
  grpc: await startGrpcHealthServer({ '': 'SERVING' }),
};
const probeContext = {
  probe: { ...probe, userAgent: 'webmon-bench' },
  timeoutMs: 2000,
  alerting: { sslExpiryWarningDays: 14 },
};
const kindRun = (kind: ProbeKindName, settings: Record<string, unknown>) => async () => {
  const outcome = await PROBE_KINDS[kind].check(PROBE_KINDS[kind].settings.parse(settings), probeContext);
  return { error: outcome.verdict.status === 'up' ? null : outcome.verdict.cause };
};
kinds.push(
  { name: 'SMTP, STARTTLS', run: kindRun('smtp', { host: '127.0.0.1', port: services.smtp.port }) },
  {
    name: 'IMAP, TLS at once',
    run: kindRun('imap', { host: '127.0.0.1', port: services.imap.port, security: 'tls' }),
  },
  { name: 'UDP echo', run: kindRun('udp', { host: '127.0.0.1', port: services.udp.port, payload: 'ping' }) },
  {
    name: 'WebSocket, send + reply',
    run: kindRun('websocket', { url: `ws://127.0.0.1:${services.websocket.port}/`, send: 'ping' }),
  },
  { name: 'gRPC health', run: kindRun('grpc', { host: '127.0.0.1', port: services.grpc.port }) },
  // Its CPU is mostly the ping program's, a child process: this process's CPU leaves it out.
  { name: 'ICMP, 1 echo (ping is a child process)', run: kindRun('icmp', { host: '127.0.0.1', count: 1 }) },
);
const CHECKS = 2000;
for (const kind of kinds) {
  for (const at of [1, connections]) {
    const latencies: number[] = [];
    let failed = 0;
    const cpu = process.cpuUsage();
    const startedAt = performance.now();
    let left = CHECKS;
    await Promise.all(
      Array.from({ length: at }, async () => {
        while (left-- > 0) {
          const t = performance.now();
          if ((await kind.run()).error) failed++;
          latencies.push(performance.now() - t);
        }
      }),
    );
    const wall = (performance.now() - startedAt) / 1000;
    const used = process.cpuUsage(cpu);
    const sorted = Float64Array.from(latencies).sort();
    say(
      `${kind.name}, ${at} at once: ${CHECKS} in ${wall.toFixed(2)} s (${Math.round(CHECKS / wall)}/s), p50 ${ms(percentile(sorted, 50))} ms, p99 ${ms(percentile(sorted, 99))} ms, CPU ${((used.user + used.system) / CHECKS).toFixed(0)} µs a check, failed ${failed}`,
    );
  }
}
await dns.close();
await Promise.all(Object.values(services).map((service) => service.close()));
banner.close();
tls.close();
say(
  `load average at end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
