import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, devices, type Page } from 'playwright-core';
import { errorMessage } from '../errors/index.js';
import type { GuardProxy, GuardRefusal } from './guard-proxy.js';
import { guardedContextOptions } from './guard-proxy-chromium.js';
import { describeStep, playStep, StepFailed, type TakenScreenshot } from './journey-actions.js';
import { type BrowserJourney, PLAYWRIGHT_DEVICES } from './journey-options.schema.js';
import { DEFAULT_STEP_TIMEOUT_MS, type JourneyAction } from './journey-steps.schema.js';
import { maskSecrets } from './placeholders.js';
import { maskedTrace } from './trace-masking.js';
import { type PageVitals, readVitals, VITALS_GLOBAL, VITALS_INIT_SCRIPT } from './web-vitals.js';

/** Console errors a run keeps, each cut to `KEPT_TEXT_CHARS`. */
const MAX_CONSOLE_ERRORS = 20;
/** Failed requests a run keeps (status ≥ 400 or no answer). */
const MAX_FAILED_REQUESTS = 30;
const KEPT_TEXT_CHARS = 500;
/** A screenshot bigger than this is not kept (a full page of a very long page); the run says so. */
export const MAX_SCREENSHOT_BYTES = 2 * 1024 * 1024;
/** A trace bigger than this (once masked) is not kept; the run says so. */
export const MAX_TRACE_BYTES = 10 * 1024 * 1024;
/**
 * Of a run's deadline, what is kept back from the steps for the failure's screenshot and the
 * trace (a fifth, 2 s at most): a page that hangs must not carry the run past its deadline.
 */
const aftermathMs = (deadlineMs: number) => Math.min(2_000, Math.round(deadlineMs / 5));

/** Why a run failed, as its result's code: a step, a step's timeout, or the guard refusing the page. */
export type JourneyFailure = 'STEP_FAILED' | 'TIMEOUT' | 'BLOCKED_TARGET' | 'NOT_RUN';

export type StepOutcomeKind = 'passed' | 'failed' | 'skipped';

/** One step as a run played it. */
export interface StepOutcome {
  index: number;
  action: JourneyAction;
  /** What it does, in words (its own name, or one made of its fields; never a secret). */
  name: string;
  outcome: StepOutcomeKind;
  /** null when skipped. */
  durationMs: number | null;
  /** Why it failed, in words, secrets masked. */
  error: string | null;
}

/** A request of the page that failed: an answer ≥ 400, or none (the reason). */
export interface FailedRequest {
  method: string;
  /** Without its query, which may carry a token. */
  url: string;
  status: number | null;
  error: string | null;
}

/** Everything one run of a journey found and keeps (bounded; secrets masked wherever text is kept). */
export interface JourneyRun {
  startedAt: Date;
  durationMs: number;
  passed: boolean;
  steps: StepOutcome[];
  /** The index of the step that failed (null: none, or the run could not start). */
  failedStep: number | null;
  /** Why the run failed, in words (the failing step's error, or why it could not run). */
  error: string | null;
  /** Why the run failed, as a code (null when it passed). */
  failure: JourneyFailure | null;
  /** The address the run's first page was reached at (null: none was). */
  address: string | null;
  /** The screenshot steps' images, then the page at the failure (`failure`). */
  screenshots: TakenScreenshot[];
  /** A failing run's Playwright trace (zip, secrets masked); null for a passing run or one over its bound. */
  trace: Buffer | null;
  /** What was not kept and why (a screenshot or trace over its bound). */
  notKept: string[];
  consoleErrors: string[];
  failedRequests: FailedRequest[];
  /** What the guard refused (never reached). */
  blocked: GuardRefusal[];
  /** Each page visited, its Web Vitals. */
  vitals: PageVitals[];
  /** The browser died under the run: not the site's failure (the caller retries once on a fresh one). */
  browserBroke: boolean;
}

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

/** The origin of the journey's first page (its first step goes to a URL), as basic auth is bound to it. */
function firstOrigin(journey: BrowserJourney): { origin: string } | Record<string, never> {
  const first = journey.steps[0];
  return first?.action === 'goto' && URL.canParse(first.url) ? { origin: new URL(first.url).origin } : {};
}

