/**
 * API hot-path benchmark: the API as its own process on FerretDB and Redis (started here on free
 * ports unless MONGODB_URL / REDIS_URL are set), loaded from this process over loopback.
 * Prints requests/s, latency percentiles, API CPU seconds per 1,000 requests and API RSS for:
 *   - GET /healthz (no I/O: the HTTP layer alone)
 *   - GET /api/tokens/:id (token lookup in MongoDB, rate limit in Redis, one indexed read)
 * Usage: npm run bench [-- --seconds 10 --connections 32]
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { Pool } from 'undici';
import { ApiTokenRepository, OrganizationRepository } from '../libs/auth/index.js';
import { findFreePort, isPortOpen } from '../libs/embedded/index.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { cpuSecondsOf, percentile, rssMiBOf } from './support/process-stats.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '32' } },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
if (!(seconds > 0 && connections > 0))
  throw new Error('--seconds and --connections must be positive numbers');

async function load(pool: Pool, path: string, headers: Record<string, string>, durationMs: number) {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = Date.now() + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < deadline) {
        const started = performance.now();
        const response = await pool.request({ method: 'GET', path, headers });
        await response.body.dump();
        latencies.push(performance.now() - started);
        if (response.statusCode !== 200) errors++;
      }
    }),
  );
  return { latencies: Float64Array.from(latencies).sort(), errors };
}

await withBenchDatabases('api', async ({ mongoUrl, redisUrl, owned }) => {
  const port = await findFreePort();
  const api = owned(
    spawn(process.execPath, ['--import', 'tsx', 'apps/api/main.ts'], {
      env: {
        ...process.env,
        MONGODB_URL: mongoUrl,
        REDIS_URL: redisUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '1000000',
        REDIS_KEY_PREFIX: `bench${Date.now()}`,
        SECRETS_KEY: process.env.SECRETS_KEY || randomBytes(32).toString('base64'),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  for (let waited = 0; !(await isPortOpen('127.0.0.1', port)); waited += 100) {
    if (waited > 30_000 || api.exitCode !== null) throw new Error('the API did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const mongo = new MongoClient(mongoUrl);
  await mongo.connect();
  const organization = await new OrganizationRepository(mongo.db()).create('bench');
  const tokens = new ApiTokenRepository(mongo.db());
  const { record, token } = await tokens.create({
    organizationId: organization.id,
    name: 'bench',
    scopes: ['admin'],
  });
  await mongo.close();

  const pool = new Pool(`http://127.0.0.1:${port}`, { connections, pipelining: 1 });
  const pid = api.pid!;
  console.log(
    `API benchmark: ${connections} connections, ${seconds} s per scenario, Node ${process.version}`,
  );
  console.log(
    'scenario                     req/s    p50 ms   p95 ms   p99 ms   errors   API CPU s/1k req   API RSS MiB',
  );
  for (const [name, path, headers] of [
    ['GET /healthz', '/healthz', {}],
    ['GET /api/tokens/:id (auth)', `/api/tokens/${record.id}`, { authorization: `Bearer ${token}` }],
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
  await pool.close();
});
