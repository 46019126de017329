import type { Flags } from 'lighthouse';
import { errorMessage } from '../errors/index.js';
import { untilAborted } from '../probe/index.js';
import { boundedReport, type LighthouseReport } from './bounded-report.js';
import type { LighthouseFigures, LighthousePreset } from './lighthouse.schema.js';
import { lighthouseFigures } from './lighthouse-figures.js';
import { type ProxyAccess, RunChromium } from './run-chromium.js';

/** Lighthouse's own default for waiting on a page's first paint: never longer. */
const MAX_FCP_WAIT_MS = 30_000;

/** What the Lighthouse thread is asked to audit: one page with one preset, behind the run's proxy. */
export interface AuditRequest {
  url: string;
  preset: LighthousePreset;
  deadlineMs: number;
  /** How long Lighthouse may wait for the page's load. */
  loadWaitMs: number;
  executablePath: string;
  proxy: ProxyAccess;
  /** Our user agent, added after the preset's own. */
  userAgent: string;
  maxReportBytes: number;
}

/** What an audit answers: the run but for what the guard refused (its proxy is the caller's). */
export interface AuditAnswer {
  outcome: 'completed' | 'failed' | 'deadline' | 'cancelled';
  error: string | null;
  figures: LighthouseFigures | null;
  report: LighthouseReport;
  launchMs: number;
  totalMs: number;
}

/**
 * Lighthouse on one page in a Chromium of its own (fresh profile, killed after), pointed at the
 * run's guarding proxy. Never throws for the site's or the browser's failures: the outcome says
 * them. Past the deadline, or on `cancel`, Chromium is killed and the audit answers at once; the
 * Lighthouse call it made (`audit`) goes on until it gives up.
 */
export async function auditPage(
  request: AuditRequest,
  cancel: AbortSignal,
): Promise<{ answer: AuditAnswer; audit: Promise<unknown> | null }> {
  const started = performance.now();
  const deadline = AbortSignal.timeout(request.deadlineMs);
  const stop = AbortSignal.any([deadline, cancel]);
  const answer: AuditAnswer = {
    outcome: 'failed',
    error: null,
    figures: null,
    report: { html: null, bytes: 0, note: 'no report: the run gave no result' },
    launchMs: 0,
    totalMs: 0,
  };
  let chromium: RunChromium | null = null;
  let audit: Promise<unknown> | null = null;
  try {
    if (!/^https?:$/.test(new URL(request.url).protocol))
      throw new Error(`not an http(s) URL: ${request.url}`);
    // Loaded by the first audit of the thread only.
    const [{ default: lighthouse, desktopConfig, generateReport }, { userAgents }] = await untilAborted(
      Promise.all([import('lighthouse'), import('lighthouse/core/config/constants.js')]),
      stop,
    );
    const userAgent = `${userAgents[request.preset]} ${request.userAgent}`;
    chromium = await RunChromium.launch(request.executablePath, request.proxy, userAgent, stop);
    answer.launchMs = Math.round(performance.now() - started);
    const flags: Flags = {
      logLevel: 'silent',
      output: 'html',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      maxWaitForLoad: request.loadWaitMs,
      maxWaitForFcp: Math.min(request.loadWaitMs, MAX_FCP_WAIT_MS),
      emulatedUserAgent: userAgent,
    };
    const running = lighthouse(
      request.url,
      flags,
      request.preset === 'desktop' ? desktopConfig : undefined,
      chromium.page,
    );
    audit = running;
    const result = await untilAborted(running, stop);
    if (!result) throw new Error('Lighthouse gave no result');
    answer.figures = lighthouseFigures(result.lhr);
    const html = typeof result.report === 'string' ? result.report : (result.report[0] ?? '');
    answer.report = boundedReport(
      html,
      () => generateReport({ ...result.lhr, fullPageScreenshot: undefined }, 'html'),
      request.maxReportBytes,
    );
    const failure = answer.figures.runtimeError;
    answer.outcome = failure ? 'failed' : 'completed';
    answer.error = failure ? `${failure.code}: ${failure.message}` : null;
  } catch (error) {
    answer.outcome = deadline.aborted ? 'deadline' : stop.aborted ? 'cancelled' : 'failed';
    answer.error =
      answer.outcome === 'deadline'
        ? `the run passed its ${request.deadlineMs} ms deadline: Chromium was stopped`
        : answer.outcome === 'cancelled'
          ? 'the run was cancelled: Chromium was stopped'
          : errorMessage(error).split('\n')[0] || 'Lighthouse failed';
  } finally {
    await chromium?.close();
    answer.totalMs = Math.round(performance.now() - started);
  }
  return { answer, audit };
}
