/**
 * API hot-path benchmark: the API as its own process on FerretDB and Redis (started here on free
 * ports unless MONGODB_URL / REDIS_URL are set), loaded from this process over loopback.
 * Prints requests/s, latency percentiles, API CPU seconds per 1,000 requests and API RSS for:
 *   - GET /healthz (no I/O: the HTTP layer alone)
 *   - GET /api/tokens/:id (token lookup in MongoDB, rate limit in Redis, one indexed read)
 *   - an agency importing its portfolio: N websites created one after the other, each a POST
 *     /api/websites and a PATCH of its check configuration (total time, per-request percentiles)
 * Usage: npm run bench [-- --seconds 10 --connections 32 --import 1000 --runtime dist|tsx]
 *   (dist, the default: the API compiled by `npm run build` first, as the Docker image runs it;
 *   tsx: the sources, as `npm start` runs them)
 * BENCH_API_CPU_PROF=<dir> makes the API write a V8 CPU profile (.cpuprofile) there when it stops.
 */
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { Pool } from 'undici';
import { benchOrganization, sendJson } from './support/api-client.js';
import { startApiProcess } from './support/api-process.js';
import { compileForDist, parseRuntime } from './support/app-runtime.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { loadFor } from './support/http-load.js';
import { cpuSecondsOf, percentile, rssMiBOf } from './support/process-stats.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    import: { type: 'string', default: '1000' },
    runtime: { type: 'string', default: 'dist' },
  },
});
const runtime = parseRuntime(values.runtime);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const importCount = Number(values.import);
if (!(seconds > 0 && connections > 0 && Number.isInteger(importCount) && importCount >= 0))
  throw new Error('--seconds and --connections must be positive numbers, --import a whole number');

/** Creates `count` websites with their check configuration, one request at a time, as an import script would. */
async function importWebsites(pool: Pool, token: string, count: number, pid: number): Promise<void> {
  const pkg = await sendJson(pool, {
    method: 'POST',
    path: '/api/packages',
    token,
    body: {
      key: 'import',
      displayName: 'Import',
      limits: { maxWebsites: count, minCheckIntervalSeconds: 60 },
    },
    expected: 201,
  });
  const customer = await sendJson(pool, {
    method: 'POST',
    path: '/api/customers',
    token,
    body: { name: 'Imported agency', packageId: pkg.id, email: 'ops@example.com' },
    expected: 201,
  });
  const latencies: number[] = [];
  const byRequest = { create: [] as number[], configure: [] as number[] };
  const timed = async <T>(kind: keyof typeof byRequest, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    latencies.push(performance.now() - started);
    byRequest[kind].push(performance.now() - started);
    return result;
  };
  const cpuBefore = cpuSecondsOf(pid);
  const started = performance.now();
  for (let i = 1; i <= count; i++) {
    const website = await timed('create', () =>
      sendJson(pool, {
        method: 'POST',
        path: '/api/websites',
        token,
        body: {
          customerId: customer.id,
          name: `Site ${i}`,
          url: `https://site-${i}.example.com/`,
          checkInterval: 300,
        },
        expected: 201,
      }),
    );
    await timed('configure', () =>
      sendJson(pool, {
        method: 'PATCH',
        path: `/api/websites/${website.id}/check-config`,
        token,
        body: { checkKeywordEnabled: true, keyword: 'Welcome', checkResponseTimeEnabled: true },
        expected: 200,
      }),
    );
    if (i % 250 === 0) console.log(`  … ${i} of ${count} websites`);
  }
  const elapsed = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  console.log(
    `import of ${count} websites with check configuration: ${elapsed.toFixed(1)} s, ${(latencies.length / elapsed).toFixed(0)} requests/s, ` +
      `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted[sorted.length - 1]?.toFixed(1)} ms, ` +
      `API CPU ${(((cpuSecondsOf(pid) - cpuBefore) / latencies.length) * 1000).toFixed(2)} s/1k requests`,
  );
  for (const [kind, values] of Object.entries(byRequest)) {
    const sortedKind = Float64Array.from(values).sort();
    console.log(
      `  ${kind === 'create' ? 'POST /api/websites' : 'PATCH …/check-config'}: p50 ${percentile(sortedKind, 50).toFixed(1)} ms, p99 ${percentile(sortedKind, 99).toFixed(1)} ms`,
    );
  }
}

function load(pool: Pool, path: string, headers: Record<string, string>, durationMs: number) {
  return loadFor({
    pool,
    connections,
    durationMs,
    next: () => ({ method: 'GET', path, headers }),
    expected: [200],
  });
}

if (runtime === 'dist') compileForDist((message) => console.log(`[bench] ${message}`));

const profileArgs = process.env.BENCH_API_CPU_PROF
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_API_CPU_PROF}`]
  : [];

await withBenchDatabases('api', async (stack) => {
  const { port, pid } = await startApiProcess(stack, { runtime, nodeArgs: profileArgs });
  const mongo = new MongoClient(stack.mongoUrl);
  await mongo.connect();
  const { tokenId, token, heartbeat } = await benchOrganization(mongo.db());

  const pool = new Pool(`http://127.0.0.1:${port}`, { connections, pipelining: 1 });
  console.log(
    `API benchmark (${runtime}): ${connections} connections, ${seconds} s per scenario, Node ${process.version}`,
  );
  console.log(
    'scenario                     req/s    p50 ms   p95 ms   p99 ms   errors   API CPU s/1k req   API RSS MiB',
  );
  for (const [name, path, headers] of [
    ['GET /healthz', '/healthz', {}],
    ['GET /api/tokens/:id (auth)', `/api/tokens/${tokenId}`, { authorization: `Bearer ${token}` }],
  ] as const) {
    await load(pool, path, headers, 1000); // warm-up
    const cpuBefore = cpuSecondsOf(pid);
    const started = performance.now();
    const { latencies, errors } = await load(pool, path, headers, seconds * 1000);
    const elapsed = (performance.now() - started) / 1000;
    const cpu = cpuSecondsOf(pid) - cpuBefore;
    const row = [
      name.padEnd(26),
      (latencies.length / elapsed).toFixed(0).padStart(7),
      percentile(latencies, 50).toFixed(2).padStart(9),
      percentile(latencies, 95).toFixed(2).padStart(8),
      percentile(latencies, 99).toFixed(2).padStart(8),
      String(errors).padStart(8),
      ((cpu / latencies.length) * 1000).toFixed(3).padStart(18),
      rssMiBOf(pid).toFixed(0).padStart(13),
    ];
    console.log(row.join(' '));
  }
  if (importCount > 0) await importWebsites(pool, token, importCount, pid);
  await pool.close();
  await heartbeat.stop();
  await mongo.close();
});
