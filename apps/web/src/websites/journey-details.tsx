import { useState } from 'preact/hooks';
import { api, must, problemText, type Schemas } from '../api/client.js';
import { monitorKeys, useMonitorUptime } from '../api/monitors.js';
import { useApiQuery, write } from '../api/query.js';
import { formatIn } from '../maintenance/zoned-time.js';
import { SEALED } from './api-flow-drafts.js';
import { failingStepOf, type JourneyEvidence, JourneyRunView } from './journey-run.js';
import { seconds } from './monitor-forms.js';

type BrowserCheck = Schemas['BrowserCheck'];
type Result = Schemas['MonitorResult'];
/** The runs a journey's card lists, newest first. */
const RECENT_RUNS = 5;

/** A journey's latest runs with their evidence, newest first (`version`: read again when it changed). */
function useJourneyRuns(id: number, version: string, pollMs: number) {
  return useApiQuery(
    [...monitorKeys.one(id), 'runs', version],
    async () =>
      must(
        await api.GET('/api/monitors/{id}/results', {
          params: { path: { id }, query: { limit: RECENT_RUNS } },
        }),
      ).items,
    { pollMs },
  );
}

/** A run in its list: when, where, how it ended; opened, its steps, screenshots, console, requests and trace. */
function RecentRun({ run, websiteRef, zone }: { run: Result; websiteRef: string; zone: string }) {
  const [opened, setOpened] = useState(false);
  const evidence = (run.evidence ?? {}) as JourneyEvidence;
  const failing = failingStepOf(evidence);
  const down = run.status === 'down';
  return (
    <li>
      <span class={down ? 'error-text' : undefined}>
        <span aria-hidden="true">{down ? '⚠ ' : '✓ '}</span>
        {formatIn(run.at, zone)} from {run.region}: {run.status} in {Math.round(run.durationMs)} ms
      </span>
      {/* The panel renders when opened: a closed one loads no screenshot. */}
      <details onToggle={(e) => setOpened(opened || e.currentTarget.open)}>
        <summary>{down ? `What failed${failing ? `: ${failing}` : ''}` : 'Its steps and timings'}</summary>
        {opened && <JourneyRunView websiteRef={websiteRef} evidence={evidence} />}
      </details>
    </li>
  );
}

/** Where a browser journey stands: its uptime, its latest runs (a failing one opened on what failed), and a run now. */
export function JourneyDetails({
  journey,
  websiteRef,
  zone,
  pollMs,
  editor,
}: {
  journey: BrowserCheck;
  websiteRef: string;
  zone: string;
  pollMs: number;
  editor: boolean;
}) {
  const [trial, setTrial] = useState<{ text: string; evidence: JourneyEvidence | null } | null>(null);
  const runNow = async () => {
    setTrial({ text: 'Running in a browser…', evidence: null });
    const { data, error } = await write(
      api.POST('/api/monitors/{id}/run', { params: { path: { id: journey.id } } }),
      monitorKeys.one(journey.id),
    );
    setTrial(
      data
        ? {
            text: `Run now: ${data.status}${data.cause ? ` (${data.cause})` : ''} in ${Math.round(data.durationMs)} ms`,
            evidence: data.evidence as JourneyEvidence,
          }
        : { text: problemText(error), evidence: null },
    );
  };
  const runs = useJourneyRuns(journey.id, journey.updatedAt, pollMs);
  const uptime = useMonitorUptime(journey.id, journey.updatedAt, pollMs);
  const secretNames = Object.keys(journey.secrets ?? {});
  return (
    <dl>
      <dt>Steps</dt>
      <dd>
        {journey.steps?.length ?? 0} on a {journey.device === 'phone' ? 'phone' : 'desktop'}, played every{' '}
        {seconds(journey.intervalSeconds)} within {seconds(journey.timeoutSeconds)}
      </dd>
      {secretNames.length > 0 && (
        <>
          <dt>Secrets</dt>
          {/* By name only: a secret's value never comes back from the API. */}
          <dd>{secretNames.map((name) => `${name} ${SEALED}`).join(', ')}</dd>
        </>
      )}
      <dt>Uptime, 24 hours</dt>
      <dd>
        {uptime.data === undefined
          ? 'Loading…'
          : uptime.data.uptimePercent === null
            ? 'no result yet'
            : `${uptime.data.uptimePercent.toFixed(2)} % (${uptime.data.checks} ${uptime.data.checks === 1 ? 'run' : 'runs'})`}
      </dd>
      <dt>Latest runs</dt>
      <dd>
        {runs.data === undefined ? (
          (runs.error ?? 'Loading…')
        ) : runs.data.length === 0 ? (
          'none yet: the first run is on its way'
        ) : (
          <ul class="journey-runs">
            {runs.data.map((run) => (
              <RecentRun key={run.at} run={run} websiteRef={websiteRef} zone={zone} />
            ))}
          </ul>
        )}
      </dd>
      {editor && (
        <>
          <dt>Test</dt>
          <dd>
            <button type="button" class="link" onClick={() => void runNow()}>
              Run it now <span class="visually-hidden">({journey.name})</span>
            </button>{' '}
            <span role="status">{trial?.text}</span>
            {trial?.evidence && <JourneyRunView websiteRef={websiteRef} evidence={trial.evidence} />}
          </dd>
        </>
      )}
    </dl>
  );
}
