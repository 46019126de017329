import type { LighthouseRun } from '../../../lighthouse/index.js';
import { lighthouseReportName } from '../../../site-health/index.js';
import { downVerdict, type MonitorVerdict, upVerdict } from '../../verdict.js';

/** What a Lighthouse check saw: each page and preset's run, and the run's id. */
export interface LighthouseObservation {
  startedAt: Date;
  /** The first page's address (null: none was reached). */
  address: string | null;
  runId: string;
  runs: LighthouseRun[];
  /** Pages not opened: the SSRF guard refused their host, or it did not resolve. */
  refused: Array<{ url: string; code: string; message: string }>;
}

/**
 * A Lighthouse check judged (pure): down when none of its runs could audit its page (the page did
 * not load, the guard refused it, the browser failed), naming the first failure; up otherwise,
 * a failed run of several named as a warning. Scores under their thresholds are not an outage:
 * they are told as `site.lighthouse_degraded`.
 */
export function lighthouseVerdict(seen: {
  runs: readonly Pick<LighthouseRun, 'url' | 'preset' | 'outcome' | 'error'>[];
  refused: LighthouseObservation['refused'];
}): MonitorVerdict {
  if (seen.runs.some((run) => run.outcome === 'completed')) return upVerdict();
  const refused = seen.refused[0];
  if (refused) return downVerdict(refused.code, `${refused.url}: ${refused.message}`);
  const first = seen.runs[0];
  if (!first) return downVerdict('LIGHTHOUSE_FAILED', 'no page was audited');
  return downVerdict(
    first.outcome === 'deadline' ? 'TIMEOUT' : 'LIGHTHOUSE_FAILED',
    `${first.url} (${first.preset}): ${first.error ?? first.outcome}`,
  );
}

/** What a check's result keeps: each run's scores, metrics and outcome (the reports are its files). */
export function lighthouseEvidence(seen: LighthouseObservation) {
  return {
    runId: seen.runId,
    refused: seen.refused,
    runs: seen.runs.map((run, index) => ({
      url: run.url,
      preset: run.preset,
      outcome: run.outcome,
      error: run.error,
      scores: run.figures?.scores ?? null,
      metrics: run.figures?.metrics ?? null,
      report: run.report.html === null ? null : lighthouseReportName(index),
      reportNote: run.report.note,
      refused: run.refusals.length,
      totalMs: run.timings.totalMs,
    })),
  };
}
