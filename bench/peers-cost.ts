/**
 * Check cost side by side: our worker (with its embedded FerretDB and Redis), Gatus (memory storage,
 * then SQLite) and blackbox_exporter against one local target farm, the same websites, interval and
 * conditions (status 200, body contains "Welcome", response time < 5 s), over HTTP and over HTTPS
 * (a full handshake per check: the farm closes every connection). Each is measured over a window
 * after its steady state: CPU seconds of every process involved (from /proc) per 1,000 checks
 * counted at the farm. Prints one table with the peers/ours ratios and writes JSON to bench/results/.
 *
 * `node-floor` is no product: a bare Node.js process making the same checks over raw sockets (see
 * bench/support/node-floor.ts), the least Node's own networking and TLS cost here;
 * `node-floor-stored` the same, also storing every result in the embedded FerretDB (its row: the
 * Node.js process alone, as "webmon worker alone").
 *
 * Usage: npm run bench:peers -- [--websites 200] [--interval 10] [--window 30]
 *   [--systems webmon,gatus-memory,gatus-sqlite,blackbox,node-floor,node-floor-stored] [--schemes http,https] [--runtime dist|tsx]
 * GATUS_BIN / BLACKBOX_BIN name the peers' binaries; otherwise ../shared/peers/build-peers.sh builds them.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { cadenceOffsetMs } from '../libs/scheduler/index.js';
import { compileForDist, parseRuntime } from './support/app-runtime.js';
import { type Own, withBenchDatabases, withOwnedProcesses } from './support/bench-databases.js';
import { seedWebsites, spawnBenchWorker } from './support/bench-worker.js';
import {
  driveBlackbox,
  locatePeers,
  type PeerBinaries,
  startBlackbox,
  startGatus,
} from './support/peer-checkers.js';
import {
  type Measurement,
  perThousandChecks,
  printTable,
  rowsOf,
  type Scheme,
  totalCpuSeconds,
} from './support/peers-table.js';
import { cpuSecondsOf, percentile } from './support/process-stats.js';
import { startTargetFarm, type TargetFarm, untilSteady } from './support/target-farm.js';

const SYSTEMS = [
  'webmon',
  'gatus-memory',
  'gatus-sqlite',
  'blackbox',
  'node-floor',
  'node-floor-stored',
] as const;
/** Bare Node.js checkers, no product: see bench/support/node-floor.ts. */
type Floor = 'node-floor' | 'node-floor-stored';
const isFloor = (system: System): system is Floor =>
  system === 'node-floor' || system === 'node-floor-stored';
type System = (typeof SYSTEMS)[number];

const { values } = parseArgs({
  options: {
    websites: { type: 'string', default: '200' },
    interval: { type: 'string', default: '10' },
    window: { type: 'string', default: '30' },
    systems: { type: 'string', default: SYSTEMS.join(',') },
    schemes: { type: 'string', default: 'http,https' },
    runtime: { type: 'string', default: 'dist' },
  },
});
const websites = Number(values.websites);
const intervalSeconds = Number(values.interval);
const windowSeconds = Number(values.window);
if (
  ![websites, intervalSeconds, windowSeconds].every((n) => Number.isInteger(n) && n > 0) ||
  intervalSeconds < 10
)
  throw new Error('--websites and --window must be positive integers, --interval an integer of at least 10');
const systems = values.systems.split(',') as System[];
for (const system of systems)
  if (!SYSTEMS.includes(system)) throw new Error(`--systems: ${system} is not one of ${SYSTEMS.join(', ')}`);
const schemes = values.schemes.split(',') as Scheme[];
for (const scheme of schemes)
  if (scheme !== 'http' && scheme !== 'https') throw new Error('--schemes: http and/or https');
const runtime = parseRuntime(values.runtime);
const perSecond = websites / intervalSeconds;

const say = (message: string) => console.log(`[peers] ${message}`);

async function measureWindow(
  farm: TargetFarm,
  pids: Record<string, number>,
): Promise<{ checks: number; cpuSeconds: Record<string, number> }> {
  const cpuBefore = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSecondsOf(pid)]));
  const hitsBefore = farm.hits();
  await new Promise((r) => setTimeout(r, windowSeconds * 1000));
  const checks = farm.hits() - hitsBefore;
  const cpuSeconds = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, cpuSecondsOf(pid) - (cpuBefore[name] ?? 0)]),
  );
  return { checks, cpuSeconds };
}

function commandStats(info: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(match[1]!, Number(match[2]));
  return calls;
}

