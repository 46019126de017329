import { useState } from 'preact/hooks';
import type { Schemas } from '../api/client.js';
import { type LighthouseRun, useLighthouseRuns } from '../api/site-health.js';
import { formatIn } from '../maintenance/zoned-time.js';
import { FormError } from '../ui/form.js';
import { StatusBadge } from '../ui/status.js';
import { LighthouseChart } from './lighthouse-chart.js';
import { CATEGORIES, CATEGORY_NAME, counted, METRICS, PRESET_NAME, Score, shortUrl } from './scores.js';
import { SiteRunNow } from './site-run-now.js';

type LighthouseCheck = Schemas['LighthouseCheck'];
/** Audits listed for a run: the ones that cost most points. */
const AUDITS_SHOWN = 10;

/** A page and preset's history: its key and its runs, newest first. */
interface Series {
  key: string;
  url: string;
  preset: LighthouseRun['preset'];
  runs: LighthouseRun[];
}

function seriesOf(runs: LighthouseRun[]): Series[] {
  const byKey = new Map<string, Series>();
  for (const run of runs) {
    const key = `${run.preset} ${run.url}`;
    const series = byKey.get(key) ?? { key, url: run.url, preset: run.preset, runs: [] };
    series.runs.push(run);
    byKey.set(key, series);
  }
  // By page, then mobile before desktop (as a check lists its presets), whichever ran last.
  return [...byKey.values()].sort(
    (a, b) => a.url.localeCompare(b.url) || Number(a.preset === 'desktop') - Number(b.preset === 'desktop'),
  );
}

/** "Full report", opened in a new tab (the API serves it sandboxed); or why there is none. */
function ReportLink({ run, site }: { run: LighthouseRun; site: string }) {
  if (!run.reportUrl)
    return <span class="muted">{run.outcome === 'completed' ? 'no longer kept' : 'none'}</span>;
  return (
    <a href={run.reportUrl} target="_blank" rel="noopener">
      Full report
      <span class="visually-hidden">
        {' '}
        of {shortUrl(run.url, site)} ({PRESET_NAME[run.preset]}), opens in a new tab
      </span>
    </a>
  );
}

