/**
 * An incident update mailed to a status page's `--subscribers` confirmed e-mail subscribers (10,000
 * by default) through a local SMTP server, the notifier stopped halfway and a new one started:
 * once with SIGTERM (a graceful stop hands the mailing over: each subscriber mailed once) and once
 * with SIGKILL (the mails in flight when it died, at most the notifier's 8 at once, may be sent
 * again). FerretDB and Redis throwaway (or MONGODB_URL / REDIS_URL), the API and each notifier
 * their own processes through tsx; the subscribers stored directly as confirmed ones, the incident
 * posted over the API (POST /api/status-pages/{id}/incidents).
 * Prints per run: the time from the post to every subscriber mailed, mails received, unique
 * recipients, duplicates, missing, mails/s, and the stop's and the take-over's times.
 * Usage: npm run bench:subscribers [-- --subscribers 10000 --signals SIGTERM,SIGKILL --stops 1 --timeout 300]
 *        (--stops 2: stopped at a third and at two thirds, each time replaced)
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { Pool } from 'undici';
import { SecretBox } from '../libs/secrets/index.js';
import { NOTICES_QUEUE, SubscriberRepository, subscriberId } from '../libs/status-subscriptions/index.js';
import { benchOrganization, sendJson } from './support/api-client.js';
import { startApiProcess } from './support/api-process.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { startNotifierProcess, stopProcess } from './support/notifier-process.js';
import { startSmtpSink } from './support/smtp-sink.js';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '10000' },
    signals: { type: 'string', default: 'SIGTERM,SIGKILL' },
    timeout: { type: 'string', default: '300' },
    stops: { type: 'string', default: '1' },
  },
});
const subscribers = Number(values.subscribers);
const timeoutMs = Number(values.timeout) * 1000;
const stopCount = Number(values.stops);
const signals = (values.signals ?? '').split(',') as Array<'SIGTERM' | 'SIGKILL'>;
if (!(Number.isInteger(subscribers) && subscribers >= 100 && timeoutMs > 0 && Number.isInteger(stopCount)))
  throw new Error('--subscribers must be a whole number of at least 100, --timeout and --stops positive');
if (!signals.every((signal) => signal === 'SIGTERM' || signal === 'SIGKILL'))
  throw new Error('--signals takes SIGTERM and/or SIGKILL');

const say = (message: string) => console.log(`[bench] ${message}`);
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Subscribers stored at once (each a replaceOne upsert, as a confirmation leaves it). */
const SAVES_AT_ONCE = 16;

interface StopFigures {
  /** Subscribers mailed when the notifier had exited. */
  atStop: number;
  /** From the signal to the notifier's exit (ms). */
  stopMs: number;
  exit: string;
  exitedAt: number;
  totalAtStop: number;
  /** From the old notifier's exit to the new one ready (its start through tsx, s). */
  readySeconds: number;
  /** From the old notifier's exit to the first mail the new one sent (s). */
  takeOverSeconds: number | null;
  /** The mailing's BullMQ job as it changed state after the exit: [state, s after the exit]. */
  job: Array<[string, number]>;
}

interface RunFigures {
  signal: string;
  /** From the incident's POST to the last subscriber's first mail (s). */
  allDeliveredSeconds: number | null;
  received: number;
  unique: number;
  duplicates: number;
  missing: number;
  stops: StopFigures[];
  noticeState: string;
  noticeSent: number;
  /** The page's subscribers read in batches of 500 as a mailing reads them, afterwards: [batches, s, slowest s]. */
  reads: [number, number, number];
  load: string;
}

