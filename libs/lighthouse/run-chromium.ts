import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { errorMessage } from '../errors/index.js';
import { GUARDED_CHROMIUM_ARGS, type GuardProxy, guardedContextOptions } from '../journeys/index.js';
import { descendantsOf, lowerPriorityOfNewChildren } from '../runtime/index.js';

/** Where a run's guarding proxy listens and its credential: all Chromium needs of it (the proxy may run on another thread). */
export type ProxyAccess = Pick<GuardProxy, 'server' | 'username' | 'password'>;

/** As the journeys' browser: Chromium yields the cores to the checks' own event loop. */
const BROWSER_NICENESS = 10;
/** How long Chromium may take to start and answer. */
const LAUNCH_TIMEOUT_MS = 30_000;
/** How long a killed Chromium may take to be reaped. */
const EXIT_WAIT_MS = 5_000;

/** Chromium could not be started (not the site's failure). */
export class ChromiumLaunchError extends Error {
  override name = 'ChromiumLaunchError';
}

/**
 * One run's Chromium: Debian's (never a downloaded one), headless, in a fresh profile of its own
 * in a temporary directory, behind the run's guarding proxy for every request it makes, at a lower
 * CPU priority. Driven over a pipe, so no debugging port is open to other local processes.
 */
export class RunChromium {
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly browser: Browser,
    private readonly profile: string,
    /** The tab Lighthouse drives; it answers the proxy's credential request. */
    readonly page: Page,
  ) {}

  /**
   * Launches Chromium pointed at `proxy` browser-wide: documents, subresources, workers and
   * service workers alike go through it, and the guard's flags close the ways around it (no QUIC,
   * no WebRTC UDP, no name resolved by the browser). `userAgent` is the browser's own for every
   * request, those Lighthouse makes outside the page's emulation (robots.txt) included. `signal`
   * ends a launch under way.
   */
  static async launch(
    executablePath: string,
    proxy: ProxyAccess,
    userAgent: string,
    signal: AbortSignal,
  ): Promise<RunChromium> {
    const profile = await mkdtemp(join(tmpdir(), 'webmon-lighthouse-'));
    const settings = guardedContextOptions(proxy).proxy;
    const before = descendantsOf(process.pid);
    let browser: Browser;
    try {
      browser = await puppeteer.launch({
        executablePath,
        headless: true,
        pipe: true,
        userDataDir: profile,
        // Lighthouse sets the preset's screen itself.
        defaultViewport: null,
        // The worker's own signal handling closes runs; puppeteer's would race it.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: LAUNCH_TIMEOUT_MS,
        signal,
        args: [
          ...GUARDED_CHROMIUM_ARGS,
          `--proxy-server=${settings.server}`,
          `--proxy-bypass-list=${settings.bypass}`,
          `--user-agent=${userAgent}`,
          // Root in containers has no user namespaces for Chromium's sandbox.
          ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
        ],
      });
    } catch (error) {
      // Puppeteer kills a browser it started but could not reach (a launch ended by `signal` too),
      // without waiting for it: its helpers may still write to the profile while it goes.
      await removeProfile(profile);
      throw new ChromiumLaunchError(
        `chromium could not start (${executablePath}): ${errorMessage(error).split('\n')[0]}`,
      );
    }
    lowerPriorityOfNewChildren(before, BROWSER_NICENESS);
    const run = new RunChromium(browser, profile, (await browser.pages())[0] ?? (await browser.newPage()));
    try {
      await run.page.authenticate({ username: proxy.username, password: proxy.password });
      // Nothing a page offers is written to the worker's disk.
      const session = await browser.target().createCDPSession();
      await session.send('Browser.setDownloadBehavior', { behavior: 'deny' });
      return run;
    } catch (error) {
      await run.close();
      throw new ChromiumLaunchError(`chromium started but could not be set up: ${errorMessage(error)}`);
    }
  }

  /**
   * Kills every Chromium process of the run at once (its profile is thrown away, so nothing is
   * lost by not closing it gently; a hung browser is ended all the same), reaps it and removes its
   * profile. Lighthouse's calls under way fail with it.
   */
  close(): Promise<void> {
    this.closing ??= this.kill();
    return this.closing;
  }

  private async kill(): Promise<void> {
    const child = this.browser.process();
    const pid = child?.pid;
    if (child && pid !== undefined) {
      // Gathered before the kill: once the browser dies its children are no longer its descendants.
      const tree = [pid, ...descendantsOf(pid)];
      // Puppeteer starts Chromium as a process group's leader: the group holds its helpers too.
      killQuietly(-pid);
      for (const member of tree) killQuietly(member);
      if (child.exitCode === null && child.signalCode === null)
        await once(child, 'exit', { signal: AbortSignal.timeout(EXIT_WAIT_MS) }).catch(() => undefined);
    }
    await this.browser.disconnect().catch(() => undefined);
    await removeProfile(this.profile);
  }
}

/** How long a profile is watched after its removal, for a dying Chromium writing to it again. */
const PROFILE_SETTLE_MS = 3_000;

/**
 * Removes a run's profile, again while a Chromium that is going writes to it (removed, then looked
 * at a moment later, until it stays away or `PROFILE_SETTLE_MS` passed). Best effort past that: a
 * profile left behind is in the temporary directory, which the system clears.
 */
async function removeProfile(profile: string): Promise<void> {
  const until = Date.now() + PROFILE_SETTLE_MS;
  do {
    await rm(profile, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
  } while (existsSync(profile) && Date.now() < until);
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}
