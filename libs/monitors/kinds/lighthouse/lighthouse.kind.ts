import { z } from 'zod';
import {
  LIGHTHOUSE_PRESETS,
  type LighthousePreset,
  type LighthouseRun,
  lighthousePresetSchema,
  lighthouseThresholdsSchema,
} from '../../../lighthouse/index.js';
import { ProbeUnavailableError, untilAborted } from '../../../probe/index.js';
import { lighthouseReportName } from '../../../site-health/index.js';
import { newRunId } from '../../run-files.js';
import { defineProbeKind } from '../probe-kind.js';
import { reachablePage, SCHEDULE_SECONDS, scheduleField, siteUrlField } from '../site-kind.js';
import type { SiteRun } from '../site-run.js';
import { type LighthouseObservation, lighthouseEvidence, lighthouseVerdict } from './lighthouse.verdict.js';

/** One page and preset's run at most; a check's timeout is the sum of its runs' and a margin. */
const RUN_DEADLINE_MS = 90_000;
const MARGIN_SECONDS = 30;
/** Pages one Lighthouse check audits at most (each a minute of the worker's browser). */
const MAX_URLS = 5;

const lighthouseFields = {
  schedule: scheduleField(['daily', 'weekly'], 'daily'),
  urls: z
    .array(siteUrlField)
    .min(1)
    .max(MAX_URLS)
    .optional()
    .describe(`The pages audited, at most ${MAX_URLS} (default: the website's URL)`),
  presets: z
    .array(lighthousePresetSchema)
    .min(1)
    .max(LIGHTHOUSE_PRESETS.length)
    .refine((presets) => new Set(presets).size === presets.length, { message: 'names a preset twice' })
    .default(['mobile'])
    .describe('Lighthouse presets each page is audited with: mobile, desktop or both'),
  thresholds: lighthouseThresholdsSchema
    .default({})
    .describe(
      'Scores (0–100) under which a run raises site.lighthouse_degraded, and maxDrop: points a score may fall since the last run',
    ),
};
const lighthouseKindSettings = z.strictObject(lighthouseFields);
type LighthouseKindSettings = z.output<typeof lighthouseKindSettings>;

const pagesOf = (s: LighthouseKindSettings) => s.urls ?? [];

/** A run the check's deadline ended (its Chromium is stopped behind it). */
const deadlineRun = (
  url: string,
  preset: LighthousePreset,
  timeoutMs: number,
  ranMs: number,
): LighthouseRun => ({
  url,
  preset,
  outcome: 'deadline',
  error: `the check's ${timeoutMs} ms deadline passed`,
  figures: null,
  report: { html: null, bytes: 0, note: 'no report: the run gave no result' },
  refusals: [],
  timings: { waitedMs: 0, launchMs: 0, totalMs: ranMs },
});
const runsPerCheck = (s: LighthouseKindSettings) => pagesOf(s).length * s.presets.length;
const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, '');

