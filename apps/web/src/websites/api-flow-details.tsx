import { useState } from 'preact/hooks';
import { api, problemText } from '../api/client.js';
import { monitorKeys, useMonitorLatest, useMonitorUptime } from '../api/monitors.js';
import { write } from '../api/query.js';
import { formatIn } from '../maintenance/zoned-time.js';
import { SEALED } from './api-flow-drafts.js';
import type { ApiFlowMonitor } from './api-flow-form.js';
import { seconds } from './monitor-forms.js';

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
  const [trial, setTrial] = useState<{ text: string; evidence: FlowEvidence | null } | null>(null);
  const runNow = async () => {
    setTrial({ text: 'Running…', evidence: null });
    const { data, error } = await write(
      api.POST('/api/monitors/{id}/run', { params: { path: { id: flow.id } } }),
      monitorKeys.one(flow.id),
    );
    setTrial(
      data
        ? {
            text: `Run now: ${data.status}${data.cause ? ` (${data.cause})` : ''} in ${Math.round(data.durationMs)} ms`,
            evidence: data.evidence as FlowEvidence,
          }
        : { text: problemText(error), evidence: null },
    );
  };
  const latest = useMonitorLatest(flow.id, flow.updatedAt, pollMs);
  const uptime = useMonitorUptime(flow.id, flow.updatedAt, pollMs);
  const r = latest.data;
  const secretNames = Object.keys(flow.secrets ?? {});
  return (
    <dl>
      <dt>Steps</dt>
      <dd>
        {flow.steps?.length ?? 0}, checked every {seconds(flow.intervalSeconds)} within{' '}
        {seconds(flow.timeoutSeconds)}
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
            : `${uptime.data.uptimePercent.toFixed(2)} % (${uptime.data.checks} checks)`}
      </dd>
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
        <>
          <dt>Test</dt>
          <dd>
            <button type="button" class="link" onClick={() => void runNow()}>
              Run it now <span class="visually-hidden">({flow.name})</span>
            </button>{' '}
            <span role="status">{trial?.text}</span>
            {trial?.evidence && <StepsOfRun evidence={trial.evidence} />}
          </dd>
        </>
      )}
    </dl>
  );
}
