/**
 * Browser journeys (issue 42, "Performance"): a 6-step journey on the local test shop
 * (test/support/test-shop.ts: sign in with a session cookie, a search rendered by JavaScript from
 * one slow API call, a product, the basket, the checkout page), played by Debian's Chromium
 * through the JourneyBrowser the workers use. Three parts (`--parts`, all by default):
 *
 * - `runs`: one child process holding a JourneyBrowser (bench/support/journey-player.ts, one run
 *   at a time) plays the journey `--runs` times after one warm-up run (which launches Chromium).
 *   Per run: its wall time (the `JourneyBrowser.run` call), the page's own time (how long the shop
 *   was answering at least one of the run's requests: its HTTP answers, the slow search's
 *   `--search-delay` in them, measured at the shop), the time beyond the page's own (the
 *   difference: the browser context, rendering, Playwright's waits, the guard proxy, tracing, Web
 *   Vitals, the memory check; of it, the runner's time outside the steps: the context made and
 *   closed, each step's Web Vitals read), the Chromium processes' CPU (from /proc, the renderers
 *   of closed contexts counted through their zygote's children times), the player's own CPU, and
 *   the PSS of player + Chromium; then each of the six steps' median time.
 * - `throughput`: a real worker process (FerretDB, Redis, `WORKER_BROWSER_CONCURRENCY`
 *   `--concurrency`) with `--journeys` browser monitors every `--journey-interval` s on as many
 *   websites (stored as the API stores them, the password sealed; their HTTP checks every 600 s,
 *   none due in the window): more journeys due than the lane plays, for `--seconds` after
 *   `--warmup`. Journeys a minute finished in the window, p50/p95 run time, the worker's and
 *   Chromium's CPU per journey, the worker + Chromium PSS at its peak (sampled every second; the
 *   issue's bound: 1.5 GiB), how full the browser's slots were (the runs' time in the window over
 *   the slots' time) and the journeys due still waiting in Redis.
 * - `lag`: the same worker and monitors beside `--websites` websites checked every `--interval`
 *   s against a local HTTP target: HTTP schedule lag p50/p99 (a check's start minus its slot, from
 *   the stored results, as bench:worker reads it; the issue's bound: p99 under 250 ms) while the
 *   browser lane is saturated, with the journeys it made meanwhile.
 *
 * Prints a table per part with the machine's cores and load average before and after.
 * Usage: npm run bench:journeys [-- --runs 10 --seconds 60 --warmup 20 --concurrency 2 --journeys 24
 *   --journey-interval 10 --websites 1000 --interval 10 --search-delay 300 --runtime tsx|dist
 *   --parts runs,throughput,lag]
 * CHROMIUM_PATH: the browser (default /usr/bin/chromium). BENCH_WORKER_LOGS=info: the worker's log.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { type Db, MongoClient } from 'mongodb';
import { journeySettings } from '../libs/journeys/index.js';
import { MonitorRepository, PROBE_KINDS, type ProbeCheckDocument } from '../libs/monitors/index.js';
import { sealSettings } from '../libs/monitors/sealed-settings.js';
import { DueSet, regionDueKey } from '../libs/scheduler/index.js';
import { SecretBox } from '../libs/secrets/index.js';
import { startTestShop, type TestShop } from '../test/support/test-shop.js';
import { parseRuntime } from './support/app-runtime.js';
import { type BenchStack, withBenchDatabases, withOwnedProcesses } from './support/bench-databases.js';
import { seedWebsites, spawnBenchWorker } from './support/bench-worker.js';
import type { PlayedRun, PlayerSetup } from './support/journey-player.js';
import { cpuSecondsOf, percentile } from './support/process-stats.js';
import { descendantsCpuSeconds, MiB, sampleTreeMemory, treeMemory } from './support/process-tree.js';
import { httpScheduleLags } from './support/schedule-lag.js';
import { phaseOfAction, shopJourney, shopJourneyPhases } from './support/shop-journey.js';

const PARTS = ['runs', 'throughput', 'lag'] as const;
type Part = (typeof PARTS)[number];

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '2' },
    journeys: { type: 'string', default: '24' },
    'journey-interval': { type: 'string', default: '10' },
    websites: { type: 'string', default: '1000' },
    interval: { type: 'string', default: '10' },
    'search-delay': { type: 'string', default: '300' },
    runtime: { type: 'string', default: 'tsx' },
    parts: { type: 'string', default: PARTS.join(',') },
  },
});
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const warmupSeconds = Number(values.warmup);
const concurrency = Number(values.concurrency);
const journeyCount = Number(values.journeys);
const journeyInterval = Number(values['journey-interval']);
const websiteCount = Number(values.websites);
const websiteInterval = Number(values.interval);
const searchDelayMs = Number(values['search-delay']);
const runtime = parseRuntime(values.runtime);
const parts = values.parts.split(',') as Part[];
if (
  ![runs, seconds, concurrency, journeyCount, journeyInterval, websiteCount, websiteInterval].every(
    (n) => Number.isInteger(n) && n > 0,
  ) ||
  !(warmupSeconds >= 0) ||
  !(searchDelayMs >= 0) ||
  websiteInterval < 10 ||
  journeyCount > websiteCount ||
  parts.some((part) => !PARTS.includes(part))
)
  throw new Error(
    `--runs, --seconds, --concurrency, --journeys, --journey-interval, --websites must be positive integers, --interval at least 10, --journeys at most --websites, --parts of ${PARTS.join(',')}`,
  );

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** A journey's deadline (the browser kind's default timeout). */
const DEADLINE_SECONDS = 60;
const say = (message: string) => console.log(`[bench] ${message}`);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ascending = (numbers: number[]) => [...numbers].sort((a, b) => a - b);
const median = (numbers: number[]) => percentile(ascending(numbers), 50);
const mean = (numbers: number[]) => numbers.reduce((sum, n) => sum + n, 0) / Math.max(1, numbers.length);
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '–');
const cpu = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : '–');
const mib = (bytes: number) => (bytes / MiB).toFixed(0);

