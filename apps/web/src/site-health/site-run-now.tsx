import { useEffect, useState } from 'preact/hooks';
import { problemText } from '../api/client.js';
import { monitorKeys } from '../api/monitors.js';
import { invalidate, queryClient } from '../api/query.js';
import { runGoesOn, type SiteRun, siteHealthKeys, startSiteRun, useSiteRun } from '../api/site-health.js';
import { counted } from './scores.js';

/** What a finished run's summary says, in a few words: the crawl's counts, or Lighthouse's pages. */
function summaryText(summary: SiteRun['summary']): string {
  if (!summary) return '';
  const parts: string[] = [];
  const number = (key: string) => (typeof summary[key] === 'number' ? (summary[key] as number) : null);
  const pages = number('pagesCrawled');
  if (pages !== null) parts.push(`${counted(pages, 'page')} crawled`);
  const broken = number('brokenLinks');
  if (broken !== null) parts.push(counted(broken, 'broken link'));
  const mixed = summary.mixedContent as { active?: number; passive?: number } | undefined;
  if (mixed && typeof mixed === 'object')
    parts.push(`${counted((mixed.active ?? 0) + (mixed.passive ?? 0), 'mixed-content resource')}`);
  if (Array.isArray(summary.runs))
    parts.push(counted(summary.runs.length, 'page and preset', 'pages and presets'));
  return parts.length > 0 ? ` — ${parts.join(', ')}` : '';
}

/** A run in words: queued, its stage and count while it runs, how it ended. */
export function runText(run: SiteRun): string {
  switch (run.state) {
    case 'queued':
      return 'Queued: waiting for a worker to take it…';
    case 'running': {
      const p = run.progress;
      if (!p) return 'Running…';
      const count = p.total ? ` (${p.done} of ${p.total})` : p.done > 0 ? ` (${p.done} done)` : '';
      return `Running: ${p.stage}${count}`;
    }
    case 'done':
      return `Done: ${run.status ?? 'ended'}${run.cause ? ` (${run.cause})` : ''}${summaryText(run.summary)}`;
    case 'failed':
      return `Could not run: ${run.error ?? 'the worker gave up'}; it is tried again later.`;
  }
}

/**
 * "Run now" for a crawl or a Lighthouse check (editors): the run queued, its progress (stage,
 * done of total) while it goes on, and how it ended; then what it found is read again.
 */
export function SiteRunNow({ monitor }: { monitor: { id: number; name: string } }) {
  const [runId, setRunId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const run = useSiteRun(monitor.id, runId);
  const r = run.data;
  const ended = r !== undefined && !runGoesOn(r);

  // Ended: its findings, history and the organization's overview are read again (the monitor's
  // status comes with the website's list of monitors, which polls).
  useEffect(() => {
    if (ended) void invalidate(monitorKeys.one(monitor.id), siteHealthKeys.overview);
  }, [ended, r?.runId, monitor.id]);

  const start = async () => {
    setProblem(null);
    const { data, error, response } = await startSiteRun(monitor.id);
    if (!response.ok || !data || !('runId' in data)) return setProblem(problemText(error));
    // Shown at once from the answer, then polled.
    queryClient.setQueryData(siteHealthKeys.run(monitor.id, data.runId), data);
    setRunId(data.runId);
  };
  const progress = r?.state === 'running' ? r.progress : null;
  return (
    <div class="site-run">
      <button type="button" onClick={() => void start()}>
        Run now <span class="visually-hidden">({monitor.name})</span>
      </button>
      <span role="status" class={problem || r?.state === 'failed' ? 'error-text' : undefined}>
        {problem ?? (r ? runText(r) : (run.error ?? ''))}
      </span>
      {r && runGoesOn(r) && (
        <progress
          aria-label={`Progress of the run of ${monitor.name}`}
          {...(progress?.total
            ? { max: progress.total, value: Math.min(progress.done, progress.total) }
            : {})}
        />
      )}
    </div>
  );
}
