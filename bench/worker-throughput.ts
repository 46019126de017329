/**
 * Worker benchmark: N websites on a local target farm, one worker process, real FerretDB + Redis.
 * Prints sustained checks/second, schedule lag p50/p99 (actual start − planned slot, exact from the
 * stored results: slots are the bucket's offset + k·interval), worker CPU seconds per 1,000 checks, worker RSS.
 * Usage: npm run bench:worker -- --websites 1000 --interval 10 --seconds 60 [--concurrency 200] [--warmup s]
 *   [--runtime tsx|dist]   (dist: the compiled worker of `npm run build`, as the Docker image runs it)
 *   [--udp-timeouts 500]   (that many UDP checks beside, one per website, each timing out after 5 s
 *   on a local socket that never answers: their lane saturated, the HTTP schedule's lag shows
 *   whether it is delayed by them)
 * BENCH_WORKER_CPU_PROF=<dir> makes the worker write a V8 CPU profile (.cpuprofile) there.
 */
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { type Db, MongoClient } from 'mongodb';
import { MonitorRepository, PROBE_KINDS, type ProbeCheckDocument } from '../libs/monitors/index.js';
import { cadenceOffsetMs } from '../libs/scheduler/index.js';
import { parseRuntime } from './support/app-runtime.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { seedWebsites, spawnBenchWorker } from './support/bench-worker.js';
import { commandsPer, cpuTimesOf, ferretMetrics, percentile, rssMiBOf } from './support/process-stats.js';

const { values } = parseArgs({
  options: {
    websites: { type: 'string', default: '1000' },
    interval: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '200' },
    warmup: { type: 'string' },
    runtime: { type: 'string', default: 'tsx' },
    'udp-timeouts': { type: 'string', default: '0' },
  },
});
const udpTimeouts = Number(values['udp-timeouts']);
const websites = Number(values.websites);
const intervalSeconds = Number(values.interval);
const measureSeconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
if (
  ![websites, intervalSeconds, measureSeconds, concurrency].every((n) => Number.isInteger(n) && n > 0) ||
  intervalSeconds < 10 ||
  !Number.isInteger(udpTimeouts) ||
  udpTimeouts < 0 ||
  udpTimeouts > websites
) {
  throw new Error(
    '--websites, --seconds, --concurrency must be positive integers, --interval at least 10, --udp-timeouts at most --websites',
  );
}

const runtime = parseRuntime(values.runtime);

const say = (message: string) => console.log(`[bench] ${message}`);

// A UDP port that takes every datagram and answers none: each check of it times out.
const silent = createSocket('udp4');
silent.on('message', () => undefined);

