/**
 * Worker benchmark: N websites on a local target farm, one worker process, real FerretDB + Redis.
 * Prints sustained checks/second, schedule lag p50/p99 (actual start − planned slot, exact from the
 * stored results: slots are offset + k·interval), worker CPU seconds per 1,000 checks, worker RSS.
 * Usage: npm run bench:worker -- --websites 1000 --interval 10 --seconds 60 [--concurrency 200] [--warmup s]
 * BENCH_WORKER_CPU_PROF=<dir> makes the worker write a V8 CPU profile (.cpuprofile) there.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { createPackageBody } from '../libs/packages/index.js';
import { CheckScheduler, spreadOffsetMs } from '../libs/scheduler/index.js';
import { defaultCheckConfig, WEBSITE_DEFAULTS, websiteKey } from '../libs/websites/index.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { cpuTimesOf, percentile, rssMiBOf } from './support/process-stats.js';

const { values } = parseArgs({
  options: {
    websites: { type: 'string', default: '1000' },
    interval: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '200' },
    warmup: { type: 'string' },
  },
});
const websites = Number(values.websites);
const intervalSeconds = Number(values.interval);
const measureSeconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
if (
  ![websites, intervalSeconds, measureSeconds, concurrency].every((n) => Number.isInteger(n) && n > 0) ||
  intervalSeconds < 10
) {
  throw new Error(
    '--websites, --seconds, --concurrency must be positive integers and --interval at least 10',
  );
}

const say = (message: string) => console.log(`[bench] ${message}`);

const farm = createServer((_req, res) => res.end('<h1>Welcome</h1>'));
try {
  await withBenchDatabases('worker', async ({ mongoUrl, redisUrl, owned }) => {
    farm.listen(0, '127.0.0.1');
    await new Promise((resolve) => farm.once('listening', resolve));
    const farmUrl = `http://127.0.0.1:${(farm.address() as AddressInfo).port}`;
    const prefix = `bench${Date.now()}`;

    say(`seeding ${websites} websites…`);
    const mongo = new MongoClient(mongoUrl);
    await mongo.connect();
    const db = mongo.db();
    const now = new Date();
    const organizationId = 1;
    const pkg = createPackageBody.parse({
      key: 'bench',
      displayName: 'Bench',
      limits: { maxWebsites: websites, minCheckIntervalSeconds: 10, resultRetentionDays: 1 },
    });
    await db
      .collection('packages')
      .insertOne({ id: 1, organizationId, ...pkg, createdAt: now, updatedAt: now });
    await db.collection('customers').insertOne({
      id: 1,
      organizationId,
      name: 'Bench',
      email: null,
      notificationEmail: null,
      packageId: 1,
      status: 'active',
      cancellationDate: null,
      createdAt: now,
      updatedAt: now,
    });
    for (let start = 1; start <= websites; start += 5000) {
      const batch = [];
      for (let id = start; id < Math.min(start + 5000, websites + 1); id++) {
        const url = `${farmUrl}/site/${id}`;
        batch.push({
          _id: websiteKey(id),
          id,
          publicId: randomUUID(),
          organizationId,
          customerId: 1,
          name: `site ${id}`,
          url,
          ...WEBSITE_DEFAULTS,
          customHeaders: [],
          regions: [],
          mtlsClientKey: null,
          checkInterval: intervalSeconds,
          timeoutSeconds: Math.min(30, intervalSeconds - 1),
          checkConfig: {
            ...defaultCheckConfig(url, () => true),
            checkKeywordEnabled: true,
            keyword: 'Welcome',
          },
          scheduledRegions: ['local'],
          createdAt: now,
          updatedAt: now,
        });
      }
      await db.collection<{ _id: string }>('websites').insertMany(batch);
    }
    await db.collection('websites').createIndex({ id: 1 }, { unique: true, name: 'id_unique' });
    await db
      .collection('websites')
      .createIndex({ organizationId: 1, customerId: 1, id: 1 }, { name: 'organization_customer' });

    say('creating schedulers…');
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    const scheduler = new CheckScheduler(redis, prefix);
    const scheduleStarted = Date.now();
    let next = 1;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next <= websites) {
          const websiteId = next++;
          await scheduler.apply({
            websiteId,
            organizationId,
            intervalSeconds,
            regions: ['local'],
            previousRegions: [],
            firstCheck: { where: 'none' },
          });
        }
      }),
    );
    say(`schedulers created in ${((Date.now() - scheduleStarted) / 1000).toFixed(1)} s`);
    await scheduler.close();

    const secretsKey = randomBytes(32).toString('base64');
    // BENCH_WORKER_CPU_PROF=<dir>: the worker writes a V8 CPU profile there when it stops.
    const profile = process.env.BENCH_WORKER_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WORKER_CPU_PROF}`]
      : [];
    const worker = owned(
      spawn(process.execPath, [...profile, '--import', 'tsx', 'apps/worker/main.ts'], {
        env: {
          ...process.env,
          MONGODB_URL: mongoUrl,
          REDIS_URL: redisUrl,
          REDIS_KEY_PREFIX: prefix,
          SECRETS_KEY: secretsKey,
          ALLOW_PRIVATE_TARGETS: 'true',
          NODE_PUBLIC_IP: '203.0.113.50',
          NODE_ID: 'bench',
          WORKER_CONCURRENCY: String(concurrency),
          LOG_LEVEL: process.env.BENCH_WORKER_LOGS || 'warn',
        },
        stdio: ['ignore', process.env.BENCH_WORKER_LOGS ? 'inherit' : 'ignore', 'inherit'],
      }),
    );
    // Two intervals, so every website has had its first slot before measuring.
    const warmupSeconds = values.warmup ? Number(values.warmup) : intervalSeconds * 2;
    say(
      `worker started (pid ${worker.pid}); warming up ${warmupSeconds} s, then measuring ${measureSeconds} s…`,
    );
    await new Promise((resolve) => setTimeout(resolve, warmupSeconds * 1000));
    const windowStart = new Date();
    const cpuBefore = cpuTimesOf(worker.pid!);
    await new Promise((resolve) => setTimeout(resolve, measureSeconds * 1000));
    const windowEnd = new Date();
    const cpuAfter = cpuTimesOf(worker.pid!);
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
        const since = r.startedAt.getTime() - spreadOffsetMs(r.websiteId as number, everyMs);
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
    redis.disconnect();
    await mongo.close();
  });
} finally {
  farm.close();
}
