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
  /** Runs playing on it now: a browser retired is closed when they end. */
  runs: number;
  /** Over its memory bound: new runs go to a fresh browser, this one closes after its own. */
  retired: boolean;
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
    const launched = await this.browser();
    // Counted at once: a retired browser is never closed under a run about to start on it.
    launched.runs++;
    try {
      const proxy = await startGuardProxy({ guard });
      try {
        const run = await runJourney(launched.browser, proxy, input);
        if (run.browserBroke) this.forget(launched.browser);
        return run;
      } finally {
        await proxy.close();
      }
    } finally {
      launched.runs--;
      await this.afterRun(launched);
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
    const launched: Launched = { server, browser, runs: 0, retired: false };
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

  /**
   * After a run: a browser over its memory bound is retired (the next run launches a fresh one,
   * however busy the lane) and closed once its own runs end.
   */
  private async afterRun(launched: Launched): Promise<void> {
    const pid = launched.server.process().pid;
    if (
      !launched.retired &&
      pid !== undefined &&
      processTreeMemory(pid) > (this.options.maxMemoryBytes ?? 1024 ** 3)
    ) {
      launched.retired = true;
      const current = this.launched;
      if (current && (await current.catch(() => null)) === launched && this.launched === current)
        this.launched = null;
      this.options.logger.info('the journey browser is over its memory bound: the next runs get a fresh one');
    }
    if (!launched.retired || launched.runs > 0) return;
    await launched.browser.close().catch(() => undefined);
    await launched.server.close().catch(() => undefined);
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
