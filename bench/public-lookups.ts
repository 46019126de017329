/**
 * What a lookup by key costs at `--websites` websites (10,000 by default): the API as its own
 * process on FerretDB and Redis (started here on free ports unless MONGODB_URL / REDIS_URL are
 * set), loaded from this process over loopback, every request for a random key:
 *   - PATCH and GET /api/websites/{publicId} (authenticated, the website found by its publicId):
 *     a rename and a URL change of a random website
 *   - badges of websites on public pages (one again and again: cached; any: mostly built anew),
 *     and of unknown ids
 *   - status pages (HTML and JSON, asked as browsers ask: compressed) by slug (one page: cached;
 *     any of them: mostly built anew; any
 *     of 100 pages each asked for once before: as visitors get them, refreshed in the background), and
 *     unknown slugs
 *   - the app's lists: `GET /api/websites` pages of 100 (after a random website, of one customer,
 *     filtered by status, searched by a name), the summaries the overview reads (100 and 1,000), and
 *     `GET /api/dashboard/websites` pages of 100 (with 24 h figures from three months of rollups)
 * Websites are spread over customers of 50, each with a public status page. One website per
 * customer is created over the API, the others are stored as copies and their lookup entries
 * added by the start-up backfill (its time is printed: what an upgrade at that size costs once).
 * Every website has three months of rollups (its buckets full, as after three months of checks),
 * so building a page or badge reads what it would in production.
 * Each scenario runs twice: with `--connections` at once (throughput; latency then is mostly
 * queueing on this machine's cores) and with one connection (what one request costs), with the
 * CPU the API process and the embedded FerretDB spent per request.
 * Usage: npm run bench:lookups [-- --websites 10000 --seconds 10 --connections 32 --runtime dist|tsx]
 *        [--only <part of a scenario's name>[,<another>…]] [--cpu-prof <dir>: the API process's CPU profile]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { type Dispatcher, Pool } from 'undici';
import { ensureIndexes, ID_LISTS, KEY_LOOKUPS } from '../libs/db/index.js';
import { websiteIndexes } from '../libs/websites/index.js';
import { benchOrganization } from './support/api-client.js';
import { startApiProcess } from './support/api-process.js';
import { compileForDist, parseRuntime } from './support/app-runtime.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { type LoadRequest, loadFor } from './support/http-load.js';
import { untilIdle } from './support/process-idle.js';
import { cpuSecondsOf, percentile } from './support/process-stats.js';
import { storeRollupHistory } from './support/rollup-history.js';

const { values } = parseArgs({
  options: {
    websites: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    runtime: { type: 'string', default: 'dist' },
    only: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
const runtime = parseRuntime(values.runtime);
const websiteCount = Number(values.websites);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const PER_CUSTOMER = 50;
if (!(Number.isInteger(websiteCount) && websiteCount >= PER_CUSTOMER && seconds > 0 && connections > 0))
  throw new Error(
    `--websites must be a whole number of at least ${PER_CUSTOMER}, --seconds and --connections positive`,
  );

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
/** Status pages are read by browsers, which take compressed answers (a page of 50 websites: ~7 KB, ~0.7 MB plain). */
const asBrowser = (path: string): LoadRequest => ({
  method: 'GET',
  path,
  headers: { 'accept-encoding': 'gzip, deflate, br' },
});

if (runtime === 'dist') compileForDist((message) => console.log(`[bench] ${message}`));

