/**
 * A built status page by its custom domain against the same page by slug, in one run: `--pages`
 * public pages (100) of `--websites` websites each (50, with three months of rollups), each given a
 * domain `p<n>.bench.test` verified over the API by its TXT record on a local DNS server
 * (DNS_RESOLVERS), the API as its own process in strict mode (STATUS_PAGES_HOST set). Every page
 * is asked for once by slug and once by domain first (built, as after earlier visits), then for
 * `--seconds` per row with `--connections` at once, every request for a random page, asked as
 * browsers ask (compressed): `GET /status/<slug>` against `GET /` with `Host: p<n>.bench.test`
 * (rewritten to the same page by the custom-domain middleware). The two rows alternate `--rounds`
 * times in ABBA order, so the load of the machine falls on both alike.
 * Usage: npm run bench:status-domains [-- --pages 100 --websites 50 --seconds 10 --connections 32
 *        --rounds 2 --runtime dist|tsx]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { Pool } from 'undici';
import { startDnsServer } from '../test/support/dns-server.js';
import { benchOrganization, sendJson } from './support/api-client.js';
import { startApiProcess } from './support/api-process.js';
import { compileForDist, parseRuntime } from './support/app-runtime.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { type LoadRequest, loadFor } from './support/http-load.js';
import { untilIdle } from './support/process-idle.js';
import { cpuSecondsOf, percentile } from './support/process-stats.js';
import { storeRollupHistory } from './support/rollup-history.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '100' },
    websites: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '2' },
    runtime: { type: 'string', default: 'dist' },
  },
});
const runtime = parseRuntime(values.runtime);
const [pageCount, perPage, seconds, connections, rounds] = [
  values.pages,
  values.websites,
  values.seconds,
  values.connections,
  values.rounds,
].map(Number) as [number, number, number, number, number];
if (![pageCount, perPage, seconds, connections, rounds].every((n) => Number.isInteger(n) && n > 0))
  throw new Error(
    '--pages, --websites, --seconds, --connections and --rounds must be positive whole numbers',
  );

const STATUS_PAGES_HOST = 'status.bench.test';
const say = (message: string) => console.log(`[bench] ${message}`);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const BROWSER = { 'accept-encoding': 'gzip, deflate, br' };
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

interface DomainView {
  host: string;
  verified: boolean;
  records: Array<{ type: 'CNAME' | 'TXT'; name: string; value: string }>;
}

if (runtime === 'dist') compileForDist(say);

const dns = await startDnsServer({});
try {
  await withBenchDatabases('status-domains', async (stack) => {
    const { url, pid } = await startApiProcess(stack, {
      runtime,
      env: {
        DNS_RESOLVERS: dns.address,
        STATUS_PAGES_HOST,
        // One address measuring the server, not the public pages' limiter.
        PUBLIC_PAGES_PER_MINUTE: '1000000',
      },
    });
    const mongo = new MongoClient(stack.mongoUrl);
    await mongo.connect();
    const db = mongo.db();
    const { organizationId, token, heartbeat } = await benchOrganization(db);
    const pool = new Pool(url, { connections, pipelining: 1 });
    try {
      const send = <T = { id: number }>(path: string, body: unknown, expected = 201) =>
        sendJson<T>(pool, { method: 'POST', path, token, body, expected });
      say(`${pageCount} public pages of ${perPage} websites, each with a verified domain; load ${load()}`);
      const pkg = await send('/api/packages', {
        key: 'bench',
        displayName: 'Bench',
        limits: { maxWebsites: perPage },
      });
      const pages: Array<{ slug: string; host: string }> = [];
      const websiteIds: number[] = [];
      const zone: Record<string, { TXT: string[][] }> = {};
      const started = performance.now();
      for (let n = 1; n <= pageCount; n++) {
        const customer = await send('/api/customers', {
          name: `Customer ${n}`,
          packageId: pkg.id,
          email: 'ops@example.com',
        });
        const batch = await send<{ created: number; items: Array<{ website: { id: number } | null }> }>(
          '/api/websites/batch',
          {
            items: Array.from({ length: perPage }, (_, w) => ({
              customerId: customer.id,
              name: `Site ${n}.${w}`,
              url: `https://site-${n}-${w}.example.com/`,
              paused: true,
            })),
          },
          200,
        );
        websiteIds.push(...batch.items.flatMap((item) => (item.website ? [item.website.id] : [])));
        const slug = `customer-${n}`;
        const page = await send('/api/status-pages', {
          slug,
          title: `Customer ${n}`,
          customerId: customer.id,
          public: true,
        });
        const host = `p${n}.bench.test`;
        const claim = await send<DomainView>(`/api/status-pages/${page.id}/domains`, { host });
        const txt = claim.records.find((record) => record.type === 'TXT');
        if (!txt) throw new Error(`${host}: no TXT record to create`);
        zone[txt.name] = { TXT: [[txt.value]] };
        dns.setZone(zone);
        const verified = await send<DomainView>(
          `/api/status-pages/${page.id}/domains/${host}/verify`,
          {},
          200,
        );
        if (!verified.verified) throw new Error(`${host} not verified: ${JSON.stringify(verified)}`);
        pages.push({ slug, host });
      }
      say(
        `${pages.length} pages, ${websiteIds.length} websites and ${pages.length} domains verified by TXT in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      const rollups = await storeRollupHistory(db, websiteIds, organizationId);
      say(`three months of rollups: ${rollups} documents`);

      const bySlug = (): LoadRequest => ({
        method: 'GET',
        path: `/status/${pick(pages).slug}`,
        headers: BROWSER,
      });
      const byDomain = (): LoadRequest => ({
        method: 'GET',
        path: '/',
        headers: { ...BROWSER, host: pick(pages).host },
      });
      // Each page built once (and its domain's slug known), as after earlier visits.
      const buildStarted = performance.now();
      for (const { slug, host } of pages) {
        for (const request of [
          { method: 'GET' as const, path: `/status/${slug}`, headers: BROWSER },
          { method: 'GET' as const, path: '/', headers: { ...BROWSER, host } },
        ]) {
          const answer = await pool.request(request);
          await answer.body.dump();
          if (answer.statusCode !== 200)
            throw new Error(`${request.path} (${host}): answered ${answer.statusCode}`);
        }
      }
      say(
        `every page asked for once by slug and by domain: ${((performance.now() - buildStarted) / 1000).toFixed(1)} s`,
      );
      const idleAfter = await untilIdle([pid, stack.pids.mongo]);
      say(`the API and FerretDB idle after ${(idleAfter / 1000).toFixed(1)} s; load ${load()}`);

      console.log(
        `\nAny of ${pages.length} built pages (${perPage} websites each, ${runtime}), ${connections} connections, ${seconds} s a row, Node ${process.version}`,
      );
      console.log(
        `${'row'.padEnd(34)}   req/s    p50 ms   p95 ms   p99 ms   errors   API CPU ms/req   load (1 min)`,
      );
      const rows: Array<[string, () => LoadRequest]> = [
        ['GET /status/<slug>', bySlug],
        ['GET / Host: p<n>.bench.test', byDomain],
      ];
      // ABBA: a row measured first in one round is measured second in the next, so a machine
      // growing busier (other work, the pages' background refreshes) weighs on both alike.
      for (let round = 1; round <= rounds; round++)
        for (const [name, next] of round % 2 === 1 ? rows : [...rows].reverse()) {
          await loadFor({ pool, connections, durationMs: 1000, next, expected: [200] }); // warm-up
          const cpuBefore = cpuSecondsOf(pid);
          const rowStarted = performance.now();
          const { latencies, errors, errorStatuses } = await loadFor({
            pool,
            connections,
            durationMs: seconds * 1000,
            next,
            expected: [200],
          });
          const elapsed = (performance.now() - rowStarted) / 1000;
          console.log(
            [
              `${name} (round ${round})`.padEnd(34),
              (latencies.length / elapsed).toFixed(0).padStart(7),
              percentile(latencies, 50).toFixed(2).padStart(9),
              percentile(latencies, 95).toFixed(2).padStart(8),
              percentile(latencies, 99).toFixed(2).padStart(8),
              String(errors).padStart(8),
              (((cpuSecondsOf(pid) - cpuBefore) / latencies.length) * 1000).toFixed(3).padStart(16),
              `   ${loadavg()[0]?.toFixed(2)}`,
              errors > 0
                ? `  (${[...errorStatuses].map(([status, count]) => `${count} × ${status}`).join(', ')})`
                : '',
            ].join(' '),
          );
        }
    } finally {
      await pool.close();
      await heartbeat.stop();
      await mongo.close();
    }
  });
} finally {
  await dns.close();
}