/** Total length of the union of [start, end] intervals (overlapping answers counted once). */
function coveredMs(intervals: Array<{ startedAt: number; endedAt: number }>): number {
  let total = 0;
  let reach = Number.NEGATIVE_INFINITY;
  for (const { startedAt, endedAt } of [...intervals].sort((a, b) => a.startedAt - b.startedAt)) {
    if (endedAt <= reach) continue;
    total += endedAt - Math.max(startedAt, reach);
    reach = endedAt;
  }
  return total;
}

function header(title: string): void {
  console.log('');
  console.log(`== ${title}`);
  console.log(`   ${cpus().length} cores, load average ${load()} (before)`);
}

// ---------------------------------------------------------------- part 1: per run

async function perRun(shop: TestShop): Promise<void> {
  const phases = shopJourneyPhases(shop);
  header(
    `per run: the journey's ${phases.length} steps (${phases.reduce((n, p) => n + p.actions.length, 0)} actions), ${runs} runs one at a time after a warm-up run; search delay ${searchDelayMs} ms`,
  );
  await withOwnedProcesses(async (own) => {
    const player = own(
      spawn(process.execPath, ['--import', 'tsx', 'bench/support/journey-player.ts'], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        env: { ...process.env, CHROMIUM_PATH: CHROMIUM },
      }),
    );
    const pid = player.pid as number;
    const ask = <T>(message: unknown) =>
      new Promise<T>((resolve, reject) => {
        const onExit = () => reject(new Error('the journey player exited'));
        player.once('exit', onExit);
        player.once('message', (reply) => {
          player.off('exit', onExit);
          resolve(reply as T);
        });
        player.send(message as object);
      });
    const setup: PlayerSetup = {
      type: 'setup',
      journey: shopJourney(shop),
      shopPort: Number(new URL(shop.url).port),
      concurrency: 1,
      deadlineMs: DEADLINE_SECONDS * 1000,
    };
    await ask(setup);
    const answers: Array<{ startedAt: number; endedAt: number }> = [];
    shop.onAnswered = (answer) => answers.push(answer);
    interface Measured {
      played: PlayedRun;
      pageMs: number;
      requests: number;
      chromiumCpu: number;
      playerCpu: number;
      pss: number;
    }
    const playOnce = async (id: number): Promise<Measured> => {
      answers.length = 0;
      const [playerBefore, chromiumBefore] = [cpuSecondsOf(pid), descendantsCpuSeconds(pid)];
      const played = await ask<PlayedRun | { type: 'failed'; error: string }>({ type: 'play', id });
      if (played.type === 'failed') throw new Error(`run ${id} could not be played: ${played.error}`);
      const [playerAfter, chromiumAfter] = [cpuSecondsOf(pid), descendantsCpuSeconds(pid)];
      return {
        played,
        pageMs: coveredMs(answers),
        requests: answers.length,
        chromiumCpu: chromiumAfter - chromiumBefore,
        playerCpu: playerAfter - playerBefore,
        pss: treeMemory(pid).pss,
      };
    };
    const first = await playOnce(0);
    if (!first.played.passed) throw new Error(`the warm-up run failed: ${first.played.error}`);
    const memory = sampleTreeMemory(pid, 500);
    const measured: Measured[] = [];
    for (let id = 1; id <= runs; id++) measured.push(await playOnce(id));
    const peak = memory.stop();
    shop.onAnswered = undefined;
    const failed = measured.filter((m) => !m.played.passed);
    const rows: Array<[string, number[], (n: number) => string]> = [
      ['wall (JourneyBrowser.run) ms', measured.map((m) => m.played.wallMs), ms],
      ["runner's run (context to close) ms", measured.map((m) => m.played.durationMs), ms],
      [
        'runner outside the steps ms',
        measured.map(
          (m) => m.played.durationMs - m.played.steps.reduce<number>((sum, d) => sum + (d ?? 0), 0),
        ),
        ms,
      ],
      ["page's own (shop answering) ms", measured.map((m) => m.pageMs), ms],
      ["beyond the page's own ms", measured.map((m) => m.played.wallMs - m.pageMs), ms],
      ['Chromium CPU s', measured.map((m) => m.chromiumCpu), cpu],
      ['player (worker) CPU s', measured.map((m) => m.playerCpu), cpu],
      ['player + Chromium PSS MiB', measured.map((m) => m.pss / MiB), (n) => n.toFixed(0)],
    ];
    console.log('');
    console.log(
      `   runs ${measured.length}, passed ${measured.length - failed.length}${failed.length ? ` (first failure: ${failed[0]?.played.error})` : ''}; ${mean(measured.map((m) => m.requests)).toFixed(0)} requests a run at the shop`,
    );
    console.log(
      `   ${'per run'.padEnd(38)} ${'median'.padStart(8)} ${'mean'.padStart(8)} ${'max'.padStart(8)}`,
    );
    for (const [name, numbers, shown] of rows)
      console.log(
        `   ${name.padEnd(38)} ${shown(median(numbers)).padStart(8)} ${shown(mean(numbers)).padStart(8)} ${shown(Math.max(...numbers)).padStart(8)}`,
      );
    console.log(
      `   warm-up run (Chromium launched): wall ${ms(first.played.wallMs)} ms, Chromium CPU ${cpu(first.chromiumCpu)} s, player CPU ${cpu(first.playerCpu)} s`,
    );
    console.log(
      `   peak while measuring: PSS player + Chromium ${mib(peak.pss)} MiB; RSS player ${mib(peak.rootRss)} MiB, Chromium's ${peak.descendants} processes ${mib(peak.descendantsRss)} MiB summed (shared pages in each)`,
    );
    const phaseOf = phaseOfAction(shop);
    console.log(`   ${'step (median ms over runs)'.padEnd(38)} ${'ms'.padStart(8)}`);
    phases.forEach((phase, index) => {
      const times = measured.map((m) =>
        m.played.steps.reduce<number>((sum, d, i) => (phaseOf[i] === index ? sum + (d ?? 0) : sum), 0),
      );
      console.log(
        `   ${`${index + 1}. ${phase.name} (${phase.actions.length})`.padEnd(38)} ${ms(median(times)).padStart(8)}`,
      );
    });
    const ttfb = measured.flatMap((m) => m.played.ttfbMs.filter((n): n is number => n !== null));
    console.log(
      `   pages' TTFB as the pages measured it: median ${ms(median(ttfb))} ms over ${ttfb.length} pages`,
    );
  });
  console.log(`   load average ${load()} (after)`);
}

