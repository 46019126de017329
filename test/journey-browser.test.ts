import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JourneyBrowser, processTreeMemory } from '../libs/journeys/journey-browser.js';
import { journeySettings } from '../libs/journeys/journey-options.schema.js';
import { createLogger } from '../libs/logging/index.js';
import { descendantsOf } from '../libs/runtime/index.js';
import { startTestShop, type TestShop } from './support/test-shop.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The chromium processes this test process started (the browser's main process is a child of ours). */
const chromiumPids = () =>
  [...descendantsOf(process.pid)].filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('chrom');
    } catch {
      return false;
    }
  });

describe('the journey browser: one per process, launched again when it dies or grows', {
  timeout: 120_000,
}, () => {
  let shop: TestShop;
  const guard = () => ({
    allowPrivateTargets: false,
    exemptAddresses: [{ address: '127.0.0.1', port: Number(new URL(shop.url).port) }],
    resolve: async (hostname: string): Promise<never> => {
      throw new Error(`no lookup expected (${hostname})`);
    },
  });
  const searchJourney = () =>
    journeySettings.parse({
      steps: [
        { action: 'goto', url: `${shop.url}/search` },
        { action: 'fill', locator: { by: 'label', text: 'Search products' }, value: 'cups' },
        { action: 'click', locator: { by: 'role', role: 'button', name: 'Search' } },
        { action: 'waitFor', until: 'text', text: 'Tea Cups' },
      ],
    });

  beforeAll(async () => {
    shop = await startTestShop();
  });
  afterAll(async () => {
    await shop?.close();
  });

  it('plays again on a fresh browser the run a SIGKILL broke, which then passes', async () => {
    const journeys = new JourneyBrowser({
      executablePath: CHROMIUM,
      concurrency: 2,
      logger: createLogger('test', 'silent'),
    });
    try {
      expect(
        (await journeys.run({ journey: searchJourney(), masks: [], deadlineMs: 30_000 }, guard())).passed,
      ).toBe(true);
      expect(journeys.launches).toBe(1);
      shop.searchDelayMs = 2000;
      const running = journeys.run({ journey: searchJourney(), masks: [], deadlineMs: 30_000 }, guard());
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const killed = chromiumPids();
      expect(killed.length).toBeGreaterThan(0);
      for (const pid of killed) process.kill(pid, 'SIGKILL');
      const done = await running;
      expect(done.passed, String(done.error)).toBe(true);
      expect(done.browserBroke).toBe(false);
      expect(journeys.launches).toBe(2);
    } finally {
      shop.searchDelayMs = 300;
      await journeys.close();
    }
  });

  it('gives a busy lane a fresh browser once the old one is over its memory bound, closing the old one after its runs', async () => {
    const journeys = new JourneyBrowser({
      executablePath: CHROMIUM,
      concurrency: 2,
      maxMemoryBytes: 1,
      logger: createLogger('test', 'silent'),
    });
    try {
      // Three at once for two slots: the lane is never idle, yet the third run gets a new browser.
      const runs = await Promise.all(
        [0, 1, 2].map(() =>
          journeys.run({ journey: searchJourney(), masks: [], deadlineMs: 30_000 }, guard()),
        ),
      );
      expect(runs.map((run) => run.passed)).toEqual([true, true, true]);
      expect(journeys.launches).toBeGreaterThanOrEqual(2);
    } finally {
      await journeys.close();
    }
    // Every browser it launched is gone: the retired ones closed after their runs, the last by close().
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(chromiumPids()).toEqual([]);
  });

  it('restarts a browser over its memory bound once its runs end, and measures it', async () => {
    const journeys = new JourneyBrowser({
      executablePath: CHROMIUM,
      concurrency: 1,
      // Any browser is over one byte: each run finds a fresh one.
      maxMemoryBytes: 1,
      logger: createLogger('test', 'silent'),
    });
    try {
      for (let i = 0; i < 2; i++)
        expect(
          (await journeys.run({ journey: searchJourney(), masks: [], deadlineMs: 30_000 }, guard())).passed,
        ).toBe(true);
      expect(journeys.launches).toBe(2);
      expect(await journeys.memoryBytes()).toBe(0);
      expect(processTreeMemory(process.pid)).toBeGreaterThan(10 * 1024 * 1024);
    } finally {
      await journeys.close();
    }
  });
});
