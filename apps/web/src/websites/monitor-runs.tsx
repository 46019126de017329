import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api, problemText } from '../api/client.js';
import { monitorKeys, useMonitorUptime } from '../api/monitors.js';
import { write } from '../api/query.js';
import { SEALED } from './api-flow-drafts.js';

/** A monitor's secrets by name only: a secret's value never comes back from the API. */
export function SecretNames({ secrets }: { secrets: Record<string, string> | undefined }) {
  const names = Object.keys(secrets ?? {});
  if (names.length === 0) return null;
  return (
    <>
      <dt>Secrets</dt>
      <dd>{names.map((name) => `${name} ${SEALED}`).join(', ')}</dd>
    </>
  );
}

/** A monitor's uptime over the last 24 hours, with the checks it counts (`counted(12)`: "12 runs"). */
export function DayUptime({
  id,
  version,
  pollMs,
  counted,
}: {
  id: number;
  /** Read again when it changes: the monitor's `updatedAt`. */
  version: string;
  pollMs: number;
  counted: (checks: number) => string;
}) {
  const uptime = useMonitorUptime(id, version, pollMs);
  return (
    <>
      <dt>Uptime, 24 hours</dt>
      <dd>
        {uptime.data === undefined
          ? 'Loading…'
          : uptime.data.uptimePercent === null
            ? 'no result yet'
            : `${uptime.data.uptimePercent.toFixed(2)} % (${counted(uptime.data.checks)})`}
      </dd>
    </>
  );
}

/**
 * A monitor's "Run it now" (editors only), how that run ended and its evidence drawn by
 * `children`; `running` is said while it runs.
 */
type RunAnswer = NonNullable<
  Awaited<ReturnType<typeof api.POST<'/api/monitors/{id}/run', { params: { path: { id: number } } }>>>['data']
>;

/** A run on request in words: what a check found, or that a crawl's or Lighthouse's run was started. */
export function runNowText(data: RunAnswer): string {
  if (!('durationMs' in data)) return `Run ${data.state}: its progress shows under Site health`;
  return `Run now: ${data.status}${data.cause ? ` (${data.cause})` : ''} in ${Math.round(data.durationMs)} ms`;
}

export function RunNow<Evidence>({
  monitor,
  running,
  children,
}: {
  monitor: { id: number; name: string };
  /** "Running…" */
  running: string;
  children: (evidence: Evidence) => JSX.Element;
}) {
  const [trial, setTrial] = useState<{ text: string; evidence: Evidence | null } | null>(null);
  const runNow = async () => {
    setTrial({ text: running, evidence: null });
    const { data, error } = await write(
      api.POST('/api/monitors/{id}/run', { params: { path: { id: monitor.id } } }),
      monitorKeys.one(monitor.id),
    );
    setTrial(
      data
        ? { text: runNowText(data), evidence: 'evidence' in data ? (data.evidence as Evidence) : null }
        : { text: problemText(error), evidence: null },
    );
  };
  return (
    <>
      <dt>Test</dt>
      <dd>
        <button type="button" class="link" onClick={() => void runNow()}>
          Run it now <span class="visually-hidden">({monitor.name})</span>
        </button>{' '}
        <span role="status">{trial?.text}</span>
        {trial?.evidence && children(trial.evidence)}
      </dd>
    </>
  );
}