// ------------------------------------------------------- parts 2 and 3: a worker

/** The package lets browser journeys run (omitted features are allowed; said here all the same). */
async function allowBrowserChecks(db: Db): Promise<void> {
  await db.collection('packages').updateOne({ id: 1 }, { $set: { 'features.browserChecks': true } });
}

/** One browser monitor on each of websites 1…count, stored as the API stores one (the password sealed). */
async function seedJourneys(db: Db, box: SecretBox, shop: TestShop, count: number): Promise<void> {
  const kind = PROBE_KINDS.browser;
  const given = shopJourney(shop);
  const parsed = kind.settings.parse(given) as Record<string, unknown>;
  const { settings, sealed } = sealSettings(kind, parsed, given as Record<string, unknown>, [], box);
  const repository = new MonitorRepository(db);
  for (let websiteId = 1; websiteId <= count; websiteId++)
    await repository.create<ProbeCheckDocument>({
      kind: 'browser',
      organizationId: 1,
      websiteId,
      name: `shop journey ${websiteId}`,
      settings,
      sealed,
      intervalSeconds: journeyInterval,
      timeoutSeconds: DEADLINE_SECONDS,
    });
}

interface WorkerRow {
  label: string;
  /** Websites checked over HTTP, every `everySeconds`. */
  websites: number;
  everySeconds: number;
  urlOf: (id: number) => string;
  warmupSeconds: number;
  /** Report the HTTP schedule lag of the window. */
  lag: boolean;
}

