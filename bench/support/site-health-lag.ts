import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { Redis } from 'ioredis';
import { type Db, MongoClient } from 'mongodb';
import { Pool } from 'undici';
import { nextIds } from '../../libs/db/index.js';
import { WEBSITES } from '../../libs/websites/website-indexes.js';
import { benchOrganization, sendJson } from './api-client.js';
import { startApiProcess } from './api-process.js';
import type { AppRuntime } from './app-runtime.js';
import { withBenchDatabases } from './bench-databases.js';
import { seedWebsites, spawnBenchWorker } from './bench-worker.js';
import { startLighthousePage } from './lighthouse-page.js';
import { fittedSite } from './planted-findings.js';
import { cpuTimesOf, percentile } from './process-stats.js';
import { descendantsCpuSeconds, MiB, sampleTreeMemory } from './process-tree.js';
import { type HttpScheduleLags, httpScheduleLags } from './schedule-lag.js';
import { startSiteProcess } from './site-process.js';
import { busyShares, KeptBusy, printRuns } from './site-runs.js';

/**
 * Part `lag` of bench:site-health (issue 43: "while a crawl and a Lighthouse run go on, HTTP
 * schedule lag p99 stays under 250 ms at 1,000 websites @10 s"). A real API and worker (their own
 * processes on FerretDB and Redis), `websites` websites checked every `interval` s against a local
 * HTTP target, and one more website, the generated site (500 pages, plain HTTP on 127.0.0.1 from a
 * child process), with a crawl monitor (hourly) and a Lighthouse monitor (daily, one local page,
 * mobile and desktop) made through the API. One window with neither running (the baseline), then
 * one while both run in the worker's site lane, `siteConcurrency` wide, each asked to run again
 * (POST …/run) as soon as its run ends. Per window: the HTTP schedule lag p50/p99/max (seeded
 * websites only), the worker's and Chromium's CPU and memory, the load average; then every site run
 * with its wall time as GET /api/monitors/{id}/runs/{runId} reports it, and how much of the window
 * each kind (and both at once) was running.
 */
export interface SiteHealthLagOptions {
  websites: number;
  interval: number;
  seconds: number;
  warmupSeconds: number;
  siteConcurrency: number;
  maxPages: number;
  runtime: AppRuntime;
  chromium: string;
  say: (message: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const mib = (bytes: number) => (bytes / MiB).toFixed(0);
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '–');
/** How long a crawl may go on after the window (its deadline: 15 minutes). */
const RUN_END_WAIT_MS = 16 * 60_000;

/**
 * CPU seconds of what the worker started (Chromium, tsx's esbuild): the live ones' and, through the
 * worker's cutime and cstime, those it started and waited for (a Chromium that ended in the window).
 */
function childrenCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return descendantsCpuSeconds(pid) + (Number(fields[13]) + Number(fields[14])) / 100;
}

interface WindowFigures {
  label: string;
  start: number;
  end: number;
  loadBefore: string;
  loadAfter: string;
  checks: number;
  notUp: number;
  lags: number[];
  results: HttpScheduleLags['results'];
  workerCpu: number;
  workerSystemCpu: number;
  childrenCpu: number;
  peak: { pss: number; rootRss: number; descendantsRss: number; descendants: number };
}

/** One measuring window: the HTTP checks' lag, the worker's and Chromium's CPU and peak memory. */
async function measureWindow(
  db: Db,
  pid: number,
  options: SiteHealthLagOptions,
  label: string,
): Promise<WindowFigures> {
  const loadBefore = load();
  const memory = sampleTreeMemory(pid, 1000);
  const [workerBefore, childrenBefore] = [cpuTimesOf(pid), childrenCpuSeconds(pid)];
  const start = Date.now();
  await sleep(options.seconds * 1000);
  const end = Date.now();
  const [workerAfter, childrenAfter] = [cpuTimesOf(pid), childrenCpuSeconds(pid)];
  const peak = memory.stop();
  const loadAfter = load();
  // The checks started near the end are stored a moment later.
  await sleep(2000);
  const { results, lags } = await httpScheduleLags(db, {
    start: new Date(start),
    end: new Date(end),
    everySeconds: options.interval,
    onlyWebsitesUpTo: options.websites,
  });
  return {
    label,
    start,
    end,
    loadBefore,
    loadAfter,
    checks: results.length,
    notUp: results.filter((r) => r.status !== 'up').length,
    lags,
    results,
    workerCpu: workerAfter.user + workerAfter.system - workerBefore.user - workerBefore.system,
    workerSystemCpu: workerAfter.system - workerBefore.system,
    childrenCpu: childrenAfter - childrenBefore,
    peak: { ...peak },
  };
}

