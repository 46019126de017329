import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, devices, type Page } from 'playwright-core';
import { errorMessage } from '../errors/index.js';
import type { GuardProxy, GuardRefusal } from './guard-proxy.js';
import { guardedContextOptions } from './guard-proxy-chromium.js';
import { playStep, StepFailed, type TakenScreenshot } from './journey-actions.js';
import { type BrowserJourney, PLAYWRIGHT_DEVICES } from './journey-options.schema.js';
import { journeyOrigin, sendExtraHeadersToOrigin } from './journey-origin.js';
import {
  type FailedRequest,
  type JourneyRun,
  newRun,
  overrun,
  type RunProgress,
  type StepOutcome,
  stepCause,
} from './journey-run.js';
import { DEFAULT_STEP_TIMEOUT_MS } from './journey-steps.schema.js';
import { maskSecrets } from './placeholders.js';
import { keptTrace } from './trace-masking.js';
import { type PageVitals, readVitals, VITALS_GLOBAL, VITALS_INIT_SCRIPT } from './web-vitals.js';

export type {
  FailedRequest,
  JourneyFailure,
  JourneyRun,
  StepOutcome,
  StepOutcomeKind,
} from './journey-run.js';

/** Console errors a run keeps, each cut to `KEPT_TEXT_CHARS`. */
const MAX_CONSOLE_ERRORS = 20;
/** Failed requests a run keeps (status ≥ 400 or no answer). */
const MAX_FAILED_REQUESTS = 30;
const KEPT_TEXT_CHARS = 500;
/** A screenshot bigger than this is not kept (a full page of a very long page); the run says so. */
export const MAX_SCREENSHOT_BYTES = 2 * 1024 * 1024;
/** A trace bigger than this (as recorded, then not even read, or once masked) is not kept; the run says so. */
export const MAX_TRACE_BYTES = 10 * 1024 * 1024;
/**
 * Of a run's deadline, what is kept back from the steps for the failure's screenshot and the
 * trace (a fifth, 2 s at most): a page that hangs must not carry the run past its deadline. As
 * much again past the deadline, the run is given up (`overrun`).
 */
const aftermathMs = (deadlineMs: number) => Math.min(2_000, Math.round(deadlineMs / 5));

export interface JourneyRunInput {
  /** Placeholders filled (`fillJourney`). */
  journey: BrowserJourney;
  /** What to blank wherever the run writes text (`secretMasks`). */
  masks: readonly string[];
  /** The whole run at most, steps and aftermath. */
  deadlineMs: number;
  /** Record a trace (kept when the run fails). @defaultValue true */
  trace?: boolean;
}

const withoutQuery = (url: string) => {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url.slice(0, KEPT_TEXT_CHARS);
  }
};

/** The guard's refusal of a page a `goto` went to (its host and port), if it refused it. */
function refusalOf(refusals: readonly GuardRefusal[], url: string): GuardRefusal | undefined {
  if (!URL.canParse(url)) return undefined;
  const { protocol, hostname, port } = new URL(url);
  const hostPort = `${hostname}:${port || (protocol === 'https:' ? 443 : 80)}`;
  return refusals.find(
    (refusal) => refusal.target === hostPort || refusal.target.startsWith(`${protocol}//${hostname}`),
  );
}

/** How long the page's figures are waited for after a step. */
const VITALS_READ_MS = 500;

/** What `work` settles with within `ms`, else null (its rejection too: nothing to keep). */
function within<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.catch(() => null),
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const isTimeout = (error: unknown) =>
  (error instanceof Error && error.name === 'TimeoutError') ||
  /Timeout \d+ms exceeded/.test(errorMessage(error));

/** Playwright's message without its call log, our step's in full: what a person reads in the incident. */
function failureText(error: unknown, timeoutMs: number): string {
  if (error instanceof StepFailed) return error.message;
  const first = errorMessage(error).split('\n')[0] ?? '';
  if (/Timeout \d+ms exceeded/.test(first)) return `not done within ${timeoutMs / 1000} s`;
  return first.replace(/^\w+\.\w+: /, '').slice(0, KEPT_TEXT_CHARS);
}

/** Playwright's words when the browser (not the page) went away under a call. */
const BROKEN_BROWSER =
  /Target page, context or browser has been closed|Target closed|Browser (has been )?closed|browser has disconnected|Connection closed/i;

/**
 * The context's options: the device, the journey's overrides, the guard's proxy, nothing kept on
 * disk. The extra headers are not among them: they go to the journey's origin only (`sendExtraHeadersToOrigin`).
 */