let farmHits = 0;
const farm = createServer((_req, res) => {
  farmHits++;
  res.end('<h1>Welcome</h1>');
});
try {
  await withBenchDatabases('worker', async (stack) => {
    const { mongoUrl, redisUrl } = stack;
    farm.listen(0, '127.0.0.1');
    await new Promise((resolve) => farm.once('listening', resolve));
    const farmUrl = `http://127.0.0.1:${(farm.address() as AddressInfo).port}`;
    const prefix = `bench${Date.now()}`;

    const mongo = new MongoClient(mongoUrl);
    await mongo.connect();
    const db = mongo.db();
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    await seedWebsites({
      db,
      redis,
      prefix,
      count: websites,
      intervalSeconds,
      urlOf: (id) => `${farmUrl}/site/${id}`,
      say,
    });
    if (udpTimeouts > 0) {
      silent.bind(0, '127.0.0.1');
      await once(silent, 'listening');
      await seedUdpChecks(db, udpTimeouts, intervalSeconds, silent.address().port);
      say(`${udpTimeouts} UDP checks seeded (timing out after 5 s each)`);
    }
    const worker = spawnBenchWorker(stack, { prefix, concurrency, runtime });
    // Two intervals, so every website has had its first slot before measuring.
    const warmupSeconds = values.warmup ? Number(values.warmup) : intervalSeconds * 2;
    say(
      `worker started (pid ${worker.pid}); warming up ${warmupSeconds} s, then measuring ${measureSeconds} s…`,
    );
    // How long a new worker takes to reach its schedule: the farm sees 95 % of the rate over 5 s.
    const spawnedAt = Date.now();
    const samples: number[] = [];
    let reachedAfter: number | undefined;
    while (Date.now() - spawnedAt < warmupSeconds * 1000) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      samples.push(farmHits);
      if (reachedAfter === undefined && samples.length > 5) {
        const rate = (samples.at(-1)! - samples.at(-6)!) / 5;
        if (rate >= (websites / intervalSeconds) * 0.95) reachedAfter = (Date.now() - spawnedAt) / 1000;
      }
    }
    say(
      reachedAfter === undefined
        ? `the worker had not reached its schedule's rate ${warmupSeconds} s after start`
        : `the worker reached its schedule's rate ${reachedAfter.toFixed(0)} s after start (5 s window included)`,
    );
    const windowStart = new Date();
    const cpuBefore = cpuTimesOf(worker.pid!);
    const ferretBefore = await ferretMetrics(stack.mongoMetricsUrl);
    await new Promise((resolve) => setTimeout(resolve, measureSeconds * 1000));
    const windowEnd = new Date();
    const cpuAfter = cpuTimesOf(worker.pid!);
    const ferretAfter = await ferretMetrics(stack.mongoMetricsUrl);
    const user = cpuAfter.user - cpuBefore.user;
    const system = cpuAfter.system - cpuBefore.system;
    const rss = rssMiBOf(worker.pid!);

    const results = await db
      .collection('check_results')
      .find(
        { startedAt: { $gte: windowStart, $lt: windowEnd } },
        { projection: { websiteId: 1, startedAt: 1, status: 1 } },
      )
      .toArray();
    const everyMs = intervalSeconds * 1000;
    const lags = results
      .map((r) => {
        const since = r.startedAt.getTime() - cadenceOffsetMs(r.websiteId as number, intervalSeconds * 1000);
        return ((since % everyMs) + everyMs) % everyMs;
      })
      .sort((a, b) => a - b);
    const down = results.filter((r) => r.status !== 'up').length;
    const needed = websites / intervalSeconds;
    console.log('');
    console.log(
      `websites ${websites}, interval ${intervalSeconds} s (needs ${needed.toFixed(1)} checks/s), concurrency ${concurrency}, window ${measureSeconds} s`,
    );
    console.log(
      `checks/s sustained     ${(results.length / measureSeconds).toFixed(1)}  (${results.length} results, ${down} not up)`,
    );
    console.log(
      `schedule lag ms        p50 ${percentile(lags, 50).toFixed(0)}  p99 ${percentile(lags, 99).toFixed(0)}`,
    );
    const perThousand = (seconds: number) => ((seconds / Math.max(1, results.length)) * 1000).toFixed(2);
    console.log(
      `worker CPU s/1k checks ${perThousand(user + system)}  (user ${perThousand(user)}, system ${perThousand(system)})`,
    );
    console.log(`worker RSS MiB         ${rss.toFixed(0)}`);
    if (ferretBefore && ferretAfter) {
      // Every check of the window, of any kind, with what it costs FerretDB (the bench's own reads after it excluded).
      const perCheck = commandsPer(ferretBefore.commands, ferretAfter.commands, results.length);
      const total = perCheck.reduce((sum, [, n]) => sum + n, 0);
      const all = commandsPer(ferretBefore.commands, ferretAfter.commands, measureSeconds);
      console.log(
        `FerretDB requests      ${total.toFixed(2)} per HTTP check stored: ${perCheck.map(([c, n]) => `${c} ${n.toFixed(2)}`).join(', ')}; ${all.reduce((sum, [, n]) => sum + n, 0).toFixed(1)}/s in all`,
      );
      const waits = ferretAfter.sqlWaits - ferretBefore.sqlWaits;
      console.log(
        `FerretDB CPU           ${((ferretAfter.cpuSeconds - ferretBefore.cpuSeconds) / measureSeconds).toFixed(2)} cores; ${waits} waits for a SQLite connection, ${(ferretAfter.sqlWaitSeconds - ferretBefore.sqlWaitSeconds).toFixed(1)} s in all`,
      );
    }
    if (udpTimeouts > 0) {
      const udp = await db
        .collection('monitor_log')
        .countDocuments({ kind: 'udp', at: { $gte: windowStart, $lt: windowEnd } });
      console.log(
        `UDP checks made        ${udp} (${(udp / measureSeconds).toFixed(1)}/s; ${(udpTimeouts / intervalSeconds).toFixed(1)}/s due, each 5 s)`,
      );
      // Whether HTTP checks missing are those of websites with a UDP check (their lock shared) or any.
      const withUdp = results.filter((r) => (r.websiteId as number) <= udpTimeouts).length;
      const expected = (measureSeconds / intervalSeconds) * udpTimeouts;
      console.log(
        `HTTP checks made       ${withUdp} of ~${expected} on websites with a UDP check, ${results.length - withUdp} of ~${(measureSeconds / intervalSeconds) * (websites - udpTimeouts)} on the others`,
      );
    }
    redis.disconnect();
    await mongo.close();
  });
} finally {
  farm.close();
  silent.close();
}

/** One UDP check on each of the first `count` websites, as the API would store it. */
async function seedUdpChecks(db: Db, count: number, intervalSeconds: number, port: number): Promise<void> {
  const repository = new MonitorRepository(db);
  for (let websiteId = 1; websiteId <= count; websiteId++)
    await repository.create<ProbeCheckDocument>({
      kind: 'udp',
      organizationId: 1,
      websiteId,
      name: `silent ${websiteId}`,
      settings: PROBE_KINDS.udp.settings.parse({ host: '127.0.0.1', port, payload: 'PING' }),
      intervalSeconds,
      timeoutSeconds: 5,
    });
}