/** The time a steady state takes to reach, at most: every endpoint started and two intervals more. */
const rampTimeoutMs = (websites * 0.222 + intervalSeconds * 3 + 60) * 1000;

async function measureWebmon(farm: TargetFarm, scheme: Scheme, caFile: string): Promise<Measurement> {
  let measurement: Measurement | undefined;
  await withBenchDatabases('peers', async (stack) => {
    if (!stack.pids.mongo || !stack.pids.redis)
      throw new Error(
        'the peers benchmark measures the embedded FerretDB and Redis: unset MONGODB_URL and REDIS_URL',
      );
    const prefix = `peers${Date.now()}`;
    const mongo = new MongoClient(stack.mongoUrl);
    await mongo.connect();
    const redis = new Redis(stack.redisUrl, { maxRetriesPerRequest: null });
    try {
      await seedWebsites({
        db: mongo.db(),
        redis,
        prefix,
        count: websites,
        intervalSeconds,
        urlOf: (id) => `${farm[scheme]}/site/${id}`,
        say,
      });
      const worker = spawnBenchWorker(stack, {
        prefix,
        concurrency: 200,
        runtime,
        env: { PROBE_EXTRA_CA_FILE: caFile },
      });
      await untilSteady(farm, perSecond, rampTimeoutMs, intervalSeconds, say);
      const statsBefore = commandStats(await redis.info('commandstats'));
      const windowStart = new Date();
      const { checks, cpuSeconds } = await measureWindow(farm, {
        worker: worker.pid!,
        redis: stack.pids.redis,
        ferretdb: stack.pids.mongo,
      });
      const windowEnd = new Date();
      const statsAfter = commandStats(await redis.info('commandstats'));
      const perCheck = [...statsAfter]
        .map(
          ([command, calls]) =>
            [command, (calls - (statsBefore.get(command) ?? 0)) / Math.max(1, checks)] as const,
        )
        .filter(([command, calls]) => calls > 0.005 && command !== 'info')
        .sort((a, b) => b[1] - a[1]);
      // Results of checks that started in the window; the last ones may still be on their way.
      await new Promise((r) => setTimeout(r, 2000));
      const stored = await mongo
        .db()
        .collection('check_results')
        .find(
          { startedAt: { $gte: windowStart, $lt: windowEnd } },
          { projection: { websiteId: 1, startedAt: 1 } },
        )
        .toArray();
      const storedResults = stored.length;
      // Schedule lag: start − planned slot (the bucket's offset + k·interval).
      const everyMs = intervalSeconds * 1000;
      const lags = stored
        .map((r) => {
          const since =
            (r.startedAt as Date).getTime() - cadenceOffsetMs(r.websiteId as number, intervalSeconds * 1000);
          return ((since % everyMs) + everyMs) % everyMs;
        })
        .sort((a, b) => a - b);
      measurement = {
        system: 'webmon',
        scheme,
        checks,
        checksPerSecond: checks / windowSeconds,
        cpuSeconds,
        redisCommandsPerCheck: Object.fromEntries(perCheck.map(([c, n]) => [c, Math.round(n * 100) / 100])),
        storedResults,
        lagMs: { p50: percentile(lags, 50), p99: percentile(lags, 99) },
      };
    } finally {
      redis.disconnect();
      await mongo.close();
    }
  });
  return measurement!;
}

async function measurePeer(
  system: Exclude<System, 'webmon' | Floor>,
  peers: PeerBinaries,
  farm: TargetFarm,
  scheme: Scheme,
  caFile: string,
): Promise<Measurement> {
  const urls = Array.from({ length: websites }, (_, i) => `${farm[scheme]}/site/${i + 1}`);
  let measurement: Measurement | undefined;
  const dir = mkdtempSync(join(tmpdir(), `webmon-peers-${system}-`));
  await withOwnedProcesses(
    async (own) => {
      if (system === 'blackbox') {
        const { child, port } = await startBlackbox({ binary: peers.blackbox, dir, caFile, own });
        const driver = driveBlackbox(port, urls, perSecond);
        try {
          await untilSteady(farm, perSecond, rampTimeoutMs, intervalSeconds, say);
          const window = await measureWindow(farm, { blackbox_exporter: child.pid! });
          measurement = { system, scheme, ...window, checksPerSecond: window.checks / windowSeconds };
        } finally {
          driver.stop();
        }
        return;
      }
      const child = await startGatus({
        binary: peers.gatus,
        dir,
        urls,
        intervalSeconds,
        storage: system === 'gatus-sqlite' ? 'sqlite' : 'memory',
        caFile,
        own,
      });
      await untilSteady(farm, perSecond, rampTimeoutMs, intervalSeconds, say);
      const window = await measureWindow(farm, { gatus: child.pid! });
      measurement = { system, scheme, ...window, checksPerSecond: window.checks / windowSeconds };
    },
    () => rmSync(dir, { recursive: true, force: true }),
  );
  return measurement!;
}

