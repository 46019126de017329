/**
 * Notifier benchmark: N events in the outbox, each going to C webhook channels on a local receiver,
 * one notifier process, real FerretDB + Redis. Prints deliveries/second, event-to-receipt latency
 * p50/p99 (from the event's createdAt to the receiver), notifier CPU seconds per 1,000 deliveries,
 * notifier RSS. Usage: npm run bench:notifier -- --events 2000 --channels 3
 * BENCH_NOTIFIER_CPU_PROF=<dir> makes the notifier write a V8 CPU profile (.cpuprofile) there.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { NotificationQueue } from '../libs/alerts/index.js';
import { channelSecretContext, EVENT_KINDS } from '../libs/notifications/index.js';
import { SecretBox } from '../libs/secrets/index.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { cpuTimesOf, percentile, rssMiBOf } from './support/process-stats.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '2000' },
    channels: { type: 'string', default: '3' },
    timeout: { type: 'string', default: '300' },
  },
});
const events = Number(values.events);
const channels = Number(values.channels);
const timeoutSeconds = Number(values.timeout);
if (![events, channels, timeoutSeconds].every((n) => Number.isInteger(n) && n > 0))
  throw new Error('--events, --channels and --timeout must be positive integers');

const say = (message: string) => console.log(`[bench] ${message}`);
const expected = events * channels;
const latencies: number[] = [];
let firstAt = 0;
let lastAt = 0;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const now = Date.now();
    const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { createdAt: string };
    latencies.push(now - Date.parse(payload.createdAt));
    firstAt ||= now;
    lastAt = now;
    res.end('{}');
  });
});

try {
  await withBenchDatabases('notifier', async ({ mongoUrl, redisUrl, owned }) => {
    receiver.listen(0, '127.0.0.1');
    await new Promise((resolve) => receiver.once('listening', resolve));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const prefix = `bench${Date.now()}`;
    const key = randomBytes(32);
    const box = new SecretBox(key);

    const mongo = new MongoClient(mongoUrl);
    await mongo.connect();
    const db = mongo.db();
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

    say('starting the notifier…');
    const profile = process.env.BENCH_NOTIFIER_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_NOTIFIER_CPU_PROF}`]
      : [];
    const notifier = owned(
      spawn(
        process.execPath,
        [
          ...profile,
          ...(process.env.MON ? ['--import', './tmp-mon.mjs'] : []),
          '--import',
          'tsx',
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
            LOG_LEVEL: 'warn',
          },
          stdio: ['ignore', 'inherit', 'inherit'],
        },
      ),
    );
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    // The notifier is ready when its workers wait on the delivery queue.
    const started = Date.now();
    const clients = async () => String(await redis.client('LIST'));
    while (!(await clients()).includes('notifier-jobs')) {
      if (Date.now() - started > 60_000) throw new Error('the notifier did not start within a minute');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const pid = notifier.pid as number;
    const cpuBefore = cpuTimesOf(pid);

    say(`writing and announcing ${events} events for ${channels} channel(s)…`);
    const queue = new NotificationQueue(redis, prefix);
    const ids = Array.from({ length: events }, () => randomUUID());
    const writeStarted = Date.now();
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
    say(
      `written in ${((Date.now() - writeStarted) / 1000).toFixed(1)} s; waiting for ${expected} deliveries…`,
    );
    const deadline = Date.now() + timeoutSeconds * 1000;
    while (latencies.length < expected && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const cpuAfter = cpuTimesOf(pid);
    const rss = rssMiBOf(pid);
    await queue.close();
    redis.disconnect();
    await mongo.close();

    const sorted = Float64Array.from(latencies).sort();
    const seconds = (lastAt - firstAt) / 1000;
    const cpu = cpuAfter.user + cpuAfter.system - (cpuBefore.user + cpuBefore.system);
    console.log('');
    console.log(`deliveries             ${latencies.length} of ${expected}`);
    console.log(`deliveries/s           ${(latencies.length / Math.max(seconds, 0.001)).toFixed(1)}`);
    console.log(
      `latency p50 / p99 ms   ${percentile(sorted, 50).toFixed(0)} / ${percentile(sorted, 99).toFixed(0)}`,
    );
    console.log(`notifier CPU / 1k      ${((cpu / Math.max(latencies.length, 1)) * 1000).toFixed(2)} s`);
    console.log(`notifier RSS MiB       ${rss.toFixed(0)}`);
    if (latencies.length < expected) process.exitCode = 1;
  });
} finally {
  receiver.close();
}
