/**
 * Notifier benchmark: one notifier process on real FerretDB + Redis, every delivery to a local
 * receiver; a scenario stores channels (and what else the notifier reads) and writes events to the
 * outbox as the worker does:
 *   - plain (default): N events, each to C webhook channels.
 *   - incidents (issue 45): websites failing at once and a stream of failures and recoveries
 *     through dependencies, grouping, templates and escalation (bench/support/incident-scenario.ts).
 * Prints events/s written, deliveries/s received, the queue-to-send latency (the event's createdAt,
 * or when a grouped message or an escalation step was due, to the receiver) p50/p95/p99 per kind of
 * delivery, the notifier's CPU seconds per 1,000 deliveries and peak RSS, FerretDB's and Redis's
 * CPU, the machine's load average at the start and the end, and whether p99 is under 5 s.
 * Usage: npm run bench:notifier [-- --events 2000 --channels 3]
 *        npm run bench:notifier -- --scenario incidents [--events 10000 --burst 1000 --seconds 60 --customers 50]
 * `--timeout` bounds the wait for the deliveries after the last event is written (seconds).
 * BENCH_NOTIFIER_CPU_PROF=<dir> makes the notifier write a V8 CPU profile (.cpuprofile) there;
 * BENCH_COMMAND_CENSUS=<file> writes there the notifier's MongoDB commands by shape, with their time.
 * BENCH_NOTIFIER_LOG_LEVEL=info lets the notifier log each dispatch and delivery (warn by default).
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { type Db, MongoClient } from 'mongodb';
import { NotificationQueue } from '../libs/alerts/index.js';
import { findFreePort } from '../libs/embedded/index.js';
import { channelSecretContext, EVENT_KINDS } from '../libs/notifications/index.js';
import { SecretBox } from '../libs/secrets/index.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { DeliveryReceipts, type DeliveryScenario } from './support/delivery-receipts.js';
import { incidentScenario } from './support/incident-scenario.js';
import { commandsPer, cpuSecondsOf, ferretMetrics, percentile, rssMiBOf } from './support/process-stats.js';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'plain' },
    events: { type: 'string' },
    channels: { type: 'string', default: '3' },
    burst: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '60' },
    customers: { type: 'string', default: '50' },
    timeout: { type: 'string' },
  },
});
const incidents = values.scenario === 'incidents';
if (!incidents && values.scenario !== 'plain') throw new Error('--scenario must be plain or incidents');
const numbers = {
  events: Number(values.events ?? (incidents ? 10_000 : 2000)),
  channels: Number(values.channels),
  burst: Number(values.burst),
  seconds: Number(values.seconds),
  customers: Number(values.customers),
  timeout: Number(values.timeout ?? (incidents ? 120 : 300)),
};
for (const [name, n] of Object.entries(numbers))
  if (!(Number.isInteger(n) && n > 0)) throw new Error(`--${name} must be a positive whole number`);

const say = (message: string) => console.log(`[bench] ${message}`);
const P99_BOUND_MS = 5000;
const WEBHOOK = 'webhook';

/** N events of website 1 in the outbox, each going to every one of C webhook channels. */
function plainScenario(db: Db, redis: Redis, prefix: string, box: SecretBox): DeliveryScenario {
  const { events, channels } = numbers;
  return {
    label: `plain: ${events} events, each to ${channels} webhook channel(s)`,
    env: {},
    async seed(receiverUrl) {
      const now = new Date();
      await db.collection('notification_channels').insertMany(
        Array.from({ length: channels }, (_, index) => {
          const id = index + 1;
          return {
            id,
            organizationId: 1,
            type: 'webhook',
            name: `bench ${id}`,
            enabled: true,
            events: [...EVENT_KINDS],
            scope: { customerId: null, listedOnly: false },
            config: { url: `${receiverUrl}/hook/${id}` },
            secrets: {
              secret: box.seal(
                `whsec_${randomBytes(32).toString('base64')}`,
                channelSecretContext(id, 'secret'),
              ),
            },
            createdAt: now,
            updatedAt: now,
          };
        }),
      );
    },
    async write() {
      const queue = new NotificationQueue(redis, prefix);
      const ids = Array.from({ length: events }, () => randomUUID());
      const started = Date.now();
      for (let start = 0; start < events; start += 500) {
        const batch = ids.slice(start, start + 500);
        await db.collection<{ _id: string }>('events').insertMany(
          // As the worker writes them: the id is the primary key too.
          batch.map((id) => ({
            _id: id,
            id,
            organizationId: 1,
            websiteId: 1,
            type: 'website.down',
            createdAt: new Date(),
            data: { website: null, previousStatus: 'up', status: 'down', incident: id, result: null },
            deliveredAt: null,
          })),
        );
        await Promise.all(batch.map((id) => queue.announce(id)));
      }
      await queue.close();
      return { events, seconds: (Date.now() - started) / 1000 };
    },
    classify: ({ path, body }) => {
      const payload = JSON.parse(body) as { id: string; createdAt: string };
      return { kind: WEBHOOK, from: Date.parse(payload.createdAt), key: `${path}:${payload.id}` };
    },
    kinds: () => [{ kind: WEBHOOK, expected: events * channels }],
    complete: (receipts) => receipts.count(WEBHOOK) >= events * channels,
  };
}