/** The context's options: the device, the journey's overrides, the guard's proxy, nothing kept on disk. */
function contextOptions(journey: BrowserJourney, proxy: GuardProxy) {
  const { defaultBrowserType: _type, ...device } = devices[PLAYWRIGHT_DEVICES[journey.device]] ?? {};
  return {
    ...device,
    ...(journey.viewport ? { viewport: journey.viewport } : {}),
    ...(journey.locale ? { locale: journey.locale } : {}),
    ...(journey.timezone ? { timezoneId: journey.timezone } : {}),
    extraHTTPHeaders: journey.extraHeaders,
    // Answered for the journey's first page's origin only, never a third party's 401.
    ...(journey.basicAuth ? { httpCredentials: { ...journey.basicAuth, ...firstOrigin(journey) } } : {}),
    ...guardedContextOptions(proxy),
  };
}

/**
 * Plays a journey in a fresh context of `browser` (no cookie, storage or cache shared with any
 * other run), every request through `proxy`. A step failing stops the run; the page at the failure
 * is screenshot and a trace kept. Never throws for the site's sake: what went wrong is in the run.
 */
export async function runJourney(
  browser: Browser,
  proxy: GuardProxy,
  input: JourneyRunInput,
): Promise<JourneyRun> {
  const { journey, masks } = input;
  const mask = (text: string) => maskSecrets(text, masks).slice(0, KEPT_TEXT_CHARS);
  const started = Date.now();
  const aftermath = aftermathMs(input.deadlineMs);
  const deadline = started + input.deadlineMs - aftermath;
  const run: JourneyRun = {
    startedAt: new Date(started),
    durationMs: 0,
    passed: false,
    steps: journey.steps.map((step, index) => ({
      index,
      action: step.action,
      name: mask(describeStep(step)),
      outcome: 'skipped',
      durationMs: null,
      error: null,
    })),
    failedStep: null,
    error: null,
    failure: null,
    address: null,
    screenshots: [],
    trace: null,
    notKept: [],
    consoleErrors: [],
    failedRequests: [],
    blocked: [],
    vitals: [],
    browserBroke: false,
  };
  const vitals = new Map<string, PageVitals>();
  let context: BrowserContext | null = null;
  const tracing = input.trace ?? true;
  try {
    context = await browser.newContext(contextOptions(journey, proxy));
    if (journey.cookies.length > 0) await context.addCookies(journey.cookies);
    await context.addInitScript(VITALS_INIT_SCRIPT);
    if (tracing) await context.tracing.start({ snapshots: true, screenshots: false, sources: false });
    watch(context, run, mask);
    const page = await context.newPage();
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
        run.error = `Step ${index + 1} (${outcome.name}): ${outcome.error}`;
        run.browserBroke = !browser.isConnected() || BROKEN_BROWSER.test(errorMessage(error));
      } finally {
        outcome.durationMs = Date.now() - stepStarted;
      }
      await readVitalsOf();
      if (run.failedStep !== null) break;
    }
    run.passed = run.failedStep === null;
    if (!run.passed && !run.browserBroke) {
      const png = await page
        .screenshot({ type: 'png', timeout: Math.max(100, deadline + aftermath / 2 - Date.now()) })
        .catch(() => null);
      if (png) keepScreenshot(run, { name: 'failure', png });
    }
    if (tracing) await keepTrace(context, run, masks);
  } catch (error) {
    // The context itself failed (the browser died, or could not make one): no step is to blame.
    run.passed = false;
    run.failure ??= 'NOT_RUN';
    run.browserBroke ||= !browser.isConnected() || BROKEN_BROWSER.test(errorMessage(error));
    run.error ??= mask(`The journey could not run: ${errorMessage(error).split('\n')[0]}`);
  } finally {
    await context?.close().catch(() => undefined);
    // A refused plain-http target names its path, which may carry a token.
    run.blocked = proxy.refusals().map((refusal) => ({ ...refusal, target: mask(refusal.target) }));
    run.address = proxy.firstReached();
    run.vitals = [...vitals.values()];
    run.durationMs = Date.now() - started;
  }
  return run;
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
    const trace = maskedTrace(await readFile(path), masks);
    if (trace.length <= MAX_TRACE_BYTES) run.trace = trace;
    else
      run.notKept.push(
        `trace (${Math.round(trace.length / 1024 / 1024)} MiB, over ${MAX_TRACE_BYTES / 1024 / 1024} MiB)`,
      );
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
