import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { errorMessage } from '../errors/index.js';
import {
  type GuardProxy,
  type GuardProxyOptions,
  type GuardRefusal,
  startGuardProxy,
} from '../journeys/index.js';
import { ConcurrencyLimit, RequestThread } from '../runtime/index.js';
import type { LighthouseReport } from './bounded-report.js';
import type { LighthouseFigures, LighthousePreset } from './lighthouse.schema.js';
import type { LighthouseThreadAnswer, LighthouseThreadRequest } from './lighthouse.thread.js';
import { pageRefusal } from './page-refusal.js';

/** A run's HTML report past this is lightened, then left out (`LighthouseReport.note` says so). */
export const MAX_REPORT_BYTES = 10 * 1024 * 1024;
/** Lighthouse's own default for waiting on a page's load: never longer. */
const MAX_LOAD_WAIT_MS = 45_000;
/** The share of the deadline Lighthouse may wait for a page's load; the rest is for its audits. */
const LOAD_WAIT_SHARE = 0.75;

/**
 * How long Lighthouse may wait for the page's load within a run's deadline: whole milliseconds, as
 * timers take them (`AbortSignal.timeout` refuses 54999.25: a deadline of 59,999 ms failed a run).
 */
export const loadWaitOf = (deadlineMs: number): number =>
  Math.floor(Math.min(deadlineMs * LOAD_WAIT_SHARE, MAX_LOAD_WAIT_MS));
/**
 * A Lighthouse thread silent this long is stuck, and replaced: past any run's deadline (a check's
 * is 90 s) and the wait for the run before it to give up.
 */
const THREAD_SILENT_MS = 10 * 60_000;
/** The thread's entry, compiled as this file is (`.ts` from the sources, `.js` in builds). */
const LIGHTHOUSE_THREAD = new URL(
  `./lighthouse.thread${extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
);

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

/** The process's Lighthouse thread, started by its first run (Lighthouse is loaded there, not here). */
let thread: RequestThread<LighthouseThreadRequest, LighthouseThreadAnswer> | null = null;
const lighthouseThread = () => {
  thread ??= new RequestThread({
    entry: LIGHTHOUSE_THREAD,
    workerData: {},
    name: 'Lighthouse',
    answerTimeoutMs: THREAD_SILENT_MS,
    background: true,
  });
  return thread;
};

/**
 * Runs Lighthouse on a page with `preset`, in a Chromium of its own (fresh profile, killed after)
 * behind a guarding proxy of its own: every request the page makes is judged as an HTTP check's
 * is. The proxy runs here; Lighthouse and its Chromium are driven from a thread of their own at a
 * lower priority, so seconds of its audits' CPU never hold up this thread's checks. Runs wait
 * their turn (one at a time per process). Never throws for the site's or the browser's failures:
 * the outcome says them.
 *
 * Lighthouse waits for the page's load at most three quarters of the deadline (45 s at most, its
 * own default), then audits what there is and says so in a run warning: a slow page still gets
 * figures when the deadline leaves time for the audits (a minute does). Past the deadline, or on
 * `signal`, Chromium is killed and the run answers at once; the process's next run still waits
 * until the Lighthouse it ended has given up, so no two runs overlap.
 */
export function runLighthouse(
  input: LighthouseRunInput,
  options: LighthouseRunOptions,
): Promise<LighthouseRun> {
  const queued = performance.now();
  return lane.run(() => runNow(input, options, performance.now() - queued));
}

/**
 * Waits until no Lighthouse of this process is still at work, an ended run's included (it goes on
 * until it gives up): for a process stopping, or a test file ending before the next one runs in
 * the same process.
 */
export const lighthouseSettled = (): Promise<void> =>
  lane.run(async () => {
    await thread?.ask({ kind: 'settled' }).catch(() => undefined);
  });

/** A run: its proxy here, its audit on the Lighthouse thread. */
async function runNow(
  input: LighthouseRunInput,
  options: LighthouseRunOptions,
  waitedMs: number,
): Promise<LighthouseRun> {
  const started = performance.now();
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
  const { port1: cancel, port2: cancelled } = new MessageChannel();
  const onAbort = () => cancel.postMessage('cancel');
  input.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (input.signal?.aborted) {
      run.outcome = 'cancelled';
      run.error = 'the run was cancelled: Chromium was stopped';
      return run;
    }
    proxy = await startGuardProxy({ guard: options.guard });
    const answer = await lighthouseThread().ask(
      {
        kind: 'audit',
        audit: {
          url: input.url,
          preset: input.preset,
          deadlineMs: input.deadlineMs,
          loadWaitMs: loadWaitOf(input.deadlineMs),
          executablePath: options.executablePath,
          proxy: { server: proxy.server, username: proxy.username, password: proxy.password },
          userAgent: options.userAgent,
          maxReportBytes: options.maxReportBytes ?? MAX_REPORT_BYTES,
        },
        cancel: cancelled,
      },
      [cancelled],
    );
    if (answer) {
      const { launchMs, totalMs: _thread, ...outcome } = answer;
      Object.assign(run, outcome);
      run.timings.launchMs = launchMs;
    }
  } catch (error) {
    // The thread failed or went silent (it is replaced): not the site's failure, said as such.
    run.outcome = 'failed';
    run.error = `Lighthouse could not run: ${errorMessage(error).split('\n')[0]}`;
  } finally {
    input.signal?.removeEventListener('abort', onAbort);
    cancel.close();
    run.refusals = proxy?.refusals() ?? [];
    const refusal = run.outcome === 'failed' ? pageRefusal(input.url, run.refusals) : null;
    if (refusal) run.error = `the address guard refused the page: ${refusal.reason}`;
    await proxy?.close();
    run.timings.totalMs = Math.round(performance.now() - started);
  }
  return run;
}