const loads = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const ms = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(0)).padStart(8);
const cpuOf = (pid: number | undefined) => (pid === undefined ? Number.NaN : cpuSecondsOf(pid));

let receipts: DeliveryReceipts | undefined;
try {
  await withBenchDatabases('notifier', async ({ mongoUrl, redisUrl, owned, pids, mongoMetricsUrl }) => {
    const prefix = `bench${Date.now()}`;
    const key = randomBytes(32);
    const box = new SecretBox(key);
    const mongo = new MongoClient(mongoUrl);
    await mongo.connect();
    const db = mongo.db();
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    const scenario = incidents
      ? incidentScenario({ db, redis, prefix, box, ...numbers, say })
      : plainScenario(db, redis, prefix, box);
    const receiver = new DeliveryReceipts((request) => scenario.classify(request));
    receipts = receiver;
    await scenario.seed(await receiver.start());

    say('starting the notifier…');
    // Its ops server starts once its workers run: /readyz answering is when it is ready.
    const opsPort = await findFreePort();
    const profile = process.env.BENCH_NOTIFIER_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_NOTIFIER_CPU_PROF}`]
      : [];
    const notifier = owned(
      spawn(
        process.execPath,
        [
          ...profile,
          '--import',
          'tsx',
          // After tsx, which loads it.
          ...(process.env.BENCH_COMMAND_CENSUS ? ['--import', './bench/support/command-census.ts'] : []),
          'apps/notifier/main.ts',
        ],
        {
          env: {
            ...process.env,
            MONGODB_URL: mongoUrl,
            REDIS_URL: redisUrl,
            REDIS_KEY_PREFIX: prefix,
            SECRETS_KEY: key.toString('base64'),
            ALLOW_PRIVATE_TARGETS: 'true',
            LOG_LEVEL: process.env.BENCH_NOTIFIER_LOG_LEVEL ?? 'warn',
            METRICS_PORT: String(opsPort),
            ...scenario.env,
          },
          stdio: ['ignore', 'inherit', 'inherit'],
        },
      ),
    );
    // Ready when its ops server answers, which it starts after its indexes, its stores and its
    // workers. (Its Redis connections open before its indexes are made: events written as they
    // appeared waited 9 s at full size for a notifier still starting, and counted it as latency.)
    const started = Date.now();
    const ready = () =>
      fetch(`http://127.0.0.1:${opsPort}/readyz`).then(
        (answer) => answer.ok,
        () => false,
      );
    while (!(await ready())) {
      if (Date.now() - started > 120_000) throw new Error('the notifier did not start within 2 minutes');
      await sleep(200);
    }
    await sleep(1000);
    const pid = notifier.pid as number;
    const loadAtStart = loads();
    const cpuBefore = { notifier: cpuOf(pid), ferret: cpuOf(pids.mongo), redis: cpuOf(pids.redis) };
    const ferretBefore = await ferretMetrics(mongoMetricsUrl);
    let peakRss = rssMiBOf(pid);
    const sampling = setInterval(() => {
      peakRss = Math.max(peakRss, rssMiBOf(pid));
    }, 500);

    say(`${scenario.label}: writing…`);
    const written = await scenario.write();
    say(`${written.events} events written in ${written.seconds.toFixed(1)} s; waiting for the deliveries…`);
    const deadline = Date.now() + numbers.timeout * 1000;
    while (!scenario.complete(receiver) && Date.now() < deadline) await sleep(250);
    // Stragglers (deliveries nobody counts on, duplicates) have 2 quiet seconds to arrive.
    for (let total = -1; total !== receiver.total && Date.now() < deadline; await sleep(2000))
      total = receiver.total;
    clearInterval(sampling);
    const cpu = {
      notifier: cpuOf(pid) - cpuBefore.notifier,
      ferret: cpuOf(pids.mongo) - cpuBefore.ferret,
      redis: cpuOf(pids.redis) - cpuBefore.redis,
    };
    const ferretAfter = await ferretMetrics(mongoMetricsUrl);
    // Marked in batches every 2 s: about how far the notifier got through the outbox.
    const dispatched = await db.collection('events').countDocuments({ deliveredAt: { $ne: null } });
    const loadAtEnd = loads();
    // Read while the stores are still open.
    const diagnosis = (await scenario.diagnose?.()) ?? [];
    redis.disconnect();
    await mongo.close();

    const kinds = scenario.kinds();
    const seconds = Math.max((receiver.lastAt - receiver.firstAt) / 1000, 0.001);
    const all = receiver.allLatencies();
    const p99 = percentile(all, 99);
    console.log('');
    console.log(`scenario                ${scenario.label}`);
    console.log(`load average at start   ${loadAtStart}`);
    console.log(
      `events written          ${written.events} in ${written.seconds.toFixed(1)} s (${(written.events / written.seconds).toFixed(1)}/s)`,
    );
    console.log(
      `deliveries              ${receiver.total} in ${seconds.toFixed(1)} s (${(receiver.total / seconds).toFixed(1)}/s), ${receiver.duplicates()} duplicates, ${receiver.unclassified} not recognised`,
    );
    console.log(`events dispatched       ${dispatched} of ${written.events} by the end`);
    console.log('');
    console.log(
      `${'kind'.padEnd(48)}${'received'.padStart(9)}${'expected'.padStart(9)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'max ms'.padStart(8)}${'dup'.padStart(5)}`,
    );
    for (const row of receiver.figures(kinds.map((k) => k.kind))) {
      const expected = kinds.find((k) => k.kind === row.kind)?.expected;
      console.log(
        `${row.kind.padEnd(48)}${String(row.count).padStart(9)}${String(expected ?? '-').padStart(9)}${ms(row.p50)}${ms(row.p95)}${ms(row.p99)}${ms(row.max)}${String(row.duplicates).padStart(5)}`,
      );
    }
    console.log(
      `${'all deliveries'.padEnd(48)}${String(all.length).padStart(9)}${'-'.padStart(9)}${ms(percentile(all, 50))}${ms(percentile(all, 95))}${ms(p99)}${ms(all[all.length - 1] ?? Number.NaN)}`,
    );
    console.log('');
    // Due against delivered, 10 s at a time: whether the lag is a burst's or the whole run's.
    console.log(
      `${'seconds'.padEnd(10)}${'due'.padStart(7)}${'arrived'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}`,
    );
    for (const row of receiver.windows(10_000))
      console.log(
        `${`${row.fromSecond}–${row.fromSecond + 10}`.padEnd(10)}${String(row.due).padStart(7)}${String(row.arrived).padStart(9)}${ms(row.p50)}${ms(row.p99)}`,
      );
    console.log('');
    for (const line of scenario.notes?.(receiver) ?? []) console.log(line);
    for (const line of diagnosis) console.log(line);
    console.log(
      `p99 < 5 s               ${p99 < P99_BOUND_MS ? 'yes' : 'no'} (${(p99 / 1000).toFixed(2)} s)`,
    );
    console.log(
      `notifier CPU / 1k       ${((cpu.notifier / Math.max(receiver.total, 1)) * 1000).toFixed(2)} s (${cpu.notifier.toFixed(1)} s in all)`,
    );
    console.log(`notifier peak RSS MiB   ${peakRss.toFixed(0)}`);
    console.log(`FerretDB / Redis CPU    ${cpu.ferret.toFixed(1)} s / ${cpu.redis.toFixed(1)} s`);
    if (ferretBefore && ferretAfter) {
      // What each delivery received cost FerretDB, the bench's own writes of the events included.
      const perDelivery = commandsPer(ferretBefore.commands, ferretAfter.commands, receiver.total);
      console.log(
        `FerretDB requests       ${perDelivery.reduce((sum, [, n]) => sum + n, 0).toFixed(1)} per delivery: ${perDelivery
          .slice(0, 10)
          .map(([command, n]) => `${command} ${n.toFixed(2)}`)
          .join(', ')}; ${ferretAfter.sqlWaits - ferretBefore.sqlWaits} waits for a SQLite connection`,
      );
    }
    console.log(`load average at end     ${loadAtEnd}`);
    if (!scenario.complete(receiver)) {
      console.log('not every expected delivery arrived before the timeout');
      process.exitCode = 1;
    }
  });
} finally {
  receipts?.close();
}
