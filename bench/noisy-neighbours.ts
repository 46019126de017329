/**
 * Noisy neighbours (issue 47): one API process on its own FerretDB and Redis, two organizations.
 * Organization B sends `GET /api/websites?limit=100` at 10/s (open loop: one request every 100 ms
 * whatever the answers) and its p50/p99 are measured quiet, then while organization A (or 10
 * client addresses) floods, each for `--seconds`: right-password sign-ins, wrong-password
 * sign-ins, exports of A's 3,000 websites, PDFs of a 200-website report, imports of 1,000
 * websites (dry runs). The API runs with the production defaults (its per-token rate limit
 * included); `TRUST_PROXY=true` lets the flooders speak for ten addresses through X-Forwarded-For.
 * During the PDF flood B asks for its own PDF once A's share of the printer is full and its time
 * is compared with one print of it alone.
 * Goal: B's p99 within 2× its quiet p99 + 20 ms in every row; B's PDF within 2 prints' time.
 * Prints a table and writes JSON to bench/results/.
 * Usage: npm run bench:noisy-neighbours [-- --seconds 30 --runtime tsx|dist] [--rows exports,PDFs]
 * (`--rows`: only the rows whose names hold one of these, beside the quiet one).
 * BENCH_API_CPU_PROF=<dir>: the API writes a V8 CPU profile there when it stops.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { type Dispatcher, Pool } from 'undici';
import { ApiTokenRepository, OrganizationRepository } from '../libs/auth/index.js';
import { hashPassword, UserRepository } from '../libs/people/index.js';
import { sendJson } from './support/api-client.js';
import { startApiProcess } from './support/api-process.js';
import { compileForDist, parseRuntime } from './support/app-runtime.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { cpuSecondsOf, percentile } from './support/process-stats.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    runtime: { type: 'string', default: 'tsx' },
    rows: { type: 'string' },
  },
});
const chosenRows = values.rows?.split(',');
const seconds = Number(values.seconds);
const runtime = parseRuntime(values.runtime);
if (!(seconds > 0)) throw new Error('--seconds must be positive');

const PASSWORD = 'tangerine-orbit-47-kettle';
const ADDRESSES = Array.from({ length: 10 }, (_, i) => `198.51.100.${i + 1}`);
const say = (message: string) => console.log(`[bench] ${message}`);
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  ms: number;
}

async function call(pool: Pool, request: Dispatcher.RequestOptions): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await pool.request(request);
    // Read to the end: undici's dump takes a limit that is not finite as its default 128 KiB and
    // then closes the connection, so an export's flooder would abandon it after a page or two.
    await response.body.dump({ limit: Number.MAX_SAFE_INTEGER });
    return { status: response.statusCode, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

/** One request every `everyMs` until `until`, each on its own (an answer never delays the next). */
async function openLoop(send: () => Promise<Answer>, everyMs: number, until: number): Promise<Answer[]> {
  const pending: Array<Promise<Answer>> = [];
  for (let next = performance.now(); performance.now() < until; next += everyMs) {
    pending.push(send());
    await sleep(Math.max(0, next + everyMs - performance.now()));
  }
  return Promise.all(pending);
}

/** `clients` loops, each sending again as soon as answered, until `until`. */
async function flood(clients: number, send: (client: number) => Promise<Answer>, until: number) {
  const answers: Answer[] = [];
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < until) answers.push(await send(client));
    }),
  );
  return answers;
}

const countBy = (answers: readonly Answer[]) => {
  const counts: Record<string, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
};

if (runtime === 'dist') compileForDist(say);

