/**
 * What the result rollups add to a check: a worker's RollupRecorder given the results of one flush
 * period (websites × checks each), then its flush timed against a throwaway FerretDB, where every
 * rollup document already exists and is full — a day of hours, a month of days, the most a bucket
 * holds (the steady state: each upsert updates a document of that size). Prints the flush's
 * duration, the CPU of FerretDB and of this process over it, and both per 1,000 checks.
 * Usage: npm run bench:rollups -- [--websites 1000] [--interval 10]   (a flush every 10 minutes)
 */
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { ensureIndexes } from '../libs/db/index.js';
import { createLogger } from '../libs/logging/index.js';
import {
  ROLLUP_FLUSH_MS,
  RollupRecorder,
  RollupRepository,
  rollupIndexes,
  WEBSITE_ROLLUPS,
} from '../libs/monitoring/index.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { cpuSecondsOf } from './support/process-stats.js';

const { values } = parseArgs({
  options: { websites: { type: 'string', default: '1000' }, interval: { type: 'string', default: '10' } },
});
const websites = Number(values.websites);
const intervalSeconds = Number(values.interval);
if (![websites, intervalSeconds].every((n) => Number.isInteger(n) && n > 0))
  throw new Error('--websites and --interval must be positive integers');
const checksPerWebsite = Math.round(ROLLUP_FLUSH_MS / 1000 / intervalSeconds);
const checks = websites * checksPerWebsite;

await withBenchDatabases('rollups', async (stack) => {
  const client = new MongoClient(stack.mongoUrl);
  await client.connect();
  const db = client.db();
  await ensureIndexes(db, [rollupIndexes]);
  const recorder = new RollupRecorder(new RollupRepository(db), {
    logger: createLogger('bench', 'warn'),
    mongo: { available: true, onLost: () => () => undefined },
    flushEveryMs: 24 * 3_600_000,
  });
  const addPeriod = () => {
    const at = new Date();
    for (let n = 0; n < checksPerWebsite; n++)
      for (let websiteId = 1; websiteId <= websites; websiteId++)
        recorder.add({
          organizationId: 1,
          websiteId,
          region: 'local',
          startedAt: at,
          status: 'up',
          timings: { total: 12 },
        });
  };
  // The first flush creates the documents, filled with three months of cells; the second is what
  // every later one costs.
  addPeriod();
  await recorder.flush();
  // Each document as full as it gets: a day of hours, a month of days.
  const cell = {
    checks: 60,
    up: 60,
    degraded: 0,
    down: 0,
    responseMsSum: 720,
    responseMsCount: 60,
    responseMsMax: 12,
  };
  const fullOf = (count: number, first: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, n) => [String(first + n).padStart(2, '0'), cell]));
  for (const document of await db.collection(WEBSITE_ROLLUPS).find({}).toArray()) {
    const hours = String(document._id).includes(':hour:');
    const cells = { ...fullOf(hours ? 24 : 31, hours ? 0 : 1), ...document.cells };
    await db.collection(WEBSITE_ROLLUPS).updateOne({ _id: document._id }, { $set: { cells } });
  }
  addPeriod();
  const ferretBefore = stack.pids.mongo ? cpuSecondsOf(stack.pids.mongo) : Number.NaN;
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  await recorder.flush();
  const seconds = (performance.now() - started) / 1000;
  const own = process.cpuUsage(ownBefore);
  const ownSeconds = (own.user + own.system) / 1e6;
  const ferretSeconds = stack.pids.mongo ? cpuSecondsOf(stack.pids.mongo) - ferretBefore : Number.NaN;
  const documents = await db.collection(WEBSITE_ROLLUPS).countDocuments();
  await recorder.close();
  await client.close();
  const perThousand = (cpu: number) => ((cpu / checks) * 1000).toFixed(3);
  console.log(
    `\n${websites} websites every ${intervalSeconds} s: a flush every ${ROLLUP_FLUSH_MS / 60_000} min covers ${checks} checks and writes ${websites * 2} upserts (${documents} rollup documents)`,
  );
  console.log(`flush duration        ${seconds.toFixed(2)} s`);
  console.log(
    `FerretDB CPU          ${ferretSeconds.toFixed(2)} s  (${perThousand(ferretSeconds)} s per 1k checks)`,
  );
  console.log(
    `worker-side CPU       ${ownSeconds.toFixed(2)} s  (${perThousand(ownSeconds)} s per 1k checks)`,
  );
});
