/**
 * The overview's live stream at `--streams` open tabs (100): the API as its own process on
 * throwaway FerretDB and Redis, that many `GET /api/dashboard/websites/stream` answers read at
 * once (as many browser tabs), and checks told on the workers' feed channel as a worker tells them
 * (`--rates` changes a second, each for `--seconds`). Each phase measures:
 *   - the API process's CPU (user + system, from /proc) per second of wall time;
 *   - the bytes each stream received per change (the SSE frame: id, event, data), and in all;
 *   - how long a change took from its publication to each stream (p50, p99);
 * first with no change at all (heartbeats only), then at each rate. A fifth of the streams belong
 * to another organization and get none of the changes (what the fan-out filters costs too).
 * Usage: npm run bench:overview-stream [-- --streams 100 --rates 10,50,200 --seconds 10 --runtime tsx]
 */
import { setMaxListeners } from 'node:events';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { Agent, request } from 'undici';
import { ApiTokenRepository, OrganizationRepository } from '../libs/auth/index.js';
import { type CheckFeedMessage, checkFeedChannel } from '../libs/monitoring/index.js';
import { startApiProcess } from './support/api-process.js';
import { parseRuntime } from './support/app-runtime.js';
import { withBenchDatabases } from './support/bench-databases.js';
import { cpuSecondsOf, percentile } from './support/process-stats.js';

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '100' },
    rates: { type: 'string', default: '10,50,200' },
    seconds: { type: 'string', default: '10' },
    runtime: { type: 'string', default: 'tsx' },
  },
});
const STREAMS = Number(values.streams);
const RATES = values.rates.split(',').map(Number);
const SECONDS = Number(values.seconds);
const PREFIX = `bench-stream${Date.now()}`;
const say = (message: string) => console.error(`[bench:overview-stream] ${message}`);

interface Reader {
  ours: boolean;
  bytes: number;
  changes: number;
  /** Publication → arrival of each change, ms. */
  delays: number[];
}

/** Reads one stream until the benchmark ends, counting its bytes and changes. */
async function readStream(
  url: string,
  token: string,
  reader: Reader,
  dispatcher: Agent,
  signal: AbortSignal,
) {
  const answer = await request(`${url}/api/dashboard/websites/stream`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    dispatcher,
    signal,
  });
  if (answer.statusCode !== 200) throw new Error(`stream refused: ${answer.statusCode}`);
  let buffered = '';
  try {
    for await (const chunk of answer.body) {
      const text = String(chunk);
      reader.bytes += Buffer.byteLength(text);
      buffered += text;
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (!block.includes('event: change') || !data) continue;
        reader.changes++;
        const sentAt = Date.parse((JSON.parse(data) as { check: { at: string } }).check.at);
        reader.delays.push(Date.now() - sentAt);
      }
    }
  } catch {
    // Aborted at the end.
  }
}

