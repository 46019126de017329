import type { Flags } from 'lighthouse';
import { errorMessage } from '../errors/index.js';
import {
  type GuardProxy,
  type GuardProxyOptions,
  type GuardRefusal,
  startGuardProxy,
} from '../journeys/index.js';
import { untilAborted } from '../probe/index.js';
import { ConcurrencyLimit } from '../runtime/index.js';
import { boundedReport, type LighthouseReport } from './bounded-report.js';
import type { LighthouseFigures, LighthousePreset } from './lighthouse.schema.js';
import { lighthouseFigures } from './lighthouse-figures.js';
import { pageRefusal } from './page-refusal.js';
import { RunChromium } from './run-chromium.js';

/** A run's HTML report past this is lightened, then left out (`LighthouseReport.note` says so). */
export const MAX_REPORT_BYTES = 10 * 1024 * 1024;
/** Lighthouse's own defaults for waiting on a page's load and first paint: never longer. */
const MAX_LOAD_WAIT_MS = 45_000;
/** The share of the deadline Lighthouse may wait for a page's load; the rest is for its audits. */
const LOAD_WAIT_SHARE = 0.75;
const MAX_FCP_WAIT_MS = 30_000;
/** Once Chromium is killed, how long Lighthouse may take to give up, past the end of its load wait. */
const SETTLE_MS = 10_000;

export interface LighthouseRunInput {
  /** The page, `http:` or `https:`. */
  url: string;
  preset: LighthousePreset;
  /**
   * For the whole run once its turn comes (Chromium's start, the page's load, the audits): past
   * it Chromium is killed and the run's outcome is `deadline`.
   */
  deadlineMs: number;
  /** Cancels the run (Chromium killed, outcome `cancelled`). */
  signal?: AbortSignal;
}

export interface LighthouseRunOptions {
  /** Debian's chromium (never a downloaded browser). */
  executablePath: string;
  /** The probe's guard with the website's exemptions: every request of the page is judged by it. */
  guard: GuardProxyOptions['guard'];
  /**
   * Our user agent (`ProbeOptions.userAgent`, "webmon/…"), added after the preset's own (a phone's
   * or a desktop's Chrome, which Lighthouse emulates): the site can tell our runs from visitors.
   */
  userAgent: string;
  /** @defaultValue MAX_REPORT_BYTES */
  maxReportBytes?: number;
}

export interface LighthouseRun {
  url: string;
  preset: LighthousePreset;
  /**
   * `completed`: scored; `failed`: Lighthouse could not audit the page (its runtime error, e.g. the
   * page refused by the guard or no paint) or Chromium could not run; `deadline` and `cancelled`:
   * ended by the deadline or the signal, Chromium killed.
   */
  outcome: 'completed' | 'failed' | 'deadline' | 'cancelled';
  /** Why the run did not complete, in words; null when it did. */
  error: string | null;
  /** What Lighthouse measured; null when it gave no result (also for a failed one it did give). */
  figures: LighthouseFigures | null;
  report: LighthouseReport;
  /** What the guard refused the page (never reached). */
  refusals: GuardRefusal[];
  timings: {
    /** Waiting for the process's previous run to end. */
    waitedMs: number;
    /** Until Chromium answered (on a process's first run, loading Lighthouse too). */
    launchMs: number;
    /** The run in all, from its turn (waiting excluded). */
    totalMs: number;
  };
}

/**
 * One Lighthouse run at a time in a process: Lighthouse keeps process-wide state (its log's timing
 * marks collide between runs) and its lab figures drift when runs compete for the CPU. More runs
 * at once means more worker processes.
 */
const lane = new ConcurrencyLimit(1, { resource: 'Lighthouse' });

/**
 * Runs Lighthouse on a page with `preset`, in a Chromium of its own (fresh profile, killed after)
 * behind a guarding proxy of its own: every request the page makes is judged as an HTTP check's
 * is. Runs wait their turn (one at a time per process). Never throws for the site's or the
 * browser's failures: the outcome says them.
 *
 * Lighthouse waits for the page's load at most three quarters of the deadline (45 s at most, its
 * own default), then audits what there is and says so in a run warning: a slow page still gets
 * figures when the deadline leaves time for the audits (a minute does). Past the
 * deadline, or on `signal`, Chromium is killed and the run answers at once; the process's next run
 * still waits until the Lighthouse it ended has given up (its calls fail with Chromium, its load
 * wait ends), so no two runs overlap.
 */
