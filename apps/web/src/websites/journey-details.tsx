import { useState } from 'preact/hooks';
import { api, must, type Schemas } from '../api/client.js';
import { monitorKeys } from '../api/monitors.js';
import { useApiQuery } from '../api/query.js';
import { formatIn } from '../maintenance/zoned-time.js';
import { failingStepOf, type JourneyEvidence, JourneyRunView } from './journey-run.js';
import { seconds } from './monitor-forms.js';
import { DayUptime, RunNow, SecretNames } from './monitor-runs.js';

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
  const runs = useJourneyRuns(journey.id, journey.updatedAt, pollMs);
  return (
    <dl>
      <dt>Steps</dt>
      <dd>
        {journey.steps?.length ?? 0} on a {journey.device === 'phone' ? 'phone' : 'desktop'}, played every{' '}
        {seconds(journey.intervalSeconds)} within {seconds(journey.timeoutSeconds)}
      </dd>
      <SecretNames secrets={journey.secrets} />
      <DayUptime
        id={journey.id}
        version={journey.updatedAt}
        pollMs={pollMs}
        counted={(checks) => `${checks} ${checks === 1 ? 'run' : 'runs'}`}
      />
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
        <RunNow<JourneyEvidence> monitor={journey} running="Running in a browser…">
          {(evidence) => <JourneyRunView websiteRef={websiteRef} evidence={evidence} />}
        </RunNow>
      )}
    </dl>
  );
}
