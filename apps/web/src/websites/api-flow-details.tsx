import { useMonitorLatest } from '../api/monitors.js';
import { formatIn } from '../maintenance/zoned-time.js';
import type { ApiFlowMonitor } from './api-flow-form.js';
import { seconds } from './monitor-forms.js';
import { DayUptime, RunNow, SecretNames } from './monitor-runs.js';

/** A run's evidence as the API keeps it for an API flow (its `apiFlowEvidence`). */
interface FlowEvidence {
  steps?: Array<{
    step: number;
    name: string;
    method: string;
    url: string;
    status: number | null;
    durationMs: number;
    outcome: 'passed' | 'failed';
  }>;
  notRun?: number;
  failedStep?: {
    step: number;
    name: string;
    message: string;
    request: { method: string; url: string; headers: Record<string, string>; body: string | null };
    answer: {
      statusLine: string | null;
      body: { kind: string; text?: string } | null;
      error: { code: string; message: string } | null;
    } | null;
  } | null;
}

/** Each step of a run in a line, and the one that failed with its request and answer. */
function StepsOfRun({ evidence }: { evidence: FlowEvidence }) {
  const failed = evidence.failedStep;
  return (
    <>
      <ol class="api-flow-run">
        {(evidence.steps ?? []).map((step) => (
          <li key={step.step} class={step.outcome === 'failed' ? 'error-text' : undefined}>
            {step.outcome === 'failed' ? (
              <span aria-hidden="true">⚠ </span>
            ) : (
              <span aria-hidden="true">✓ </span>
            )}
            {step.name}: {step.method} <code>{step.url}</code> → {step.status ?? 'no answer'} in{' '}
            {Math.round(step.durationMs)} ms
          </li>
        ))}
      </ol>
      {(evidence.notRun ?? 0) > 0 && <p class="muted">{evidence.notRun} step(s) after it not run.</p>}
      {failed && (
        <details>
          <summary>
            Step {failed.step} “{failed.name}”: its request and answer
          </summary>
          <pre>
            {[
              `${failed.request.method} ${failed.request.url}`,
              ...Object.entries(failed.request.headers).map(([name, value]) => `${name}: ${value}`),
              failed.request.body === null ? '' : `\n${failed.request.body}`,
            ].join('\n')}
          </pre>
          <pre>
            {failed.answer === null
              ? 'Not sent.'
              : failed.answer.error
                ? `${failed.answer.error.code}: ${failed.answer.error.message}`
                : `${failed.answer.statusLine ?? ''}\n\n${failed.answer.body?.text ?? ''}`}
          </pre>
        </details>
      )}
    </>
  );
}

/** Where an API flow stands: its uptime, its latest run step by step, and (editors) a run now. */
export function ApiFlowDetails({
  flow,
  zone,
  pollMs,
  editor,
}: {
  flow: ApiFlowMonitor;
  zone: string;
  pollMs: number;
  editor: boolean;
}) {
  const latest = useMonitorLatest(flow.id, flow.updatedAt, pollMs);
  const r = latest.data;
  return (
    <dl>
      <dt>Steps</dt>
      <dd>
        {flow.steps?.length ?? 0}, checked every {seconds(flow.intervalSeconds)} within{' '}
        {seconds(flow.timeoutSeconds)}
      </dd>
      <SecretNames secrets={flow.secrets} />
      <DayUptime
        id={flow.id}
        version={flow.updatedAt}
        pollMs={pollMs}
        counted={(checks) => `${checks} checks`}
      />
      <dt>Latest run</dt>
      <dd>
        {r === undefined
          ? 'Loading…'
          : r === null
            ? 'none yet: the first run is on its way'
            : `${formatIn(r.at, zone)} from ${r.region}: ${r.status} in ${Math.round(r.durationMs)} ms`}
        {r && <StepsOfRun evidence={(r.evidence ?? {}) as FlowEvidence} />}
      </dd>
      {editor && (
        <RunNow<FlowEvidence> monitor={flow} running="Running…">
          {(evidence) => <StepsOfRun evidence={evidence} />}
        </RunNow>
      )}
    </dl>
  );
}