function printWindows(windows: WindowFigures[], options: SiteHealthLagOptions): void {
  const seconds = options.seconds;
  const rows: Array<[string, (w: WindowFigures) => string]> = [
    [
      'HTTP checks/s (due)',
      (w) =>
        `${(w.checks / seconds).toFixed(1)} (${(options.websites / options.interval).toFixed(1)}), ${w.notUp} not up`,
    ],
    [
      'HTTP lag ms p50 / p99 / max',
      (w) =>
        `${ms(percentile(w.lags, 50))} / ${ms(percentile(w.lags, 99))} / ${ms(w.lags.at(-1) ?? Number.NaN)}`,
    ],
    ['p99 under 250 ms', (w) => (percentile(w.lags, 99) < 250 ? 'yes' : 'NO')],
    [
      'worker CPU s (cores)',
      (w) =>
        `${w.workerCpu.toFixed(1)} (${(w.workerCpu / seconds).toFixed(2)}), system ${w.workerSystemCpu.toFixed(1)}`,
    ],
    [
      'its children CPU s (cores)',
      (w) => `${w.childrenCpu.toFixed(1)} (${(w.childrenCpu / seconds).toFixed(2)})`,
    ],
    ['worker RSS peak MiB', (w) => mib(w.peak.rootRss)],
    [
      'children RSS summed MiB',
      (w) => `${mib(w.peak.descendantsRss)} (${w.peak.descendants} processes at most)`,
    ],
    ['worker + children PSS MiB', (w) => mib(w.peak.pss)],
    ['load average (1 5 15)', (w) => `${w.loadBefore} → ${w.loadAfter}`],
  ];
  const width = 34;
  console.log(`   ${''.padEnd(28)} ${windows.map((w) => w.label.padEnd(width)).join(' ')}`);
  for (const [name, cell] of rows)
    console.log(`   ${name.padEnd(28)} ${windows.map((w) => cell(w).padEnd(width)).join(' ')}`.trimEnd());
  console.log(
    "   children: the worker's processes (Chromium; tsx's esbuild), those ended in the window counted through its cutime",
  );
  for (const w of windows) console.log(`   late (over 250 ms), ${w.label}: ${lateBursts(w)}`);
}

/** The checks started over 250 ms late, in bursts (a second apart at least): when, how many, how late. */
function lateBursts(w: WindowFigures): string {
  const late = w.results.filter((r) => r.lagMs > 250).sort((a, b) => a.startedAt - b.startedAt);
  if (!late.length) return 'none';
  const bursts: Array<typeof late> = [];
  for (const check of late) {
    const last = bursts.at(-1);
    if (last && check.startedAt - (last.at(-1)?.startedAt ?? 0) < 1000) last.push(check);
    else bursts.push([check]);
  }
  return `${late.length} checks in ${bursts.length} bursts: ${bursts
    .map(
      (b) =>
        `at ${(((b[0]?.startedAt ?? 0) - w.start) / 1000).toFixed(1)} s ${b.length} (max ${ms(Math.max(...b.map((c) => c.lagMs)))} ms)`,
    )
    .join(', ')}`;
}

