/**
 * "Who is on call" lookup benchmark (issue 45 asks under 1 ms): a Europe/Berlin schedule of 3
 * layers × 8 people (weekly, daily and 12-hour turns, the later ones starting and ending within the
 * year, so each layer wins some of the time) with 50 overrides, asked at random instants across
 * the year and both daylight-saving changes. Prints the time of one lookup (mean, p50, p99) for:
 *   - who is on call (whoIsOnCallAt): what the escalation engine asks at each step
 *   - now, until when and who is next (nextHandoff): what GET /api/schedules/{id}/on-call answers
 * In-process and in memory, warm: the API's lookup adds one schedule read by primary key and one user read.
 * Usage: npm run bench:oncall [-- --lookups 20000]
 */
import { parseArgs } from 'node:util';
import { nextHandoff, type Override, type Schedule, whoIsOnCallAt } from '../libs/oncall/index.js';
import { percentile } from './support/process-stats.js';

const { values } = parseArgs({ options: { lookups: { type: 'string', default: '20000' } } });
const lookups = Number(values.lookups);
if (!(Number.isInteger(lookups) && lookups > 0)) throw new Error('--lookups must be a positive whole number');

const DAY_MS = 86_400_000;
const YEAR_START = Date.parse('2026-01-01T00:00:00Z');
/** A fixed sequence (a linear congruential generator): every run asks the same instants. */
let seed = 45;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const people = (first: number) => Array.from({ length: 8 }, (_, i) => first + i);

const schedule: Schedule = {
  timezone: 'Europe/Berlin',
  layers: [
    {
      participants: people(1),
      rotation: { length: 'weekly', handoff: '09:00', startsAt: new Date('2025-12-29T08:00:00Z') },
    },
    {
      participants: people(11),
      rotation: {
        length: 'daily',
        handoff: '18:00',
        startsAt: new Date('2026-03-01T17:00:00Z'),
        endsAt: new Date('2026-09-30T16:00:00Z'),
      },
    },
    {
      participants: people(21),
      rotation: {
        length: { hours: 12 },
        handoff: '07:30',
        startsAt: new Date('2026-06-01T05:30:00Z'),
        endsAt: new Date('2026-08-15T05:30:00Z'),
      },
    },
  ],
};
const overrides: Override[] = Array.from({ length: 50 }, (_, i) => {
  const from = YEAR_START + Math.floor(random() * 360) * DAY_MS + Math.floor(random() * 24) * 3_600_000;
  return {
    id: i + 1,
    userId: 31 + (i % 8),
    from: new Date(from),
    to: new Date(from + (1 + random() * 47) * 3_600_000),
  };
});
const instants = Array.from({ length: lookups }, () => new Date(YEAR_START + random() * 365 * DAY_MS));

/**
 * Runs `lookup` at each instant and answers each call's time in ms, after a first pass over the
 * same instants: a running API has compiled the code and knows its zone's offsets for the days it
 * is asked about (a day's first lookup asks Intl, a few microseconds; what is measured is the rest).
 */
function timed(count: number, lookup: (at: Date) => unknown): number[] {
  for (const at of instants.slice(0, count)) lookup(at);
  const times: number[] = [];
  for (const at of instants.slice(0, count)) {
    const start = performance.now();
    lookup(at);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

const row = (name: string, times: number[]) => {
  const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
  const p99 = percentile(times, 99);
  const micro = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  console.log(
    `${name.padEnd(34)} ${String(times.length).padStart(6)} lookups  mean ${micro(mean).padStart(9)}  p50 ${micro(percentile(times, 50)).padStart(9)}  p99 ${micro(p99).padStart(9)}  ${p99 < 1 ? 'under 1 ms' : 'OVER 1 ms'}`,
  );
};

console.log(
  'schedule: Europe/Berlin, 3 layers × 8 people (weekly, daily, 12 h), 50 overrides; instants across 2026',
);
row(
  'who is on call (whoIsOnCallAt)',
  timed(lookups, (at) => whoIsOnCallAt(schedule, overrides, at)),
);
row(
  'now, until and next (nextHandoff)',
  timed(Math.ceil(lookups / 10), (at) => nextHandoff(schedule, overrides, at)),
);
