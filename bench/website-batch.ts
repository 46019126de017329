/**
 * Onboarding benchmark: an agency's portfolio written in batches of POST /api/websites/batch (each
 * website with its check configuration), against the API as its own process on FerretDB and Redis
 * (started here on free ports unless MONGODB_URL / REDIS_URL are set), with a serving region so every
 * website is scheduled. Prints each batch's time, websites/s and the API's CPU.
 * Usage: npm run bench:batch [-- --websites 1000 --batches 3 --runtime dist|tsx]
 *   (dist, the default: the API compiled by `npm run build` first, as the Docker image runs it;
 *   tsx: the sources, as `npm start` runs them)
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { Pool } from 'undici';
import { benchOrganization, sendJson } from './support/api-client.js';
import { startApiProcess } from './support/api-process.js';
import { compileForDist, parseRuntime } from './support/app-runtime.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { cpuSecondsOf, rssMiBOf } from './support/process-stats.js';

const { values } = parseArgs({
  options: {
    websites: { type: 'string', default: '1000' },
    batches: { type: 'string', default: '3' },
    runtime: { type: 'string', default: 'dist' },
  },
});
const runtime = parseRuntime(values.runtime);
const perBatch = Number(values.websites);
const batches = Number(values.batches);
if (
  !(
    Number.isInteger(perBatch) &&
    perBatch >= 1 &&
    perBatch <= 1000 &&
    Number.isInteger(batches) &&
    batches >= 1
  )
)
  throw new Error('--websites must be 1–1000 and --batches a positive whole number');

if (runtime === 'dist') compileForDist((message) => console.log(`[bench] ${message}`));

await withBenchDatabases('batch', async (stack) => {
  const { port, pid } = await startApiProcess(stack, { runtime });
  const mongo = new MongoClient(stack.mongoUrl);
  await mongo.connect();
  const { token, heartbeat } = await benchOrganization(mongo.db());
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 1 });
  const created = (path: string, body: unknown) =>
    sendJson(pool, { method: 'POST', path, token, body, expected: 201 });
  const pkg = await created('/api/packages', {
    key: 'portfolio',
    displayName: 'Portfolio',
    limits: { maxWebsites: perBatch * batches, minCheckIntervalSeconds: 60 },
  });
  const customer = await created('/api/customers', {
    name: 'Imported agency',
    packageId: pkg.id,
    email: 'ops@example.com',
  });

  console.log(
    `POST /api/websites/batch (${runtime}): ${batches} batches of ${perBatch} websites with check configuration, Node ${process.version}, load ${loadavg()[0]?.toFixed(2)}`,
  );
  console.log('batch   websites   seconds   websites/s   API CPU s   API RSS MiB');
  for (let batch = 1; batch <= batches; batch++) {
    const items = Array.from({ length: perBatch }, (_, i) => {
      const n = (batch - 1) * perBatch + i + 1;
      return {
        customerId: customer.id,
        name: `Site ${n}`,
        url: `https://site-${n}.example.com/`,
        checkInterval: 300,
        customHeaders: { 'X-Portfolio': 'bench' },
        checkConfig: { checkKeywordEnabled: true, keyword: 'Welcome', checkResponseTimeEnabled: true },
      };
    });
    const cpuBefore = cpuSecondsOf(pid);
    const started = performance.now();
    const result = await sendJson<{ created: number }>(pool, {
      method: 'POST',
      path: '/api/websites/batch',
      token,
      body: { items },
      expected: 200,
    });
    const seconds = (performance.now() - started) / 1000;
    if (result.created !== perBatch)
      throw new Error(`batch ${batch}: ${result.created} of ${perBatch} created`);
    console.log(
      [
        String(batch).padStart(5),
        String(perBatch).padStart(10),
        seconds.toFixed(2).padStart(9),
        (perBatch / seconds).toFixed(0).padStart(12),
        (cpuSecondsOf(pid) - cpuBefore).toFixed(2).padStart(11),
        rssMiBOf(pid).toFixed(0).padStart(13),
      ].join(' '),
    );
  }
  await pool.close();
  await heartbeat.stop();
  await mongo.close();
});