export async function siteHealthLagPart(options: SiteHealthLagOptions): Promise<void> {
  const { say } = options;
  console.log('');
  console.log(
    `== HTTP schedule lag while a crawl and a Lighthouse run go on: ${options.websites} websites every ${options.interval} s; WORKER_LANE_SITE_CONCURRENCY ${options.siteConcurrency} (the default 1 runs them one after the other)`,
  );
  console.log(`   ${cpus().length} cores, load average ${load()} (before)`);
  const farm = createServer((_request, response) => response.end('<h1>Welcome</h1>'));
  farm.listen(0, '127.0.0.1');
  await new Promise((resolve) => farm.once('listening', resolve));
  const farmUrl = `http://127.0.0.1:${(farm.address() as AddressInfo).port}`;
  const page = await startLighthousePage();
  try {
    await withBenchDatabases('site-health', async (stack) => {
      const site = await startSiteProcess(stack.owned, fittedSite(options.maxPages));
      // Plain HTTP on 127.0.0.1, the worker's own resolver: the site's pages link to each other by
      // path; its absolute links name *.test hosts the worker cannot resolve (broken, at once).
      const siteUrl = `http://127.0.0.1:${new URL(site.ready.origins.http).port}/`;
      const pageUrl = `http://127.0.0.1:${page.port}/`;
      const mongo = new MongoClient(stack.mongoUrl);
      await mongo.connect();
      const db = mongo.db();
      const redis = new Redis(stack.redisUrl, { maxRetriesPerRequest: null });
      const prefix = `bench${Date.now()}`;
      const secretsKey = randomBytes(32).toString('base64');
      let apiPool: Pool | null = null;
      const { token, heartbeat } = await benchOrganization(db);
      try {
        await seedWebsites({
          db,
          redis,
          prefix,
          count: options.websites,
          intervalSeconds: options.interval,
          urlOf: (id) => `${farmUrl}/site/${id}`,
          say,
        });
        // The seeded ids claimed, as the API would have: its next website is the one after them.
        await nextIds(db, WEBSITES, options.websites);
        // The site plants links to 10.0.0.5, 169.254.169.254 (cloud metadata) and a redirect to
        // 127.0.0.2: the guard stays on, with this machine's loopback address the only exemption.
        const guard = { ALLOW_PRIVATE_TARGETS: 'false', PROBE_EXEMPT_ADDRESSES: '127.0.0.1' };
        const api = await startApiProcess(stack, {
          runtime: options.runtime,
          env: { REDIS_KEY_PREFIX: prefix, SECRETS_KEY: secretsKey, ...guard },
        });
        apiPool = new Pool(api.url, { connections: 4 });
        const worker = spawnBenchWorker(stack, {
          prefix,
          concurrency: 200,
          runtime: options.runtime,
          env: {
            SECRETS_KEY: secretsKey,
            WORKER_LANE_SITE_CONCURRENCY: String(options.siteConcurrency),
            CHROMIUM_PATH: options.chromium,
            ...guard,
          },
        });
        const pid = worker.pid as number;
        await sendJson(apiPool, {
          method: 'PATCH',
          path: '/api/packages/1',
          token,
          body: {
            limits: {
              maxWebsites: options.websites + 1,
              maxCrawlPages: 500,
              maxCrawlsPerDay: 240,
              maxLighthouseRunsPerDay: 240,
            },
          },
          expected: 200,
        });
        // Its own HTTP check hourly, left out of the lag (another cadence).
        const website = await sendJson(apiPool, {
          method: 'POST',
          path: '/api/websites',
          token,
          body: { customerId: 1, name: 'Generated site', url: siteUrl, checkInterval: 3600 },
          expected: 201,
        });
        const warmup = Math.max(options.warmupSeconds, options.interval * 2);
        say(
          `API ${api.url}, worker pid ${pid}; the generated site ${siteUrl} (website ${website.id}), the Lighthouse page ${pageUrl}; SSRF guard on, 127.0.0.1 exempt (PROBE_EXEMPT_ADDRESSES); warming up ${warmup} s…`,
        );
        await sleep(warmup * 1000);
        if (worker.exitCode !== null) throw new Error(`the worker exited (${worker.exitCode})`);
        say(`baseline: ${options.seconds} s with neither running…`);
        const baseline = await measureWindow(db, pid, options, 'neither');

        const made = async (body: Record<string, unknown>) =>
          (
            await sendJson(apiPool as Pool, {
              method: 'POST',
              path: `/api/websites/${website.id}/monitors`,
              token,
              body,
              expected: 201,
            })
          ).id;
        const monitors = [
          new KeptBusy('crawl', await made({ kind: 'crawl', schedule: 'hourly' }), apiPool, token),
          new KeptBusy(
            'lighthouse',
            await made({
              kind: 'lighthouse',
              schedule: 'daily',
              urls: [pageUrl],
              presets: ['mobile', 'desktop'],
            }),
            apiPool,
            token,
          ),
        ];
        // Each runs as soon as made: asking now answers that run (or queues the first).
        for (const monitor of monitors) await monitor.ask();
        say('waiting until both run…');
        for (let waited = 0; ; waited += 500) {
          const states = await Promise.all(monitors.map((m) => m.poll(true)));
          if (states.every((s) => s === 'running')) break;
          if (waited > 180_000) throw new Error(`not both running after 3 minutes: ${states.join(', ')}`);
          await sleep(500);
        }
        say(`both run; measuring ${options.seconds} s, each asked again as soon as a run ends…`);
        let measuring = true;
        const keeping = (async () => {
          while (measuring) {
            for (const monitor of monitors) await monitor.poll(true);
            await sleep(500);
          }
        })();
        const during = await measureWindow(db, pid, options, 'crawl + Lighthouse');
        measuring = false;
        await keeping;
        say('waiting for the runs under way to end…');
        for (const started = Date.now(); Date.now() - started < RUN_END_WAIT_MS; ) {
          const states = await Promise.all(monitors.map((m) => m.poll(false)));
          if (states.every((s) => s === 'done' || s === 'failed')) break;
          await sleep(1000);
        }
        console.log('');
        printWindows([baseline, during], options);
        const shares = busyShares(monitors, during);
        const share = (n = 0) => `${(n * 100).toFixed(0)} %`;
        console.log(
          `   running in the window        crawl ${share(shares.each[0])}, Lighthouse ${share(shares.each[1])}, both at once ${share(shares.all)} (from the runs' startedAt/finishedAt)`,
        );
        console.log('');
        printRuns(monitors, during.start);
      } finally {
        await apiPool?.close();
        await heartbeat.stop();
        redis.disconnect();
        await mongo.close();
      }
    });
  } finally {
    page.close();
    farm.close();
  }
  console.log(`   load average ${load()} (after)`);
}