/** Each page and preset's last run: its four scores, or why it could not audit the page. */
function LatestScores({ series, site, zone }: { series: Series[]; site: string; zone: string }) {
  return (
    <div class="table-scroll">
      <table class="stack lh-latest">
        <caption>The last run of each page and preset</caption>
        <thead>
          <tr>
            <th scope="col">Page</th>
            <th scope="col">Preset</th>
            <th scope="col">When</th>
            {CATEGORIES.map(([category, name]) => (
              <th scope="col" key={category}>
                {name}
              </th>
            ))}
            <th scope="col">Report</th>
          </tr>
        </thead>
        <tbody>
          {series.map(({ key, runs: [run] }) =>
            run ? (
              <tr key={key}>
                <td data-label="Page" class="url-cell">
                  {shortUrl(run.url, site)}
                </td>
                <td data-label="Preset">{PRESET_NAME[run.preset]}</td>
                <td data-label="When">{formatIn(run.at, zone)}</td>
                {run.figures ? (
                  CATEGORIES.map(([category, name]) => (
                    <td key={category} data-label={name}>
                      <Score score={run.figures?.scores[category]} />
                    </td>
                  ))
                ) : (
                  <td colSpan={4} data-label="Scores" class="error-text">
                    {run.outcome}: {run.error ?? 'no scores'}
                  </td>
                )}
                <td data-label="Report">
                  <ReportLink run={run} site={site} />
                </td>
              </tr>
            ) : null,
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A run's lab metrics, the thresholds it breached and the audits that cost it most. */
function RunDetails({ run, site, zone }: { run: LighthouseRun; site: string; zone: string }) {
  const figures = run.figures;
  const breaches = run.breaches;
  const audits = (figures?.auditsLost ?? []).slice(0, AUDITS_SHOWN);
  return (
    <>
      <h3>
        Latest run: {shortUrl(run.url, site)}, {PRESET_NAME[run.preset].toLowerCase()}
      </h3>
      <p>
        {formatIn(run.at, zone)} · <ReportLink run={run} site={site} />
        {run.reportNote && <span class="muted"> — {run.reportNote}</span>}
      </p>
      {!figures && <FormError message={`The run ${run.outcome}: ${run.error ?? 'no figures'}`} />}
      {figures && (
        <ul class="cards metrics" aria-label="Lab metrics">
          {METRICS.map(([key, name, shown]) => (
            <li class="card" key={key}>
              <strong>{shown(figures.metrics[key])}</strong> {name}
            </li>
          ))}
        </ul>
      )}
      {breaches && (breaches.under.length > 0 || breaches.dropped.length > 0) && (
        <div class="banner warn" role="note">
          <strong>Thresholds breached:</strong>
          <ul>
            {breaches.under.map((b) => (
              <li key={`under-${b.category}`}>
                {CATEGORY_NAME[b.category]} {b.score}, under its minimum {b.minimum}
              </li>
            ))}
            {breaches.dropped.map((b) => (
              <li key={`drop-${b.category}`}>
                {CATEGORY_NAME[b.category]} {b.score}, down {b.drop} points from {b.previous}
              </li>
            ))}
          </ul>
        </div>
      )}
      {audits.length > 0 && (
        <div class="table-scroll">
          <table class="stack lh-audits">
            <caption>The audits that cost most points</caption>
            <thead>
              <tr>
                <th scope="col">Audit</th>
                <th scope="col">Category</th>
                <th scope="col">Points lost</th>
              </tr>
            </thead>
            <tbody>
              {audits.map((audit) => (
                <tr key={`${audit.category} ${audit.id}`}>
                  <td data-label="Audit">{audit.title}</td>
                  <td data-label="Category">{CATEGORY_NAME[audit.category]}</td>
                  <td data-label="Points lost">{audit.pointsLost.toFixed(1)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** A Lighthouse check's part of the Site health tab: latest scores, run now, history chart, metrics, breaches. */
export function LighthouseSection({
  check,
  site,
  zone,
  editor,
  pollMs,
}: {
  check: LighthouseCheck;
  site: string;
  zone: string;
  editor: boolean;
  pollMs: number;
}) {
  const runs = useLighthouseRuns(check.id, check.updatedAt, pollMs);
  const series = seriesOf(runs.data ?? []);
  const [chosen, setChosen] = useState<string | null>(null);
  const shown = series.find((s) => s.key === chosen) ?? series[0];
  const id = `lighthouse-${check.id}`;
  const pages = check.urls?.length
    ? check.urls.map((url) => shortUrl(url, site)).join(', ')
    : 'its home page';
  return (
    <section class="site-section" aria-labelledby={id}>
      <h2 id={id}>
        <span class="kind">Lighthouse:</span> {check.name}
      </h2>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={check.status} />
          {check.lastCause && <span class="muted"> — {check.lastCause}</span>}
        </dd>
        <dt>Audits</dt>
        <dd>
          {pages}, {check.presets.map((p) => PRESET_NAME[p].toLowerCase()).join(' and ')}, {check.schedule}
        </dd>
      </dl>
      {editor && <SiteRunNow monitor={check} />}
      <FormError message={runs.error} />
      {runs.data === undefined && !runs.error && <p role="status">Loading the scores…</p>}
      {runs.data?.length === 0 && (
        <p>No run yet: the first is on its way (about a minute a page and preset).</p>
      )}
      {series.length > 0 && shown && (
        <>
          <h3>Latest scores</h3>
          <LatestScores series={series} site={site} zone={zone} />
          <h3>Scores over time</h3>
          {series.length > 1 && (
            <div class="field narrow">
              <label for={`${id}-series`}>Page and preset</label>
              <select
                id={`${id}-series`}
                value={shown.key}
                onChange={(e) => setChosen(e.currentTarget.value)}
              >
                {series.map((s) => (
                  <option key={s.key} value={s.key}>
                    {shortUrl(s.url, site)}, {PRESET_NAME[s.preset].toLowerCase()} (
                    {counted(s.runs.length, 'run')})
                  </option>
                ))}
              </select>
            </div>
          )}
          <LighthouseChart
            runs={shown.runs}
            zone={zone}
            title={`${shortUrl(shown.url, site)}, ${PRESET_NAME[shown.preset].toLowerCase()}`}
          />
          {shown.runs[0] && <RunDetails run={shown.runs[0]} site={site} zone={zone} />}
        </>
      )}
    </section>
  );
}
