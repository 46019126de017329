import { readFileSync } from 'node:fs';
import { type Browser, type BrowserServer, chromium } from 'playwright-core';
import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import { ProbeUnavailableError } from '../probe/index.js';
import { ConcurrencyLimit, descendantsOf, lowerPriorityOfNewChildren } from '../runtime/index.js';
import { type GuardProxyOptions, startGuardProxy } from './guard-proxy.js';
import { guardedLaunchOptions } from './guard-proxy-chromium.js';
import { type JourneyRun, type JourneyRunInput, runJourney } from './journey-runner.js';

/** Chromium's processes run at this niceness: below the checks' own event loop (HTTP schedules). */
const BROWSER_NICENESS = 10;

export interface JourneyBrowserOptions {
  /** Debian's chromium (never a downloaded browser). */
  executablePath: string;
  /** Runs at once (`WORKER_BROWSER_CONCURRENCY`). */
  concurrency: number;
  /**
   * The browser's memory (its processes' proportional set size together) past which it is
   * restarted once its runs end. @defaultValue 1 GiB
   */
  maxMemoryBytes?: number;
  logger: Logger;
}

/** The browser broke twice for one run: not the site's failure; the check is not counted. */
export class BrowserUnavailableError extends ProbeUnavailableError {
  override name = 'BrowserUnavailableError';
}

/** Memory of a process and its descendants (PSS where the kernel tells it, else RSS), in bytes. */
export function processTreeMemory(root: number): number {
  let total = 0;
  for (const pid of [root, ...descendantsOf(root)]) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const kib = /^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? /^Rss:\s+(\d+) kB/m.exec(rollup)?.[1];
      total += Number(kib ?? 0) * 1024;
    } catch {
      // Gone meanwhile, or no /proc: counted as nothing.
    }
  }
  return total;
}

interface Launched {
  server: BrowserServer;
  browser: Browser;
}

/**
 * One Chromium per process for journeys: launched on the first run, each run in a fresh context
 * behind its own guarding proxy, `concurrency` at once. A browser that crashed (or was killed) is
 * launched again and the run it broke played once more; one over its memory bound is restarted
 * once its runs end. Chromium runs at a lower priority than the checks.
 */
export class JourneyBrowser {
  private readonly slots: ConcurrencyLimit;
  private launched: Promise<Launched> | null = null;
  private running = 0;
  private restartWhenIdle = false;
  private closed = false;
  /** Browsers launched so far (a metric; tests read it). */
  launches = 0;

  constructor(private readonly options: JourneyBrowserOptions) {
    this.slots = new ConcurrencyLimit(options.concurrency, { resource: 'the journey browser' });
  }

  /**
   * Plays a journey, every request judged by `guard` (the probe's, with the operator's
   * exemptions). A run the browser broke is played once more on a fresh browser; broken again,
   * `BrowserUnavailableError` (the site is not to blame).
   */
  run(input: JourneyRunInput, guard: GuardProxyOptions['guard']): Promise<JourneyRun> {
    return this.slots.run(async () => {
      const first = await this.runOnce(input, guard);
      if (!first.browserBroke) return first;
      this.options.logger.warn(
        'the journey browser broke under a run: launched again, the run played once more',
      );
      const second = await this.runOnce(input, guard);
      if (!second.browserBroke) return second;
      throw new BrowserUnavailableError(
        `the browser broke twice under this journey: ${second.error ?? 'no reason'}`,
      );
    });
  }

  private async runOnce(input: JourneyRunInput, guard: GuardProxyOptions['guard']): Promise<JourneyRun> {
    const { browser } = await this.browser();
    const proxy = await startGuardProxy({ guard });
    this.running++;
    try {
      const run = await runJourney(browser, proxy, input);
      if (run.browserBroke) this.forget(browser);
      return run;
    } finally {
      this.running--;
      await proxy.close();
      await this.afterRun();
    }
  }

  /** The browser, launched when none runs (or the last one died). */
  private browser(): Promise<Launched> {
    if (this.closed) return Promise.reject(new BrowserUnavailableError('the journey browser is shut down'));
    if (!this.launched) {
      const launching = this.launch();
      this.launched = launching;
      // A launch that failed is tried again by the next run.
      launching.catch(() => {
        if (this.launched === launching) this.launched = null;
      });
    }
    return this.launched;
  }

  private async launch(): Promise<Launched> {
    const before = descendantsOf(process.pid);
    const server = await chromium
      .launchServer(
        guardedLaunchOptions(
          this.options.executablePath,
          // Root in containers has no user namespaces for Chromium's sandbox.
          process.getuid?.() === 0 ? ['--no-sandbox'] : [],
        ),
      )
      .catch((error: unknown) => {
        throw new BrowserUnavailableError(
          `chromium could not start (${this.options.executablePath}): ${errorMessage(error).split('\n')[0]}`,
        );
      });
    lowerPriorityOfNewChildren(before, BROWSER_NICENESS);
    // A browser started but not reached is not left running.
    const browser = await chromium.connect(server.wsEndpoint()).catch(async (error: unknown) => {
      await server.close().catch(() => undefined);
      throw new BrowserUnavailableError(
        `chromium started but could not be reached: ${errorMessage(error).split('\n')[0]}`,
      );
    });
    this.launches++;
    const launched = { server, browser };
    browser.on('disconnected', () => this.forget(browser));
    return launched;
  }

  /** A browser that died or broke is not used again; the next run launches another. */
  private forget(browser: Browser): void {
    const current = this.launched;
    if (!current) return;
    void current.then(({ browser: known, server }) => {
      if (known !== browser || this.launched !== current) return;
      this.launched = null;
      void server.close().catch(() => undefined);
    });
  }

  /** Between runs: a browser over its memory bound is closed once idle (the next run launches another). */
  private async afterRun(): Promise<void> {
    const current = this.launched;
    if (!current) return;
    // Another run's launch under way (or failed): its own run looks at it.
    const launched = await current.catch(() => null);
    if (!launched) return;
    const { server, browser } = launched;
    const pid = server.process().pid;
    if (pid !== undefined && processTreeMemory(pid) > (this.options.maxMemoryBytes ?? 1024 ** 3))
      this.restartWhenIdle = true;
    if (!this.restartWhenIdle || this.running > 0) return;
    this.restartWhenIdle = false;
    this.options.logger.info('the journey browser is over its memory bound: launched again for the next run');
    if (this.launched === current) this.launched = null;
    await browser.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }

  /** The browser's processes' memory now (0 when none runs), for metrics. */
  async memoryBytes(): Promise<number> {
    const current = this.launched;
    if (!current) return 0;
    const pid = (await current).server.process().pid;
    return pid === undefined ? 0 : processTreeMemory(pid);
  }

  /** Closes the browser (SIGTERM of the worker); runs under way end with it. */
  async close(): Promise<void> {
    this.closed = true;
    const current = this.launched;
    this.launched = null;
    if (!current) return;
    const launched = await current.catch(() => null);
    await launched?.browser.close().catch(() => undefined);
    await launched?.server.close().catch(() => undefined);
  }
}