function contextOptions(journey: BrowserJourney, proxy: GuardProxy) {
  const { defaultBrowserType: _type, ...device } = devices[PLAYWRIGHT_DEVICES[journey.device]] ?? {};
  const origin = journeyOrigin(journey);
  return {
    ...device,
    ...(journey.viewport ? { viewport: journey.viewport } : {}),
    ...(journey.locale ? { locale: journey.locale } : {}),
    ...(journey.timezone ? { timezoneId: journey.timezone } : {}),
    // Answered for the journey's own origin only, never a third party's 401.
    ...(journey.basicAuth
      ? { httpCredentials: { ...journey.basicAuth, ...(origin === null ? {} : { origin }) } }
      : {}),
    ...guardedContextOptions(proxy),
  };
}

/** Where a run is, and its context: a run given up past its deadline closes it. */
interface Progress extends RunProgress {
  context: BrowserContext | null;
  /** The run was given up: a context made only now is closed at once. */
  givenUp: boolean;
}

/**
 * Plays a journey in a fresh context of `browser` (no cookie, storage or cache shared with any
 * other run), every request through `proxy`. A step failing stops the run; the page at the failure
 * is screenshot and a trace kept. Never throws for the site's sake: what went wrong is in the run.
 * Never outlasts its deadline by more than the aftermath either: a browser call that does not
 * answer (they have no timeout of their own) gives the run up (`overrun`).
 */
export async function runJourney(
  browser: Browser,
  proxy: GuardProxy,
  input: JourneyRunInput,
): Promise<JourneyRun> {
  const mask = (text: string) => maskSecrets(text, input.masks).slice(0, KEPT_TEXT_CHARS);
  const started = Date.now();
  const run = newRun(input.journey, started, mask);
  const vitals = new Map<string, PageVitals>();
  const progress: Progress = { at: 'setup', since: started, context: null, givenUp: false };
  const played = play(browser, proxy, input, { run, vitals, progress, mask }).then(() => true);
  const ended = await within(played, input.deadlineMs + aftermathMs(input.deadlineMs));
  const kept = ended
    ? run
    : overrun(run, progress, {
        deadlineMs: input.deadlineMs,
        connected: browser.isConnected(),
        now: Date.now(),
      });
  if (!ended) {
    progress.givenUp = true;
    // Not waited for: a browser that does not answer would not answer this either.
    void progress.context?.close().catch(() => undefined);
  }
  // A refused plain-http target names its path, which may carry a token.
  kept.blocked = proxy.refusals().map((refusal) => ({ ...refusal, target: mask(refusal.target) }));
  kept.address = proxy.firstReached();
  kept.vitals = [...vitals.values()];
  kept.durationMs = Date.now() - started;
  return kept;
}

/** What a run writes as it plays. */
interface Playing {
  run: JourneyRun;
  vitals: Map<string, PageVitals>;
  progress: Progress;
  mask: (text: string) => string;
}

/**
 * What Playwright's client says when a message about a context just closed (a run given up at its
 * deadline, its trace's artifact gone) is read as another call's answer comes
 * (microsoft/playwright#22210): the call fails though nothing of this run is at fault.
 */
const UNBOUND_OBJECT = /was not bound in the connection/;

