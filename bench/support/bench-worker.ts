import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from 'mongodb';
import type { CheckConfig } from '../../libs/checks/index.js';
import { createPackageBody } from '../../libs/packages/index.js';
import type { Redis } from '../../libs/redis/index.js';
import { CheckScheduler } from '../../libs/scheduler/index.js';
import { defaultCheckConfig, WEBSITE_DEFAULTS, websiteKey } from '../../libs/websites/index.js';
import { type AppRuntime, appEntry } from './app-runtime.js';
import type { BenchStack } from './bench-databases.js';

/**
 * Seeds one organization, package and customer with `count` websites (ids 1…count) checked from
 * region `local` every `intervalSeconds`, the status, keyword ("Welcome") and response-time checks
 * on, and creates their schedulers: what the API would have stored, without its cost.
 */
export async function seedWebsites(options: {
  db: Db;
  redis: Redis;
  prefix: string;
  count: number;
  intervalSeconds: number;
  urlOf: (id: number) => string;
  say: (message: string) => void;
}): Promise<void> {
  const { db, count, intervalSeconds } = options;
  const now = new Date();
  const organizationId = 1;
  const pkg = createPackageBody.parse({
    key: 'bench',
    displayName: 'Bench',
    limits: { maxWebsites: count, minCheckIntervalSeconds: 10, resultRetentionDays: 1 },
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
  options.say(`seeding ${count} websites…`);
  for (let start = 1; start <= count; start += 5000) {
    const batch = [];
    for (let id = start; id < Math.min(start + 5000, count + 1); id++) {
      const url = options.urlOf(id);
      const checkConfig: CheckConfig = {
        ...defaultCheckConfig(url, () => true),
        checkKeywordEnabled: true,
        keyword: 'Welcome',
      };
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
        checkConfig,
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

  options.say('creating schedulers…');
  const scheduler = new CheckScheduler(options.redis, options.prefix);
  const started = Date.now();
  let next = 1;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next <= count) {
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
  options.say(`schedulers created in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await scheduler.close();
}

/** Starts one worker process of region `local` on the benchmark's databases; it is stopped with them. */
export function spawnBenchWorker(
  stack: BenchStack,
  options: { prefix: string; concurrency: number; runtime: AppRuntime; env?: Record<string, string> },
): ChildProcess {
  // BENCH_WORKER_CPU_PROF=<dir>: the worker writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_WORKER_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WORKER_CPU_PROF}`]
    : [];
  const entry = appEntry('worker', options.runtime);
  return stack.owned(
    spawn(process.execPath, [...profile, ...entry], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        MONGODB_URL: stack.mongoUrl,
        REDIS_URL: stack.redisUrl,
        REDIS_KEY_PREFIX: options.prefix,
        SECRETS_KEY: randomBytes(32).toString('base64'),
        ALLOW_PRIVATE_TARGETS: 'true',
        NODE_PUBLIC_IP: '203.0.113.50',
        NODE_ID: 'bench',
        WORKER_CONCURRENCY: String(options.concurrency),
        LOG_LEVEL: process.env.BENCH_WORKER_LOGS || 'warn',
        ...options.env,
      },
      stdio: ['ignore', process.env.BENCH_WORKER_LOGS ? 'inherit' : 'ignore', 'inherit'],
    }),
  );
}
