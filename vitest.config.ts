import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Integration files that measure time (a p99 under a flood, two medians within 20 %, a group
 * commit under 80 ms, a job started within 1 s of its slot, checks made inside a 12–15 s MongoDB
 * stall by websites checked every 10 s) or count a whole Redis server's commands (the search
 * index's SADDs): they run after the others, alone, so no other file's load or writes are in
 * their figures. (The stall files failed beside the browser journeys' files, whose Chromium
 * takes a core, and passed alone. Lighthouse's files run Chromium flat out for 40 s and judge a
 * deadline: alone too.)
 */
const ALONE = [
  'test/public-flood.test.ts',
  'test/sign-in-timing.test.ts',
  'test/db.test.ts',
  'test/check-schedule-timing.test.ts',
  'test/website-search.test.ts',
  'test/mongo-faults.test.ts',
  'test/monitor-mongo-stall.test.ts',
  'test/report-printer-thread.test.ts',
  'test/lighthouse.test.ts',
  'test/site-health-lighthouse.test.ts',
];

// Projects: unit tests beside the code (pure logic, no servers, seconds) and the integration tests
// in test/ (real FerretDB, Redis and local servers, started once by the global setup; each file
// works in a database and under a Redis key prefix of its own, and a file that stops or flushes a
// server starts its own). Two files at a time: most integration time is waiting (a node's expiry,
// a stall, a retry), so on 2 cores two files finish in about half the time of one after the other.
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    minWorkers: 1,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['libs/**/*.test.ts', 'apps/**/*.test.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ALONE],
          globalSetup: ['test/support/global-setup.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration-alone',
          include: ALONE,
          globalSetup: ['test/support/global-setup.ts'],
          poolOptions: { forks: { singleFork: true } },
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