/** The run itself (`runJourney`): never rejects, whatever the browser does. */
async function play(
  browser: Browser,
  proxy: GuardProxy,
  input: JourneyRunInput,
  { run, vitals, progress, mask }: Playing,
): Promise<void> {
  const { journey } = input;
  const aftermath = aftermathMs(input.deadlineMs);
  const deadline = run.startedAt.getTime() + input.deadlineMs - aftermath;
  // Set by `open` (a closure: a plain variable would read as never set after it).
  const held: { context: BrowserContext | null } = { context: null };
  const tracing = input.trace ?? true;
  try {
    /** The run's context set up and its page; null when the run was given up meanwhile. */
    const open = async () => {
      const opened = await browser.newContext(contextOptions(journey, proxy));
      held.context = opened;
      progress.context = opened;
      if (progress.givenUp) return null;
      await sendExtraHeadersToOrigin(opened, journey);
      if (journey.cookies.length > 0) await opened.addCookies(journey.cookies);
      await opened.addInitScript(VITALS_INIT_SCRIPT);
      if (tracing) await opened.tracing.start({ snapshots: true, screenshots: false, sources: false });
      watch(opened, run, mask);
      return opened.newPage();
    };
    // Set up once more, on a fresh context, when Playwright's client failed it (UNBOUND_OBJECT).
    const page = await open().catch(async (error: unknown) => {
      if (!UNBOUND_OBJECT.test(errorMessage(error))) throw error;
      await held.context?.close().catch(() => undefined);
      return open();
    });
    if (!page) return;
    const readVitalsOf = async () => {
      // A page still loading has no document to ask yet: its figures are read after a later step.
      const reported = await within(page.evaluate(`window.${VITALS_GLOBAL}`), VITALS_READ_MS);
      const seen = readVitals(reported);
      if (seen) vitals.set(seen.url, { ...seen, url: withoutQuery(mask(seen.url)) });
    };
    for (const [index, step] of journey.steps.entries()) {
      const outcome = run.steps[index] as StepOutcome;
      const timeoutMs = Math.min(
        step.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS,
        Math.max(0, deadline - Date.now()),
      );
      const stepStarted = Date.now();
      progress.at = index;
      progress.since = stepStarted;
      try {
        if (timeoutMs <= 0) throw new StepFailed('the journey’s deadline passed before this step');
        const shot = await playStep(page, step, timeoutMs);
        if (shot) keepScreenshot(run, shot);
        outcome.outcome = 'passed';
      } catch (error) {
        outcome.outcome = 'failed';
        const refused = step.action === 'goto' ? refusalOf(proxy.refusals(), step.url) : undefined;
        outcome.error = mask(
          refused ? `the guard refused ${refused.target}: ${refused.reason}` : failureText(error, timeoutMs),
        );
        run.failure = refused
          ? 'BLOCKED_TARGET'
          : isTimeout(error) || timeoutMs <= 0
            ? 'TIMEOUT'
            : 'STEP_FAILED';
        run.failedStep = index;
        run.error = stepCause(outcome);
        run.browserBroke = !browser.isConnected() || BROKEN_BROWSER.test(errorMessage(error));
      } finally {
        outcome.durationMs = Date.now() - stepStarted;
      }
      await readVitalsOf();
      if (run.failedStep !== null) break;
    }
    run.passed = run.failedStep === null;
    progress.at = 'aftermath';
    progress.since = Date.now();
    if (!run.passed && !run.browserBroke) {
      const png = await page
        .screenshot({ type: 'png', timeout: Math.max(100, deadline + aftermath / 2 - Date.now()) })
        .catch(() => null);
      if (png) keepScreenshot(run, { name: 'failure', png });
    }
    if (tracing) await keepTrace(page.context(), run, input.masks);
  } catch (error) {
    // The context itself failed (the browser died, or could not make one): no step is to blame.
    run.passed = false;
    run.failure ??= 'NOT_RUN';
    run.browserBroke ||= !browser.isConnected() || BROKEN_BROWSER.test(errorMessage(error));
    run.error ??= mask(`The journey could not run: ${errorMessage(error).split('\n')[0]}`);
  } finally {
    await held.context?.close().catch(() => undefined);
  }
}

function keepScreenshot(run: JourneyRun, shot: TakenScreenshot): void {
  if (shot.png.length <= MAX_SCREENSHOT_BYTES) run.screenshots.push(shot);
  else
    run.notKept.push(
      `screenshot ${shot.name} (${Math.round(shot.png.length / 1024)} KiB, over ${MAX_SCREENSHOT_BYTES / 1024 / 1024} MiB)`,
    );
}

/** A failing run's trace, its secrets masked; a passing run's is dropped unread. */
async function keepTrace(context: BrowserContext, run: JourneyRun, masks: readonly string[]): Promise<void> {
  if (run.passed || run.browserBroke) {
    await context.tracing.stop().catch(() => undefined);
    return;
  }
  const folder = await mkdtemp(join(tmpdir(), 'webmon-trace-'));
  try {
    const path = join(folder, 'trace.zip');
    await context.tracing.stop({ path });
    const kept = await keptTrace(path, masks, MAX_TRACE_BYTES);
    if ('trace' in kept) run.trace = kept.trace;
    else run.notKept.push(kept.notKept);
  } catch (error) {
    run.notKept.push(`trace (${errorMessage(error).split('\n')[0]})`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The context's pages (popups too): their console errors and failed requests, bounded, masked. */
function watch(context: BrowserContext, run: JourneyRun, mask: (text: string) => string): void {
  const consoleError = (text: string) => {
    if (run.consoleErrors.length < MAX_CONSOLE_ERRORS) run.consoleErrors.push(mask(text));
  };
  const failedRequest = (request: FailedRequest) => {
    if (run.failedRequests.length < MAX_FAILED_REQUESTS)
      run.failedRequests.push({ ...request, url: mask(withoutQuery(request.url)) });
  };
  const onPage = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') consoleError(message.text());
    });
    page.on('pageerror', (error) => consoleError(`Uncaught ${error.name}: ${error.message}`));
  };
  context.on('page', onPage);
  context.on('requestfailed', (request) =>
    failedRequest({
      method: request.method(),
      url: request.url(),
      status: null,
      error: mask(request.failure()?.errorText ?? 'failed'),
    }),
  );
  context.on('response', (response) => {
    if (response.status() >= 400)
      failedRequest({
        method: response.request().method(),
        url: response.url(),
        status: response.status(),
        error: null,
      });
  });
}