async function workerRow(shop: TestShop, row: WorkerRow): Promise<void> {
  header(row.label);
  await withBenchDatabases('journeys', async (stack: BenchStack) => {
    const mongo = new MongoClient(stack.mongoUrl);
    await mongo.connect();
    const db = mongo.db();
    const redis = new Redis(stack.redisUrl, { maxRetriesPerRequest: null });
    const prefix = `bench${Date.now()}`;
    const key = randomBytes(32);
    try {
      await seedWebsites({
        db,
        redis,
        prefix,
        count: row.websites,
        intervalSeconds: row.everySeconds,
        urlOf: row.urlOf,
        say,
      });
      await allowBrowserChecks(db);
      await seedJourneys(db, new SecretBox(key), shop, journeyCount);
      say(
        `${journeyCount} browser monitors every ${journeyInterval} s (${((journeyCount / journeyInterval) * 60).toFixed(0)} journeys a minute due)`,
      );
      const worker: ChildProcess = spawnBenchWorker(stack, {
        prefix,
        concurrency: 200,
        runtime,
        env: {
          SECRETS_KEY: key.toString('base64'),
          WORKER_BROWSER_CONCURRENCY: String(concurrency),
          CHROMIUM_PATH: CHROMIUM,
        },
      });
      const pid = worker.pid as number;
      const browserResults = () => db.collection('monitor_log').countDocuments({ kind: 'browser' });
      say(
        `worker started (pid ${pid}); warming up ${row.warmupSeconds} s and until its first journey is stored…`,
      );
      const spawnedAt = Date.now();
      while (Date.now() - spawnedAt < row.warmupSeconds * 1000 || (await browserResults()) === 0) {
        if (worker.exitCode !== null) throw new Error(`the worker exited (${worker.exitCode})`);
        if (Date.now() - spawnedAt > (row.warmupSeconds + 120) * 1000)
          throw new Error('no journey stored 2 minutes after the warm-up');
        await sleep(1000);
      }
      say(`measuring ${seconds} s…`);
      const slowDue = new DueSet(redis, regionDueKey(prefix, 'local', 'browser'));
      const waiting: number[] = [];
      const memory = sampleTreeMemory(pid, 1000);
      const waitingTimer = setInterval(() => {
        void slowDue.counts(Date.now()).then(({ due }) => waiting.push(due));
      }, 1000);
      const windowStart = new Date();
      const [workerBefore, chromiumBefore] = [cpuSecondsOf(pid), descendantsCpuSeconds(pid)];
      await sleep(seconds * 1000);
      const windowEnd = new Date();
      const [workerAfter, chromiumAfter] = [cpuSecondsOf(pid), descendantsCpuSeconds(pid)];
      clearInterval(waitingTimer);
      const peak = memory.stop();
      // The runs under way at the window's end are stored once they end: waited for (a deadline at most).
      const startedBefore = (end: Date) =>
        db.collection('monitor_log').countDocuments({ kind: 'browser', at: { $gte: windowStart, $lt: end } });
      for (let last = -1, now = await startedBefore(windowEnd), waited = 0; ; waited += 2000) {
        if (now === last || waited > DEADLINE_SECONDS * 1000) break;
        await sleep(2000);
        [last, now] = [now, await startedBefore(windowEnd)];
      }
      const logged = (
        await db
          .collection('monitor_log')
          .find(
            {
              kind: 'browser',
              at: { $gte: new Date(windowStart.getTime() - DEADLINE_SECONDS * 1000), $lt: windowEnd },
            },
            { projection: { at: 1, result: 1 } },
          )
          .toArray()
      ).map((entry) => {
        const startedAt = (entry.at as Date).getTime();
        const durationMs = Number(entry.result?.durationMs ?? 0);
        return {
          startedAt,
          endedAt: startedAt + durationMs,
          durationMs,
          status: String(entry.result?.status),
          cause: entry.result?.cause as string | null,
          timings: (entry.result?.timings ?? {}) as Record<string, number | null>,
        };
      });
      const [from, to] = [windowStart.getTime(), windowEnd.getTime()];
      const journeys = logged.filter((j) => j.endedAt >= from && j.endedAt < to);
      // How full the browser's slots were: the runs' time within the window over the slots' time.
      const busyMs = logged.reduce(
        (sum, j) => sum + Math.max(0, Math.min(j.endedAt, to) - Math.max(j.startedAt, from)),
        0,
      );
      const slowest = [...journeys].sort((a, b) => b.durationMs - a.durationMs)[0];
      const up = journeys.filter((j) => j.status === 'up');
      const durations = ascending(journeys.map((j) => j.durationMs));
      const perJourney = (cpuSeconds: number) =>
        journeys.length ? cpuSeconds / journeys.length : Number.NaN;
      console.log('');
      console.log(
        `   window ${seconds} s; WORKER_BROWSER_CONCURRENCY ${concurrency}; ${row.websites} websites over HTTP every ${row.everySeconds} s`,
      );
      console.log(
        `   journeys a minute          ${((journeys.length / seconds) * 60).toFixed(1)}  (${journeys.length} finished in the window, ${up.length} up${journeys.length > up.length ? `; first not up: ${journeys.find((j) => j.status !== 'up')?.cause}` : ''})`,
      );
      console.log(
        `   journey run time ms        p50 ${ms(percentile(durations, 50))}  p95 ${ms(percentile(durations, 95))}  max ${ms(durations.at(-1) ?? Number.NaN)}`,
      );
      console.log(
        `   CPU s per journey          ${row.lag ? '(the worker’s with its HTTP checks) ' : ''}worker ${cpu(perJourney(workerAfter - workerBefore))}, Chromium ${cpu(perJourney(chromiumAfter - chromiumBefore))}  (cores used: worker ${((workerAfter - workerBefore) / seconds).toFixed(2)}, Chromium ${((chromiumAfter - chromiumBefore) / seconds).toFixed(2)})`,
      );
      console.log(
        `   memory at its peak         PSS worker + Chromium ${mib(peak.pss)} MiB (bound 1536); RSS worker ${mib(peak.rootRss)} MiB, Chromium's ${peak.descendants} processes ${mib(peak.descendantsRss)} MiB summed`,
      );
      console.log(
        `   browser slots busy         ${((busyMs / (concurrency * seconds * 1000)) * 100).toFixed(0)} % of the window (runs' own time; the rest: between runs); journeys due not yet claimed: mean ${mean(waiting).toFixed(1)}, min ${Math.min(...waiting)} (the browser lane claims no more than it plays)`,
      );
      if (slowest)
        console.log(
          `   slowest journey            ${ms(slowest.durationMs)} ms: ${Object.entries(slowest.timings)
            .map(([name, value]) => `${name.replace(/Ms$/, '')} ${ms(value ?? Number.NaN)}`)
            .join(', ')}`,
        );
      if (row.lag) await printLag(db, windowStart, windowEnd, row);
    } finally {
      redis.disconnect();
      await mongo.close();
    }
  });
  console.log(`   load average ${load()} (after)`);
}