const sink = await startSmtpSink();
const figures: RunFigures[] = [];
try {
  await withBenchDatabases('subscribers', async (stack) => {
    const secretsKey = randomBytes(32);
    const shared = {
      REDIS_KEY_PREFIX: `bench${Date.now()}`,
      SECRETS_KEY: secretsKey.toString('base64'),
      PUBLIC_URL: 'http://status.bench.test',
      SMTP_URL: sink.url,
    };
    const api = await startApiProcess(stack, { runtime: 'tsx', env: shared });
    const mongo = new MongoClient(stack.mongoUrl);
    await mongo.connect();
    const db = mongo.db();
    const { organizationId, token, heartbeat } = await benchOrganization(db);
    const pool = new Pool(api.url, { connections: 4 });
    const box = new SecretBox(secretsKey);
    const redis = new Redis(stack.redisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue(NOTICES_QUEUE, { connection: redis, prefix: shared.REDIS_KEY_PREFIX });
    const repository = new SubscriberRepository(db);
    try {
      const pkg = await sendJson(pool, {
        method: 'POST',
        path: '/api/packages',
        token,
        body: { key: 'bench', displayName: 'Bench', limits: { maxWebsites: 10 } },
        expected: 201,
      });
      const customer = await sendJson(pool, {
        method: 'POST',
        path: '/api/customers',
        token,
        body: { name: 'Bench', packageId: pkg.id, email: 'ops@example.com' },
        expected: 201,
      });
      await sendJson(pool, {
        method: 'POST',
        path: '/api/websites',
        token,
        body: { customerId: customer.id, name: 'Shop', url: 'https://shop.example.com/', paused: true },
        expected: 201,
      });
      say(`the API on ${api.url}, SMTP sink ${sink.url}; load ${load()}`);

      for (const signal of signals) {
        const tag = signal === 'SIGTERM' ? 'term' : 'kill';
        const page = await sendJson(pool, {
          method: 'POST',
          path: '/api/status-pages',
          token,
          body: { slug: `bench-${tag}`, title: `Bench ${tag}`, customerId: customer.id, public: true },
          expected: 201,
        });
        const emails = Array.from({ length: subscribers }, (_, n) => `${tag}-${n}@subscribers.bench.test`);
        const saveStarted = performance.now();
        let next = 0;
        await Promise.all(
          Array.from({ length: SAVES_AT_ONCE }, async () => {
            while (next < emails.length) {
              const email = emails[next++] as string;
              const id = subscriberId(page.id, email);
              const now = new Date();
              await repository.save({
                _id: id,
                organizationId,
                pageId: page.id,
                email,
                components: null,
                chosenComponents: null,
                state: 'confirmed',
                confirmDigest: null,
                confirmExpiresAt: null,
                confirmationsSent: 1,
                unsubscribeToken: box.seal(
                  randomBytes(24).toString('base64url'),
                  // The subscriber's sealed token's context (subscriber.repository.ts).
                  `status-subscriber:${id}:unsubscribe`,
                ),
                createdAt: now,
                confirmedAt: now,
              });
            }
          }),
        );
        say(
          `${signal}: ${subscribers} confirmed subscribers stored in ${((performance.now() - saveStarted) / 1000).toFixed(1)} s`,
        );
        let notifier: ChildProcess = await startNotifierProcess(stack, shared);
        // Only this run's subscribers are mailed from here on (the last run's notice is done).
        sink.received.clear();
        const mailed = () => sink.received.size;
        const postedAt = Date.now();
        const incident = await sendJson(pool, {
          method: 'POST',
          path: `/api/status-pages/${page.id}/incidents`,
          token,
          body: {
            title: 'Checkout errors',
            components: [],
            status: 'investigating',
            message: 'We look into **failed payments** at checkout.',
          },
          expected: 201,
        });
        say(`${signal}: incident ${incident.id} posted; load ${load()}`);
        const stops: StopFigures[] = [];
        let stored: { _id: string } | null = null;
        while (!stored) {
          stored = await db
            .collection<{ _id: string }>('status_page_notices')
            .findOne({ _id: { $regex: `^post:${incident.id}:` } as never });
          if (!stored) await sleep(50);
        }
        const jobId = `notice-${stored._id.replaceAll(':', '-')}`;
        let polledAt = 0;
        // Waits until `done`, noting when the latest replacement sent its first mail and its job's states.
        const until = async (done: () => boolean, what: string) => {
          while (!done()) {
            const last = stops.at(-1);
            if (last && last.takeOverSeconds === null && sink.total() > last.totalAtStop)
              last.takeOverSeconds = (Date.now() - last.exitedAt) / 1000;
            if (last && last.takeOverSeconds === null && Date.now() - polledAt > 200) {
              polledAt = Date.now();
              const state = await queue.getJobState(jobId);
              if (last.job.at(-1)?.[0] !== state) last.job.push([state, (Date.now() - last.exitedAt) / 1000]);
            }
            if (Date.now() - postedAt > timeoutMs) throw new Error(`${signal}: ${what} not mailed in time`);
            await sleep(10);
          }
        };
        for (let stop = 1; stop <= stopCount; stop++) {
          const share = stop / (stopCount + 1);
          await until(() => mailed() >= subscribers * share, `${Math.round(share * 100)} %`);
          const atSignal = mailed();
          const stopped = await stopProcess(notifier, signal);
          const atStop = mailed();
          say(
            `${signal}: sent with ${atSignal} mailed, the notifier exited after ${stopped.ms.toFixed(0)} ms (${stopped.exit}) with ${atStop} mailed; a new one starts`,
          );
          const exitedAt = Date.now();
          notifier = await startNotifierProcess(stack, shared);
          stops.push({
            atStop,
            stopMs: stopped.ms,
            exit: stopped.exit,
            exitedAt,
            totalAtStop: sink.total(),
            readySeconds: (Date.now() - exitedAt) / 1000,
            takeOverSeconds: null,
            job: [[await queue.getJobState(jobId), (Date.now() - exitedAt) / 1000]],
          });
        }
        let allAt = 0;
        try {
          await until(() => mailed() === subscribers, 'everyone');
          allAt = sink.lastAt();
        } catch (error) {
          say(String(error));
        }
        // Late repeats, if any, still arrive: the notice is finished in MongoDB first.
        const noticeId = `post:${incident.id}:`;
        for (let waited = 0; waited < 30_000; waited += 250) {
          const found = await db
            .collection<{ _id: string; state: string }>('status_page_notices')
            .findOne({ _id: { $regex: `^${noticeId}` } as never });
          if (found?.state === 'done') break;
          await sleep(250);
        }
        await sleep(2_000);
        const notice = await db
          .collection<{ _id: string; state: string; sent: number }>('status_page_notices')
          .findOne({ _id: { $regex: `^${noticeId}` } as never });
        const readTimes: number[] = [];
        for (let after: string | undefined; ; ) {
          const readStarted = performance.now();
          const batch = await repository.page(organizationId, page.id, {
            state: 'confirmed',
            limit: 500,
            ...(after ? { afterId: after } : {}),
          });
          readTimes.push((performance.now() - readStarted) / 1000);
          if (batch.length < 500) break;
          after = batch.at(-1)?._id;
        }
        const counts = emails.map((email) => sink.received.get(email) ?? 0);
        const received = counts.reduce((sum, n) => sum + n, 0);
        const unique = counts.filter((n) => n > 0).length;
        figures.push({
          signal,
          allDeliveredSeconds: allAt ? (allAt - postedAt) / 1000 : null,
          received,
          unique,
          duplicates: received - unique,
          missing: subscribers - unique,
          stops,
          noticeState: notice?.state ?? 'absent',
          noticeSent: notice?.sent ?? 0,
          reads: [readTimes.length, readTimes.reduce((sum, t) => sum + t, 0), Math.max(...readTimes)],
          load: load(),
        });
        if (notice) say(`${signal}: notice ${notice._id} ${notice.state}, sent ${notice.sent}`);
        await stopProcess(notifier, 'SIGTERM');
      }
    } finally {
      await pool.close();
      await queue.close();
      redis.disconnect();
      await heartbeat.stop();
      await mongo.close();
    }
  });
} finally {
  await sink.close();
}

console.log('');
console.log(
  `${subscribers} confirmed subscribers, one incident post, the notifier stopped ${stopCount} time(s) and replaced (Node ${process.version}, ${availableParallelism()} cores)`,
);
console.log(
  'signal    all mailed s   received   unique   duplicates   missing   mails/s   notice        load after',
);
for (const f of figures) {
  console.log(
    [
      f.signal.padEnd(8),
      (f.allDeliveredSeconds?.toFixed(1) ?? 'never').padStart(12),
      String(f.received).padStart(10),
      String(f.unique).padStart(8),
      String(f.duplicates).padStart(12),
      String(f.missing).padStart(9),
      (f.allDeliveredSeconds ? f.unique / f.allDeliveredSeconds : Number.NaN).toFixed(0).padStart(9),
      `  ${f.noticeState} ${f.noticeSent}`.padEnd(14),
      f.load,
    ].join(' '),
  );
  for (const [n, stop] of f.stops.entries())
    console.log(
      `  stop ${n + 1}: ${stop.atStop} mailed when it exited, ${stop.stopMs.toFixed(0)} ms after the signal (${stop.exit}); the new notifier ready ${stop.readySeconds.toFixed(1)} s after, its first mail ${stop.takeOverSeconds?.toFixed(1) ?? '—'} s after; the job ${stop.job.map(([state, at]) => `${state} at ${at.toFixed(1)} s`).join(', ')}`,
    );
  console.log(
    `  the page's subscribers read afterwards in batches of 500, as the mailing reads them: ${f.reads[0]} reads in ${f.reads[1].toFixed(1)} s (slowest ${f.reads[2].toFixed(2)} s)`,
  );
}
if (figures.some((f) => f.missing > 0 || (f.signal === 'SIGTERM' && f.duplicates > 0))) process.exitCode = 1;