export function runLighthouse(
  input: LighthouseRunInput,
  options: LighthouseRunOptions,
): Promise<LighthouseRun> {
  const queued = performance.now();
  return new Promise((answer, fail) => {
    lane
      .run(async () => {
        const loadWaitMs = Math.min(input.deadlineMs * LOAD_WAIT_SHARE, MAX_LOAD_WAIT_MS);
        const { run, audit } = await runNow(input, options, loadWaitMs, performance.now() - queued);
        answer(run);
        if (audit)
          await untilAborted(audit, AbortSignal.timeout(loadWaitMs + SETTLE_MS)).catch(() => undefined);
      })
      // Only a fault of this module's own could get here: the caller hears of it rather than waiting.
      .catch(fail);
  });
}

/**
 * Waits until no Lighthouse of this process is still at work, an ended run's included (it goes on
 * until it gives up): for a process stopping, or a test file ending before the next one runs in
 * the same process.
 */
export const lighthouseSettled = (): Promise<void> => lane.run(async () => undefined);

/** A run, and the Lighthouse call it made (settled or not) when it made one. */
async function runNow(
  input: LighthouseRunInput,
  options: LighthouseRunOptions,
  loadWaitMs: number,
  waitedMs: number,
): Promise<{ run: LighthouseRun; audit: Promise<unknown> | null }> {
  const started = performance.now();
  const deadline = AbortSignal.timeout(input.deadlineMs);
  const stop = input.signal ? AbortSignal.any([deadline, input.signal]) : deadline;
  const run: LighthouseRun = {
    url: input.url,
    preset: input.preset,
    outcome: 'failed',
    error: null,
    figures: null,
    report: { html: null, bytes: 0, note: 'no report: the run gave no result' },
    refusals: [],
    timings: { waitedMs: Math.round(waitedMs), launchMs: 0, totalMs: 0 },
  };
  let proxy: GuardProxy | null = null;
  let chromium: RunChromium | null = null;
  let audit: Promise<unknown> | null = null;
  try {
    if (!/^https?:$/.test(new URL(input.url).protocol)) throw new Error(`not an http(s) URL: ${input.url}`);
    // Loaded by the first run only: importing this library does not load Lighthouse.
    const [{ default: lighthouse, desktopConfig, generateReport }, { userAgents }] = await untilAborted(
      Promise.all([import('lighthouse'), import('lighthouse/core/config/constants.js')]),
      stop,
    );
    proxy = await startGuardProxy({ guard: options.guard });
    const userAgent = `${userAgents[input.preset]} ${options.userAgent}`;
    chromium = await RunChromium.launch(options.executablePath, proxy, userAgent, stop);
    run.timings.launchMs = Math.round(performance.now() - started);
    const flags: Flags = {
      logLevel: 'silent',
      output: 'html',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      maxWaitForLoad: loadWaitMs,
      maxWaitForFcp: Math.min(loadWaitMs, MAX_FCP_WAIT_MS),
      emulatedUserAgent: userAgent,
    };
    const running = lighthouse(
      input.url,
      flags,
      input.preset === 'desktop' ? desktopConfig : undefined,
      chromium.page,
    );
    audit = running;
    const result = await untilAborted(running, stop);
    if (!result) throw new Error('Lighthouse gave no result');
    run.figures = lighthouseFigures(result.lhr);
    const html = typeof result.report === 'string' ? result.report : (result.report[0] ?? '');
    run.report = boundedReport(
      html,
      () => generateReport({ ...result.lhr, fullPageScreenshot: undefined }, 'html'),
      options.maxReportBytes ?? MAX_REPORT_BYTES,
    );
    const failure = run.figures.runtimeError;
    run.outcome = failure ? 'failed' : 'completed';
    run.error = failure ? `${failure.code}: ${failure.message}` : null;
  } catch (error) {
    run.outcome = deadline.aborted ? 'deadline' : stop.aborted ? 'cancelled' : 'failed';
    run.error =
      run.outcome === 'deadline'
        ? `the run passed its ${input.deadlineMs} ms deadline: Chromium was stopped`
        : run.outcome === 'cancelled'
          ? 'the run was cancelled: Chromium was stopped'
          : errorMessage(error).split('\n')[0] || 'Lighthouse failed';
  } finally {
    await chromium?.close();
    run.refusals = proxy?.refusals() ?? [];
    const refusal = run.outcome === 'failed' ? pageRefusal(input.url, run.refusals) : null;
    if (refusal) run.error = `the address guard refused the page: ${refusal.reason}`;
    await proxy?.close();
    run.timings.totalMs = Math.round(performance.now() - started);
  }
  return { run, audit };
}