await withBenchDatabases('overview-stream', async (stack) => {
  const api = await startApiProcess(stack, {
    runtime: parseRuntime(values.runtime),
    env: { REDIS_KEY_PREFIX: PREFIX },
  });
  const mongo = await MongoClient.connect(stack.mongoUrl);
  const redis = new Redis(stack.redisUrl);
  const dispatcher = new Agent({ connections: STREAMS + 10 });
  const abort = new AbortController();
  // One signal ends every stream at the end: one listener each.
  setMaxListeners(STREAMS + 10, abort.signal);
  try {
    const db = mongo.db();
    const tokens = await Promise.all(
      ['bench', 'bystander'].map(async (name) => {
        const organization = await new OrganizationRepository(db).create(name);
        const { token } = await new ApiTokenRepository(db).create({
          organizationId: organization.id,
          name,
          scopes: ['read'],
        });
        return { organizationId: organization.id, token };
      }),
    );
    const [ours, bystander] = tokens as [(typeof tokens)[0], (typeof tokens)[0]];
    const readers: Reader[] = Array.from({ length: STREAMS }, (_, i) => ({
      ours: i % 5 !== 4,
      bytes: 0,
      changes: 0,
      delays: [],
    }));
    const reading = readers.map((reader) =>
      readStream(api.url, reader.ours ? ours.token : bystander.token, reader, dispatcher, abort.signal),
    );
    // Every stream has its first frame (retry) before the phases start.
    while (readers.some((reader) => reader.bytes === 0)) await new Promise((r) => setTimeout(r, 50));
    say(
      `${STREAMS} streams open (${readers.filter((r) => r.ours).length} of the organization whose websites change)`,
    );

    const phase = async (rate: number) => {
      for (const reader of readers) {
        reader.bytes = 0;
        reader.changes = 0;
        reader.delays = [];
      }
      const cpuBefore = cpuSecondsOf(api.pid);
      const started = performance.now();
      let sent = 0;
      while (performance.now() - started < SECONDS * 1000) {
        const due = rate === 0 ? 0 : Math.floor(((performance.now() - started) / 1000) * rate);
        for (; sent < due; sent++) {
          const message: CheckFeedMessage = {
            organizationId: ours.organizationId,
            customerId: 1,
            websiteId: 1 + (sent % 1000),
            at: Date.now(),
            check: sent % 10 === 0 ? 'down' : 'up',
            responseMs: 100 + (sent % 300),
            status: 'up',
          };
          await redis.publish(checkFeedChannel(PREFIX), JSON.stringify(message));
        }
        await new Promise((r) => setTimeout(r, 5));
      }
      // What was sent arrives before the figures are read (or 2 s pass).
      const end = performance.now();
      for (let waited = 0; waited < 2000; waited += 20) {
        if (readers.every((reader) => !reader.ours || reader.changes >= sent)) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const seconds = (end - started) / 1000;
      const cpuMsPerSecond = ((cpuSecondsOf(api.pid) - cpuBefore) * 1000) / seconds;
      const receiving = readers.filter((reader) => reader.ours);
      const delays = receiving.flatMap((reader) => reader.delays).sort((a, b) => a - b);
      const bytes = receiving.reduce((sum, reader) => sum + reader.bytes, 0);
      const received = receiving.reduce((sum, reader) => sum + reader.changes, 0);
      const leaked = readers
        .filter((reader) => !reader.ours)
        .reduce((sum, reader) => sum + reader.changes, 0);
      return {
        rate,
        sent,
        cpuMsPerSecond,
        bytesPerChange: received === 0 ? 0 : bytes / received,
        deliveredShare: sent === 0 ? 1 : received / (sent * receiving.length),
        p50: percentile(delays, 50),
        p99: percentile(delays, 99),
        kibPerSecond: readers.reduce((sum, reader) => sum + reader.bytes, 0) / 1024 / seconds,
        leaked,
      };
    };

    const rows = [];
    for (const rate of [0, ...RATES]) {
      const row = await phase(rate);
      rows.push(row);
      say(`${rate} changes/s: API CPU ${row.cpuMsPerSecond.toFixed(0)} ms/s`);
    }
    console.log(
      `\nThe overview's live stream: ${STREAMS} open streams (${readers.filter((r) => r.ours).length} of the organization whose websites change, the others of another), ${SECONDS} s a phase, the API as its own process (${values.runtime})\n`,
    );
    console.log(
      '| changes a second | API CPU (ms per s) | CPU per change | bytes per change and stream | delivered | change → stream p50 / p99 | sent to all streams | to the other organization |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const row of rows)
      console.log(
        `| ${row.rate === 0 ? '0 (heartbeats only)' : row.rate} | ${row.cpuMsPerSecond.toFixed(1)} | ${row.rate === 0 ? '—' : `${(row.cpuMsPerSecond / row.rate).toFixed(2)} ms`} | ${row.rate === 0 ? '—' : row.bytesPerChange.toFixed(0)} | ${(row.deliveredShare * 100).toFixed(1)} % | ${row.rate === 0 ? '—' : `${row.p50} / ${row.p99} ms`} | ${row.kibPerSecond.toFixed(1)} KiB/s | ${row.leaked} changes |`,
      );
    abort.abort();
    await Promise.allSettled(reading);
  } finally {
    abort.abort();
    await dispatcher.close().catch(() => undefined);
    redis.disconnect();
    await mongo.close();
  }
});
