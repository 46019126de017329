/**
 * Client report benchmark: a customer with 200 websites, 62 days of rollups (the report's 31 and
 * the 31 before it), incidents and a maintenance window each, and the time of its 31-day report in
 * every format, against the API as its own process on FerretDB and Redis.
 * Before the first request the months are folded as a worker folds them after a month's turn
 * (`--unfolded`: not, as right after an upgrade, each month then read per region and folded by
 * that first read).
 * Usage: npm run bench:report [-- --websites 200 --regions 3 --runs 5 --runtime dist|tsx --unfolded]
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { Pool } from 'undici';
import { createLogger } from '../libs/logging/index.js';
import { MonitorStateRepository, RollupRecorder, RollupRepository } from '../libs/monitoring/index.js';
import { benchOrganization, sendJson } from './support/api-client.js';
import { startApiProcess } from './support/api-process.js';
import { compileForDist, parseRuntime } from './support/app-runtime.js';
import { withBenchDatabases } from './support/bench-databases.js';

const { values } = parseArgs({
  options: {
    websites: { type: 'string', default: '200' },
    runs: { type: 'string', default: '5' },
    regions: { type: 'string', default: '3' },
    unfolded: { type: 'boolean', default: false },
    runtime: { type: 'string', default: 'tsx' },
  },
});
const runtime = parseRuntime(values.runtime);
const count = Number(values.websites);
const runs = Number(values.runs);
const regions = Array.from({ length: Number(values.regions) }, (_, i) => (i === 0 ? 'local' : `region-${i}`));
if (
  !(
    Number.isInteger(count) &&
    count >= 1 &&
    count <= 1000 &&
    Number.isInteger(runs) &&
    runs >= 1 &&
    regions.length >= 1 &&
    regions.length <= 10
  )
)
  throw new Error('--websites must be 1–1000, --runs a positive whole number, --regions 1–10');
if (runtime === 'dist') compileForDist((message) => console.log(`[bench] ${message}`));

const DAY_MS = 86_400_000;

await withBenchDatabases('report', async (stack) => {
  const { port } = await startApiProcess(stack, { runtime });
  const mongo = new MongoClient(stack.mongoUrl);
  await mongo.connect();
  const db = mongo.db();
  const { organizationId, token, heartbeat } = await benchOrganization(db);
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 1 });
  const post = <T = { id: number }>(path: string, body: unknown, expected = 201) =>
    sendJson<T>(pool, { method: 'POST', path, token, body, expected });
  await sendJson(pool, {
    method: 'PATCH',
    path: '/api/organization',
    token,
    body: { timezone: 'Europe/Berlin' },
    expected: 200,
  });
  const pkg = await post('/api/packages', {
    key: 'care',
    displayName: 'Care',
    limits: { maxWebsites: count },
  });
  const customer = await post('/api/customers', { name: 'Bench Bakery', packageId: pkg.id });
  const batch = await post<{ items: Array<{ website: { id: number } }> }>(
    '/api/websites/batch',
    {
      items: Array.from({ length: count }, (_, i) => ({
        customerId: customer.id,
        name: `Site ${i + 1}`,
        url: `https://site-${i + 1}.example.com/`,
      })),
    },
    200,
  );
  const ids = batch.items.map((item) => item.website.id);
  await db
    .collection('websites')
    .updateMany({ organizationId }, { $set: { createdAt: new Date(Date.now() - 120 * DAY_MS) } });

  // The last full month and the one before: a day of rollups (one region, a check every 5 min) each.
  const now = new Date();
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
  const from = monthStart - 31 * DAY_MS;
  // Written as a worker writes them.
  const recorder = new RollupRecorder(new RollupRepository(db), {
    logger: createLogger('bench', 'silent'),
    mongo: { available: true, onLost: () => () => undefined },
    flushEveryMs: 3_600_000,
  });
  for (const websiteId of ids)
    for (const region of regions)
      for (let day = from; day < monthStart + 31 * DAY_MS; day += DAY_MS)
        for (const ms of [80, 120, 160, 240, 900])
          recorder.add({
            organizationId,
            websiteId,
            region,
            startedAt: new Date(day + 12 * 3_600_000),
            status: 'up',
            timings: { total: ms },
          });
  await recorder.close();
  if (!values.unfolded) {
    const started = performance.now();
    const folded = await new RollupRepository(db).foldSettledMonths(
      now,
      async (after, limit) =>
        ids
          .filter((id) => after.organizationId < organizationId || id > after.websiteId)
          .slice(0, limit)
          .map((websiteId) => ({ organizationId, websiteId })),
      (work) => work(),
    );
    console.log(
      `[bench] the worker's pass folded ${folded} website-months in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  const redis = new Redis(stack.redisUrl);
  const states = new MonitorStateRepository(db, redis, `bench-report-${Date.now()}`);
  for (const [i, websiteId] of ids.entries()) {
    const start = monthStart + ((i % 28) + 1) * DAY_MS;
    await states.insertIncident({
      id: randomUUID(),
      organizationId,
      websiteId,
      startedAt: new Date(start),
      resolvedAt: new Date(start + (10 + (i % 50)) * 60_000),
      cause: 'HTTP 503',
      regions: ['local'],
    });
    await post('/api/maintenance-windows', {
      websiteId,
      title: 'Weekly updates',
      startsAt: new Date(from + 2 * 3_600_000).toISOString(),
      endsAt: new Date(from + 3 * 3_600_000).toISOString(),
      timezone: 'Europe/Berlin',
      recurrence: { frequency: 'weekly' },
    });
  }

  console.log(
    `GET /api/customers/{id}/reports (${runtime}): ${ids.length} websites, ${regions.length} region(s), the last full month${values.unfolded ? ', months not folded' : ''}, Node ${process.version}, load ${loadavg()[0]?.toFixed(2)}`,
  );
  console.log('format   first s   median s   max s   bytes');
  for (const format of ['json', 'csv', 'html', 'pdf']) {
    const seconds: number[] = [];
    let bytes = 0;
    for (let run = 0; run < runs + 1; run++) {
      const started = performance.now();
      const response = await pool.request({
        method: 'GET',
        path: `/api/customers/${customer.id}/reports?format=${format}`,
        headers: { authorization: `Bearer ${token}` },
      });
      const body = Buffer.from(await response.body.arrayBuffer());
      if (response.statusCode !== 200)
        throw new Error(`${format}: ${response.statusCode} ${body.toString().slice(0, 300)}`);
      seconds.push((performance.now() - started) / 1000);
      bytes = body.length;
    }
    const [first = 0, ...rest] = seconds;
    const sorted = [...rest].sort((a, b) => a - b);
    console.log(
      [
        format.padEnd(6),
        first.toFixed(2).padStart(9),
        (sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(2).padStart(10),
        Math.max(...rest)
          .toFixed(2)
          .padStart(7),
        String(bytes).padStart(9),
      ].join(' '),
    );
  }
  redis.disconnect();
  await pool.close();
  await heartbeat.stop();
  await mongo.close();
});