/** `node-floor`, or with `stored` `node-floor-stored` on throwaway databases (FerretDB's CPU shown apart). */
async function measureNodeFloor(
  farm: TargetFarm,
  scheme: Scheme,
  caFile: string,
  stored: boolean,
): Promise<Measurement> {
  const urls = Array.from({ length: websites }, (_, i) => `${farm[scheme]}/site/${i + 1}`);
  let measurement: Measurement | undefined;
  const run = async (own: Own, mongo?: { url: string; pid: number }) => {
    const child = own(
      spawn(process.execPath, ['--import', 'tsx', 'bench/support/node-floor.ts'], {
        env: {
          ...process.env,
          FLOOR_URLS: JSON.stringify(urls),
          FLOOR_PER_SECOND: String(perSecond),
          FLOOR_CA_FILE: caFile,
          FLOOR_MONGODB_URL: mongo?.url ?? '',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    );
    await untilSteady(farm, perSecond, rampTimeoutMs, intervalSeconds, say);
    const window = await measureWindow(farm, { node: child.pid!, ...(mongo ? { ferretdb: mongo.pid } : {}) });
    measurement = {
      system: stored ? 'node-floor-stored' : 'node-floor',
      scheme,
      ...window,
      checksPerSecond: window.checks / windowSeconds,
    };
  };
  if (!stored) await withOwnedProcesses((own) => run(own));
  else
    await withBenchDatabases('floor', async (stack) => {
      if (!stack.pids.mongo)
        throw new Error('node-floor-stored measures the embedded FerretDB: unset MONGODB_URL');
      await run(stack.owned, { url: stack.mongoUrl, pid: stack.pids.mongo });
    });
  return measurement!;
}

const started = new Date();
const load = loadavg();
if (systems.includes('webmon') && runtime === 'dist') compileForDist(say);
const peers = systems.some((s) => s !== 'webmon' && !isFloor(s)) ? locatePeers(say) : undefined;
const farm = await startTargetFarm();
const dir = mkdtempSync(join(tmpdir(), 'webmon-peers-'));
const caFile = join(dir, 'ca.pem');
writeFileSync(caFile, farm.caPem);
const measurements: Measurement[] = [];
try {
  for (const scheme of schemes) {
    for (const system of systems) {
      say(
        `${system} over ${scheme.toUpperCase()}: ${websites} websites every ${intervalSeconds} s, window ${windowSeconds} s…`,
      );
      const m =
        system === 'webmon'
          ? await measureWebmon(farm, scheme, caFile)
          : isFloor(system)
            ? await measureNodeFloor(farm, scheme, caFile, system === 'node-floor-stored')
            : await measurePeer(system, peers!, farm, scheme, caFile);
      say(
        `  ${m.checksPerSecond.toFixed(1)} checks/s, ${perThousandChecks(totalCpuSeconds(m), m.checks).toFixed(2)} CPU s per 1k checks (${Object.entries(
          m.cpuSeconds,
        )
          .map(([p, s]) => `${p} ${s.toFixed(2)} s`)
          .join(', ')})`,
      );
      measurements.push(m);
      // The farm's last connections and the stopped processes settle before the next system.
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
} finally {
  await farm.close();
  rmSync(dir, { recursive: true, force: true });
}
printTable(measurements, { websites, intervalSeconds, perSecond, schemes });
mkdirSync('bench/results', { recursive: true });
const file = `bench/results/peers-${started.toISOString().replace(/[:.]/g, '-')}.json`;
writeFileSync(
  file,
  `${JSON.stringify(
    {
      command: `npm run bench:peers -- ${process.argv.slice(2).join(' ')}`.trim(),
      startedAt: started,
      machine: { cpus: cpus().length, model: cpus()[0]?.model, loadAverageAtStart: load },
      options: { websites, intervalSeconds, windowSeconds, runtime, systems, schemes },
      table: rowsOf(measurements),
      measurements,
    },
    null,
    2,
  )}\n`,
);
say(`written ${file}`);