await withBenchDatabases('noisy', async (stack) => {
  const { url, pid } = await startApiProcess(stack, {
    runtime,
    nodeArgs: process.env.BENCH_API_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_API_CPU_PROF}`]
      : [],
    env: { RATE_LIMIT_PER_MINUTE: '1200', TRUST_PROXY: 'true', LOG_LEVEL: 'error' },
  });
  const mongo = new MongoClient(stack.mongoUrl);
  await mongo.connect();
  const db = mongo.db();
  const organizations = new OrganizationRepository(db);
  const tokens = new ApiTokenRepository(db);
  const [orgA, orgB] = [await organizations.create('A (noisy)'), await organizations.create('B (quiet)')];
  const tokenOf = async (organizationId: number) =>
    (await tokens.create({ organizationId, name: 'bench', scopes: ['admin'] })).token;
  const [tokenA, tokenB] = [await tokenOf(orgA.id), await tokenOf(orgB.id)];
  const ownerA = 'owner@a.example';
  await new UserRepository(db).create(
    { organizationId: orgA.id, email: ownerA, name: 'A owner', role: 'owner', customerId: null },
    await hashPassword(PASSWORD),
  );

  const setup = new Pool(url, { connections: 4 });
  const customerWithWebsites = async (token: string, name: string, count: number) => {
    const pkg = await sendJson(setup, {
      method: 'POST',
      path: '/api/packages',
      token,
      expected: 201,
      body: {
        key: `p-${name.toLowerCase()}`,
        displayName: name,
        limits: { maxWebsites: 5000, minCheckIntervalSeconds: 60 },
      },
    });
    const customer = await sendJson(setup, {
      method: 'POST',
      path: '/api/customers',
      token,
      expected: 201,
      body: { name, packageId: pkg.id, email: 'ops@example.com' },
    });
    for (let start = 0; start < count; start += 1000) {
      const items = Array.from({ length: Math.min(1000, count - start) }, (_, i) => ({
        customerId: customer.id,
        name: `${name} ${start + i}`,
        url: `https://${name.toLowerCase()}-${start + i}.example.com/`,
        checkInterval: 300,
        paused: true,
      }));
      const batch = await setup.request({
        method: 'POST',
        path: '/api/websites/batch',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ items }),
      });
      await batch.body.dump();
      if (batch.statusCode >= 300) throw new Error(`batch: ${batch.statusCode}`);
    }
    return customer.id;
  };
  say('seeding: A 2,800 + 200 websites (the 200 are the PDF flood’s report), B 100…');
  await customerWithWebsites(tokenA, 'Bulk', 2800);
  const printedA = await customerWithWebsites(tokenA, 'Printed', 200);
  const customerB = await customerWithWebsites(tokenB, 'Quiet', 100);
  const importCsv = `name,url\n${Array.from({ length: 1000 }, (_, i) => `Imported ${i},https://imported-${i}.example.com/`).join('\n')}\n`;

  const quietPool = new Pool(url, { connections: 32 });
  const floodPool = new Pool(url, { connections: 64 });
  // A floods each row with a token of its own: a token's per-minute budget spent in one row
  // would otherwise leave the next row's flood mostly 429s (an exports row with 2 exports).
  let floodTokenA = tokenA;
  const asA = (path: string, extra: Partial<Dispatcher.RequestOptions> = {}): Dispatcher.RequestOptions => ({
    method: 'GET',
    path,
    headers: { authorization: `Bearer ${floodTokenA}`, 'content-type': 'application/json' },
    ...extra,
  });
  const signIn = (client: number, password: string, email: string) =>
    call(floodPool, {
      method: 'POST',
      path: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ADDRESSES[client % 10] as string },
      body: JSON.stringify({ email, password }),
    });
  const pdfOf = (token: string, customerId: number) =>
    call(quietPool, {
      method: 'GET',
      path: `/api/customers/${customerId}/reports?format=pdf`,
      headers: { authorization: `Bearer ${token}` },
    });

  // Warm-up: the API's caches, the printer's Chromium, then one print of B's report alone.
  for (let i = 0; i < 20; i++)
    await call(quietPool, {
      method: 'GET',
      path: '/api/websites?limit=100',
      headers: { authorization: `Bearer ${tokenB}` },
    });
  await pdfOf(tokenB, customerB);
  const onePrintB = (await pdfOf(tokenB, customerB)).ms;
  const onePrintA = (await pdfOf(tokenA, printedA)).ms;
  say(`one PDF alone: B's ${onePrintB.toFixed(0)} ms, A's (200 websites) ${onePrintA.toFixed(0)} ms`);

  type Row = {
    row: string;
    b: { requests: number; p50: number; p99: number; max: number; failed: number };
    flood: Record<string, number>;
    apiCpuSeconds: number;
    pdfOfB?: { ms: number; status: number; twoPrintsMs: number };
  };
  const rows: Row[] = [];
  const flooders: Array<[string, (until: number) => Promise<Answer[]>]> = [
    ['quiet', async () => []],
    [
      'right-password sign-ins (8 clients, 10 addresses)',
      (until) => flood(8, (client) => signIn(client, PASSWORD, ownerA), until),
    ],
    [
      'wrong-password sign-ins (10 addresses)',
      (until) =>
        flood(
          10,
          (client) => signIn(client, 'wrong-password-1234', `nobody-${Math.random()}@a.example`),
          until,
        ),
    ],
    [
      'exports of 3,000 websites (20 clients)',
      (until) => flood(20, () => call(floodPool, asA('/api/exports')), until),
    ],
    [
      'PDFs of 200 websites (20 clients)',
      (until) =>
        flood(20, () => call(floodPool, asA(`/api/customers/${printedA}/reports?format=pdf`)), until),
    ],
    [
      'imports of 1,000 websites, dry runs (8 clients)',
      (until) =>
        flood(
          8,
          () =>
            call(
              floodPool,
              asA('/api/imports', {
                method: 'POST',
                body: JSON.stringify({
                  format: 'csv',
                  content: importCsv,
                  customerId: printedA,
                  dryRun: true,
                }),
              }),
            ),
          until,
        ),
    ],
  ];
  const loadAtStart = loadavg();
  for (const [row, flooder] of flooders.filter(
    ([row]) => row === 'quiet' || !chosenRows || chosenRows.some((part) => row.includes(part)),
  )) {
    floodTokenA = await tokenOf(orgA.id);
    const cpuBefore = cpuSecondsOf(pid);
    const until = performance.now() + seconds * 1000;
    const floodAnswers = flooder(until);
    // B's own PDF a third into the PDF flood, when A's share of the printer is full.
    const pdfOfB = row.startsWith('PDFs')
      ? sleep((seconds * 1000) / 3).then(() => pdfOf(tokenB, customerB))
      : undefined;
    const answers = await openLoop(
      () =>
        call(quietPool, {
          method: 'GET',
          path: '/api/websites?limit=100',
          headers: { authorization: `Bearer ${tokenB}` },
        }),
      100,
      until,
    );
    const flooded = await floodAnswers;
    const b = Float64Array.from(answers.filter((a) => a.status === 200).map((a) => a.ms)).sort();
    const result: Row = {
      row,
      b: {
        requests: answers.length,
        p50: percentile(b, 50),
        p99: percentile(b, 99),
        max: b.at(-1) ?? Number.NaN,
        failed: answers.filter((a) => a.status !== 200).length,
      },
      flood: countBy(flooded),
      apiCpuSeconds: cpuSecondsOf(pid) - cpuBefore,
    };
    const pdf = await pdfOfB;
    if (pdf) result.pdfOfB = { ms: pdf.ms, status: pdf.status, twoPrintsMs: 2 * onePrintB };
    rows.push(result);
    say(
      `${row}: B p50 ${result.b.p50.toFixed(1)} / p99 ${result.b.p99.toFixed(1)} ms; A ${JSON.stringify(result.flood)}`,
    );
    // The budgets A used up stay used: the next row starts from a quiet second.
    await sleep(1000);
  }
  const loadAtEnd = loadavg();

  const quiet = rows[0] as Row;
  const bound = 2 * quiet.b.p99 + 20;
  console.log(
    `\nB: GET /api/websites?limit=100 at 10/s, ${seconds} s a row; goal p99 <= 2 x quiet p99 + 20 ms = ${bound.toFixed(1)} ms`,
  );
  console.log(`load average at start ${loadAtStart}, at end ${loadAtEnd}\n`);
  console.log(
    '| row | B p50 ms | B p99 ms | B max ms | B failed | goal | A (or the addresses): answers by status | API CPU s |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const { row, b, flood: statuses, apiCpuSeconds } of rows)
    console.log(
      `| ${row} | ${b.p50.toFixed(1)} | ${b.p99.toFixed(1)} | ${b.max.toFixed(1)} | ${b.failed} of ${b.requests} | ${b.p99 <= bound ? 'met' : 'missed'} | ${
        Object.entries(statuses)
          .map(([status, count]) => `${status}: ${count}`)
          .join(', ') || '–'
      } | ${apiCpuSeconds.toFixed(1)} |`,
    );
  const pdfRow = rows.find((r) => r.pdfOfB)?.pdfOfB;
  if (pdfRow)
    console.log(
      `\nB's own PDF during A's PDF flood: ${pdfRow.ms.toFixed(0)} ms (status ${pdfRow.status}); two prints of it alone: ${pdfRow.twoPrintsMs.toFixed(0)} ms (${pdfRow.ms <= pdfRow.twoPrintsMs ? 'met' : 'missed'}); A's 200-website print alone: ${onePrintA.toFixed(0)} ms`,
    );
  mkdirSync('bench/results', { recursive: true });
  const file = `bench/results/noisy-neighbours-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  writeFileSync(
    file,
    `${JSON.stringify({ seconds, runtime, loadAtStart, loadAtEnd, goalP99Ms: bound, onePrintB, onePrintA, rows }, null, 2)}\n`,
  );
  say(`written: ${file}`);
  await Promise.all([setup.close(), quietPool.close(), floodPool.close()]);
  await mongo.close();
});