/** The HTTP checks' schedule lag in the window, from the stored results (as bench:worker reads it). */
async function printLag(db: Db, windowStart: Date, windowEnd: Date, row: WorkerRow): Promise<void> {
  const { results, lags } = await httpScheduleLags(db, {
    start: windowStart,
    end: windowEnd,
    everySeconds: row.everySeconds,
  });
  const down = results.filter((r) => r.status !== 'up').length;
  const withJourney = results.filter((r) => r.websiteId <= journeyCount).length;
  const slots = seconds / row.everySeconds;
  console.log(
    `   HTTP checks/s              ${(results.length / seconds).toFixed(1)} of ${(row.websites / row.everySeconds).toFixed(1)} due (${results.length} results, ${down} not up; ${withJourney} of ~${(slots * journeyCount).toFixed(0)} on websites with a journey, ${results.length - withJourney} of ~${(slots * (row.websites - journeyCount)).toFixed(0)} on the others)`,
  );
  console.log(
    `   HTTP schedule lag ms       p50 ${ms(percentile(lags, 50))}  p99 ${ms(percentile(lags, 99))}  (bound: p99 under 250)`,
  );
}

// ---------------------------------------------------------------- main

say(`Chromium ${CHROMIUM}; ${cpus().length} cores; load average ${load()}`);
journeySettings.parse(shopJourney({ url: 'http://127.0.0.1:1', email: 'a@b.test', password: 'x' }));
const shop = await startTestShop();
shop.searchDelayMs = searchDelayMs;
const farm = createServer((_req, res) => res.end('<h1>Welcome</h1>'));
try {
  if (parts.includes('runs')) await perRun(shop);
  if (parts.includes('throughput'))
    await workerRow(shop, {
      label: `throughput: one worker, its browser lane full (${journeyCount} journeys every ${journeyInterval} s)`,
      websites: journeyCount,
      // Their HTTP checks: none due in the window.
      everySeconds: 600,
      urlOf: () => `${shop.url}/`,
      warmupSeconds,
      lag: false,
    });
  if (parts.includes('lag')) {
    farm.listen(0, '127.0.0.1');
    await new Promise((resolve) => farm.once('listening', resolve));
    const farmUrl = `http://127.0.0.1:${(farm.address() as AddressInfo).port}`;
    await workerRow(shop, {
      label: `HTTP schedule lag: ${websiteCount} websites every ${websiteInterval} s while the browser lane is full`,
      websites: websiteCount,
      everySeconds: websiteInterval,
      urlOf: (id) => `${farmUrl}/site/${id}`,
      // Two intervals at least, so every website has had its first slot before measuring.
      warmupSeconds: Math.max(warmupSeconds, websiteInterval * 2),
      lag: true,
    });
  }
} finally {
  farm.close();
  await shop.close();
}