export const lighthouseKind = defineProbeKind({
  kind: 'lighthouse',
  noun: 'Lighthouse check',
  feature: 'lighthouse',
  limit: 'maxLighthouseChecksPerWebsite',
  lane: 'site',
  description:
    'Audits the website’s pages (`urls`, default its URL) with Lighthouse in Debian’s Chromium on a `schedule` (daily, weekly), with the `presets` given (mobile, desktop), every request of the page through the SSRF guard. Each run’s scores (performance, accessibility, best practices, SEO) and lab metrics (LCP, CLS, TBT, FCP, Speed Index) are kept as history at GET /api/monitors/{id}/lighthouse and its full HTML report at …/lighthouse/{runId}/report.html; a score under its `thresholds` minimum or down by more than `thresholds.maxDrop` since the last run raises `site.lighthouse_degraded`, naming the scores and the audits that cost most. A check none of whose runs could audit its page is down. Checked from one region. Package feature `lighthouse`, limits `maxLighthouseChecksPerWebsite` and `maxLighthouseRunsPerDay` (each page and preset is a run).',
  fields: lighthouseFields,
  settings: lighthouseKindSettings,
  checkedFrom: 'one-region',
  cadence: {
    intervalSeconds: (s) => SCHEDULE_SECONDS[s.schedule],
    timeoutSeconds: (s) => Math.max(1, runsPerCheck(s)) * (RUN_DEADLINE_MS / 1000) + MARGIN_SECONDS,
  },
  fromWebsite: (s, websiteUrl) => ({ ...s, urls: s.urls ?? [websiteUrl] }),
  hostOf: () => null,
  targetsOf: (s) =>
    pagesOf(s).map((url, index) => ({
      host: hostOf(url),
      port: Number(new URL(url).port) || (new URL(url).protocol === 'https:' ? 443 : 80),
      path: `urls.${index}`,
    })),
  packageProblems: (s, pkg) => {
    const perDay = (runsPerCheck(s) * 86_400) / SCHEDULE_SECONDS[s.schedule];
    return perDay > pkg.limits.maxLighthouseRunsPerDay
      ? [
          {
            path: 'urls',
            message: `makes ${perDay} runs a day (pages × presets, ${s.schedule}); the package allows ${pkg.limits.maxLighthouseRunsPerDay} (limits.maxLighthouseRunsPerDay)`,
          },
        ]
      : [];
  },
  defaultName: (s) => {
    const first = pagesOf(s)[0];
    return `Lighthouse ${first ? new URL(first).host : ''} (${s.presets.join(', ')})`;
  },
  probe: async (s, context): Promise<LighthouseObservation> => {
    const lighthouse = context.lighthouse;
    if (!lighthouse) throw new ProbeUnavailableError('this process runs no Lighthouse');
    const startedAt = new Date();
    const deadlineAt = startedAt.getTime() + context.timeoutMs;
    const runs: LighthouseRun[] = [];
    const refused: LighthouseObservation['refused'] = [];
    let address: string | null = null;
    const total = runsPerCheck(s);
    for (const url of pagesOf(s)) {
      // A page whose host the guard refuses (or that does not resolve) is not opened at all.
      const reached = await reachablePage(context.probe, url, context.signal);
      if (reached.failure) {
        refused.push({ url, ...reached.failure });
        continue;
      }
      address ??= reached.address;
      for (const preset of s.presets) {
        // Stopped: the check is run again by another worker, not judged on a cancelled run.
        context.signal?.throwIfAborted();
        context.onProgress?.({ stage: `Lighthouse (${preset}): ${url}`, done: runs.length, total });
        const left = Math.max(1, deadlineAt - Date.now());
        // A run's deadline counts from its turn (another run of this process may go first): the
        // check's own deadline ends it whatever it waited.
        const checkDeadline = AbortSignal.timeout(left);
        const running = lighthouse(
          {
            url,
            preset,
            deadlineMs: Math.min(RUN_DEADLINE_MS, left),
            signal: context.signal ? AbortSignal.any([context.signal, checkDeadline]) : checkDeadline,
          },
          context.probe,
        );
        // At the check's deadline it answers, whatever the run's Chromium takes to be stopped.
        const run = await untilAborted(running, checkDeadline).catch(() => null);
        runs.push(
          !run || (run.outcome === 'cancelled' && checkDeadline.aborted && !context.signal?.aborted)
            ? deadlineRun(url, preset, context.timeoutMs, left)
            : run,
        );
      }
    }
    context.signal?.throwIfAborted();
    return { startedAt, address, runId: context.runId ?? newRunId(), runs, refused };
  },
  verdict: (_s, seen) => lighthouseVerdict(seen),
  evidence: lighthouseEvidence,
  timings: (seen) => ({
    ...Object.fromEntries(seen.runs.map((run, index) => [`run${index + 1}Ms`, run.timings.totalMs])),
    totalMs: Date.now() - seen.startedAt.getTime(),
  }),
  artifacts: (seen) => ({
    runId: seen.runId,
    files: seen.runs.flatMap((run, index) =>
      run.report.html === null
        ? []
        : [
            {
              kind: 'report' as const,
              name: lighthouseReportName(index),
              data: Buffer.from(run.report.html),
            },
          ],
    ),
  }),
  site: (seen): SiteRun => ({
    runId: seen.runId,
    lighthouse: seen.runs.map(({ report, ...run }) => ({
      ...run,
      reportKept: report.html !== null,
      reportNote: report.note,
    })),
  }),
});