await withBenchDatabases('lookups', async (stack) => {
  const { url, pid } = await startApiProcess(stack, {
    runtime,
    // A CPU profile of the API process, written when it stops (open it in Chrome's DevTools).
    ...(values['cpu-prof'] ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] } : {}),
    env: { PUBLIC_PAGES_PER_MINUTE: '1000000' },
  });
  const mongo = new MongoClient(stack.mongoUrl);
  await mongo.connect();
  const db = mongo.db();
  const { organizationId, token, heartbeat } = await benchOrganization(db);
  const pool = new Pool(url, { connections, pipelining: 1 });
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const send = async (method: 'POST' | 'PATCH', path: string, body: unknown) => {
    const response = await pool.request({ method, path, headers: auth, body: JSON.stringify(body) });
    const text = await response.body.text();
    if (response.statusCode >= 300) throw new Error(`${method} ${path}: ${response.statusCode} ${text}`);
    return JSON.parse(text) as { id: number; publicId: string; slug: string };
  };

  const customers = Math.ceil(websiteCount / PER_CUSTOMER);
  console.log(`[bench] ${customers} customers with a public status page and ${websiteCount} websites…`);
  const pkg = await send('POST', '/api/packages', {
    key: 'bench',
    displayName: 'Bench',
    limits: { maxWebsites: PER_CUSTOMER, minCheckIntervalSeconds: 60 },
  });
  const slugs: string[] = [];
  const templates: Array<{ id: number; customerId: number }> = [];
  for (let c = 0; c < customers; c++) {
    const customer = await send('POST', '/api/customers', {
      name: `Customer ${c}`,
      packageId: pkg.id,
      email: 'ops@example.com',
    });
    const website = await send('POST', '/api/websites', {
      customerId: customer.id,
      name: `Site ${c}`,
      url: `https://site-${c}.example.com/`,
      checkInterval: 300,
      paused: true,
    });
    templates.push({ id: website.id, customerId: customer.id });
    const page = await send('POST', '/api/status-pages', {
      slug: `customer-${c}`,
      title: `Customer ${c}`,
      customerId: customer.id,
      public: true,
    });
    slugs.push(page.slug);
  }
  const websites = db.collection('websites');
  let nextId = 1_000_000;
  for (const template of templates) {
    const document = await websites.findOne({ id: template.id });
    const copies = Math.min(PER_CUSTOMER - 1, websiteCount - templates.length - (nextId - 1_000_000));
    if (copies <= 0) continue;
    await websites.insertMany(
      Array.from({ length: copies }, () => {
        const id = nextId++;
        return { ...document, _id: `w${id}` as never, id, publicId: randomUUID(), name: `Site ${id}` };
      }),
    );
  }
  // As after an upgrade: the copies' lookups and their customers' lists are added by the start-up backfill.
  await db.collection(KEY_LOOKUPS).deleteMany({
    _id: { $in: ['~backfilled/websites.publicId', '~backfilled/website_counts.websiteIds'] } as never,
  });
  await db.collection('website_counts').updateMany({}, { $unset: { websiteIds: '' } });
  // …and the organization's list of website ids, built at its first page (one scan, once).
  await db.collection(ID_LISTS).deleteMany({ _id: { $regex: '^websites\\.organizationId/' } as never });
  const backfillStarted = performance.now();
  await ensureIndexes(db, [websiteIndexes]);
  const backfillSeconds = (performance.now() - backfillStarted) / 1000;
  const stored = await websites.find({}, { projection: { _id: 0, publicId: 1, id: 1 } }).toArray();
  const publicIds = stored.map((website) => String(website.publicId));
  const websiteIds = stored.map((website) => Number(website.id));

  console.log(
    `[bench] ${publicIds.length} websites; start-up backfill of their publicId lookups and customer lists: ${backfillSeconds.toFixed(1)} s`,
  );
  const rollupDocuments = await storeRollupHistory(
    db,
    stored.map((website) => Number(website.id)),
    organizationId,
  );
  console.log(`[bench] three months of rollups: ${rollupDocuments} documents`);
  const firstPage = performance.now();
  await pool
    .request({ method: 'GET', path: '/api/websites?limit=100', headers: auth })
    .then((r) => r.body.text());
  console.log(
    `[bench] the organization's first page, its list of website ids built: ${((performance.now() - firstPage) / 1000).toFixed(1)} s`,
  );
  // As the issue measured: the service idle before the first request counts (the set-up's
  // writes, tens of thousands at 10,000 websites, leave FerretDB's SQLite busy for a while).
  const idleAfterMs = await untilIdle([pid, stack.pids.mongo]);
  console.log(`[bench] the API and FerretDB idle after ${(idleAfterMs / 1000).toFixed(1)} s`);
  const builtSlugs = slugs.slice(-100);
  const scenarios: Array<[string, () => LoadRequest, number[], (() => Promise<void>)?]> = [
    [
      'PATCH /api/websites/{publicId}: rename',
      () => ({
        method: 'PATCH',
        path: `/api/websites/${pick(publicIds)}`,
        headers: auth,
        body: JSON.stringify({ name: `Renamed ${randomUUID().slice(0, 8)}` }),
      }),
      [200],
    ],
    [
      'PATCH /api/websites/{publicId}: URL change',
      () => ({
        method: 'PATCH',
        path: `/api/websites/${pick(publicIds)}`,
        headers: auth,
        body: JSON.stringify({ url: `https://moved-${randomUUID().slice(0, 8)}.example.com/` }),
      }),
      [200],
    ],
    [
      'GET /api/websites/{publicId}',
      () => ({ method: 'GET', path: `/api/websites/${pick(publicIds)}`, headers: auth }),
      [200],
    ],
    [
      'GET /badge/…/status.svg, one website',
      () => ({ method: 'GET', path: `/badge/${publicIds[0]}/status.svg` }),
      [200],
    ],
    [
      'GET /badge/…/status.svg, any website',
      () => ({ method: 'GET', path: `/badge/${pick(publicIds)}/status.svg` }),
      [200],
    ],
    ['  unknown publicId', () => ({ method: 'GET', path: `/badge/${randomUUID()}/status.svg` }), [404]],
    // The same page again and again: what most visitors get, from the page cache.
    ['GET /status/{slug}, one page', () => asBrowser(`/status/${slugs[0]}`), [200]],
    ['GET /status/{slug}, any page', () => asBrowser(`/status/${pick(slugs)}`), [200]],
    ['GET /status/{slug}.json', () => asBrowser(`/status/${pick(slugs)}.json`), [200]],
    // What visitors of every page get once each page was built (here or by another API process):
    // pages older than 30 s are served while one rebuild each runs in the background, in this row.
    [
      'GET /status/{slug}, any page built',
      () => asBrowser(`/status/${pick(builtSlugs)}`),
      [200],
      async () => {
        const started = performance.now();
        for (const slug of builtSlugs)
          await pool.request({ method: 'GET', path: `/status/${slug}` }).then((r) => r.body.text());
        console.log(
          `[bench] ${builtSlugs.length} pages asked for once each first: ${((performance.now() - started) / 1000).toFixed(1)} s`,
        );
      },
    ],
    ['  unknown slug', () => ({ method: 'GET', path: `/status/no-${randomUUID().slice(0, 8)}` }), [404]],
    // The app's lists: a page of 100 after a random website, of one customer, filtered by status.
    [
      'GET /api/websites, a page of 100',
      () => ({ method: 'GET', path: `/api/websites?limit=100&afterId=${pick(websiteIds)}`, headers: auth }),
      [200],
      // What a serving API has done: the app's overview reads every website every 5 s, so each is
      // in the API's memory and its state in Redis (the copies were stored behind the API's back).
      async () => {
        const started = performance.now();
        let next: string | null = '/api/websites/summaries?limit=1000';
        while (next) {
          const answer: Dispatcher.ResponseData = await pool.request({
            method: 'GET',
            path: next,
            headers: auth,
          });
          await answer.body.dump();
          next = /<([^>]+)>; rel="next"/.exec(String(answer.headers.link ?? ''))?.[1] ?? null;
        }
        console.log(
          `[bench] every website read once first, as the overview reads them: ${((performance.now() - started) / 1000).toFixed(1)} s`,
        );
      },
    ],
    [
      '  of one customer',
      () => ({
        method: 'GET',
        path: `/api/websites?limit=100&customerId=${pick(templates).customerId}`,
        headers: auth,
      }),
      [200],
    ],
    [
      '  with status=paused',
      () => ({
        method: 'GET',
        path: `/api/websites?limit=100&status=paused&afterId=${pick(websiteIds)}`,
        headers: auth,
      }),
      [200],
    ],
    [
      '  searched by name',
      () => ({
        method: 'GET',
        path: `/api/websites?limit=100&q=${encodeURIComponent(`Site ${pick(websiteIds)}`)}`,
        headers: auth,
      }),
      [200],
    ],
    // What the app's overview reads (and polls): the same pages in a few fields each.
    [
      'GET /api/websites/summaries, 100',
      () => ({
        method: 'GET',
        path: `/api/websites/summaries?limit=100&afterId=${pick(websiteIds)}`,
        headers: auth,
      }),
      [200],
    ],
    [
      // No comma in a name: `--only` splits on commas.
      '  limit=1000',
      () => ({
        method: 'GET',
        path: `/api/websites/summaries?limit=1000&afterId=${pick(websiteIds)}`,
        headers: auth,
      }),
      [200],
    ],
    [
      'GET /api/dashboard/websites, 100',
      () => ({
        method: 'GET',
        path: `/api/dashboard/websites?limit=100&afterId=${pick(websiteIds)}`,
        headers: auth,
      }),
      [200],
    ],
  ];
  for (const at of [connections, 1]) {
    console.log(
      `\nLookups at ${publicIds.length} websites (${runtime}): ${at} connection${at === 1 ? '' : 's'}, ${seconds} s each, random keys, Node ${process.version}`,
    );
    console.log(
      `${'scenario'.padEnd(44)}   req/s    p50 ms   p95 ms   p99 ms   errors   API CPU s/1k req   FerretDB CPU s/1k req`,
    );
    const only = (values.only ?? '').split(',');
    for (const [name, next, expected, prepare] of scenarios.filter(([name]) =>
      only.some((part) => name.includes(part)),
    )) {
      await prepare?.();
      await loadFor({ pool, connections: at, durationMs: 1000, next, expected }); // warm-up
      const cpuBefore = cpuSecondsOf(pid);
      // The store's own work per request (absent when MONGODB_URL named a server of its own).
      const storeBefore = stack.pids.mongo === undefined ? Number.NaN : cpuSecondsOf(stack.pids.mongo);
      const started = performance.now();
      const { latencies, errors, errorStatuses } = await loadFor({
        pool,
        connections: at,
        durationMs: seconds * 1000,
        next,
        expected,
      });
      const elapsed = (performance.now() - started) / 1000;
      console.log(
        [
          name.padEnd(44),
          (latencies.length / elapsed).toFixed(0).padStart(7),
          percentile(latencies, 50).toFixed(2).padStart(9),
          percentile(latencies, 95).toFixed(2).padStart(8),
          percentile(latencies, 99).toFixed(2).padStart(8),
          String(errors).padStart(8),
          (((cpuSecondsOf(pid) - cpuBefore) / latencies.length) * 1000).toFixed(3).padStart(18),
          stack.pids.mongo === undefined
            ? '—'.padStart(23)
            : (((cpuSecondsOf(stack.pids.mongo) - storeBefore) / latencies.length) * 1000)
                .toFixed(3)
                .padStart(23),
          errors > 0
            ? `  (${[...errorStatuses].map(([status, count]) => `${count} × ${status}`).join(', ')})`
            : '',
        ].join(' '),
      );
    }
  }
  await pool.close();
  await heartbeat.stop();
  await mongo.close();
});
