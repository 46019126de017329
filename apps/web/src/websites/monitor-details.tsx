import { useState } from 'preact/hooks';
import type { Schemas } from '../api/client.js';
import { useHeartbeatPings, usePortCheckLatest } from '../api/monitors.js';
import { formatIn } from '../maintenance/zoned-time.js';
import { useCopy } from '../ui/copy.js';
import { seconds } from './monitor-forms.js';

type Heartbeat = Schemas['Heartbeat'];
type DnsCheck = Schemas['DnsCheck'];
type PortCheck = Schemas['PortCheck'];
/** How often a website's monitors and their latest results are read again. */
export const POLL_MS = 5_000;
const PING_KIND = { success: '✓ Succeeded', start: '▶ Started', failure: '✕ Failed' } as const;

function describeSchedule(heartbeat: Heartbeat): string {
  const s = heartbeat.schedule;
  return 'periodSeconds' in s
    ? `a ping every ${seconds(s.periodSeconds)}`
    : `cron “${s.cron}” (${s.timezone})`;
}

export function HeartbeatDetails({ heartbeat: h, zone }: { heartbeat: Heartbeat; zone: string }) {
  const at = (iso: string | null, none = 'never') => (iso ? formatIn(iso, zone) : none);
  return (
    <>
      <dl>
        <dt>Expects</dt>
        <dd>
          {describeSchedule(h)}, {seconds(h.graceSeconds)} late at most
          {h.maxRunSeconds !== null && `; a started run ends within ${seconds(h.maxRunSeconds)}`}
        </dd>
        <dt>Last success</dt>
        <dd>{at(h.lastSuccessAt, 'none yet')}</dd>
        {h.lastFailureAt && (
          <>
            <dt>Last failure</dt>
            <dd>{at(h.lastFailureAt)}</dd>
          </>
        )}
        <dt>Down unless pinged by</dt>
        <dd>{at(h.deadlineAt)}</dd>
        <dt>Next expected</dt>
        <dd>
          <ul class="inline times">
            {h.nextExpectedAt.map((iso) => (
              <li key={iso}>{formatIn(iso, zone)}</li>
            ))}
          </ul>
        </dd>
      </dl>
      {h.pingUrl && <PingUrl url={h.pingUrl} name={h.name} firstTime={!h.lastSuccessAt} />}
      <Pings id={h.id} version={`${h.lastSuccessAt}${h.lastStartAt}${h.lastFailureAt}`} zone={zone} />
    </>
  );
}

/** The job's address (its credential: editors only) with a Copy button and how a job calls it. */
function PingUrl({ url, name, firstTime }: { url: string; name: string; firstTime: boolean }) {
  const { copy, said: copied } = useCopy(url, {
    refused: 'This browser did not allow copying: select the address and copy it.',
  });
  return (
    <div class="ping-url">
      <p>
        <strong>Ping URL</strong>{' '}
        <span class="muted">(the job’s credential: keep it out of public places)</span>
      </p>
      <p class="copy-row">
        <code>{url}</code>{' '}
        <button type="button" onClick={copy}>
          Copy <span class="visually-hidden">the ping URL of {name}</span>
        </button>{' '}
        <span role="status">{copied}</span>
      </p>
      <details open={firstTime}>
        <summary>How the job calls it</summary>
        <pre class="command">
          {`# when a run succeeded\ncurl -fsS ${url}\n# when a run starts (optional: a run past the maximum alerts)\ncurl -fsS ${url}/start\n# when a run failed (or ${url}/<exit code>)\ncurl -fsS ${url}/fail`}
        </pre>
      </details>
    </div>
  );
}

/** The latest pings, read when opened (and again when another arrives); each body is the job's log, as text. */
function Pings({ id, version, zone }: { id: number; version: string; zone: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details class="pings" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Last pings</summary>
      {open && <PingList id={id} version={version} zone={zone} />}
    </details>
  );
}

function PingList({ id, version, zone }: { id: number; version: string; zone: string }) {
  const pings = useHeartbeatPings(id, version);
  if (!pings.data) return <p class="muted">{pings.error ?? 'Loading…'}</p>;
  if (pings.data.items.length === 0) return <p>No pings yet: the job has not called its URL.</p>;
  return (
    <ol class="ping-list">
      {pings.data.items.map((p) => (
        <li key={`${p.at}-${p.kind}`}>
          <strong>{PING_KIND[p.kind]}</strong>
          {p.exitCode !== null && ` (exit code ${p.exitCode})`} {formatIn(p.at, zone)}
          {p.address && <span class="muted"> from {p.address}</span>}
          {p.body && <pre class="log">{p.body}</pre>}
          {p.bodyTruncated && <p class="muted">(its first 10 KB)</p>}
        </li>
      ))}
    </ol>
  );
}

function Values({ values }: { values: string[] }) {
  if (values.length === 0) return <span class="muted">no records</span>;
  return (
    <ul class="values">
      {values.map((v) => (
        <li key={v}>
          <code>{v}</code>
        </li>
      ))}
    </ul>
  );
}

export function DnsDetails({
  check: c,
  zone,
  editor,
  onAccept,
}: {
  check: DnsCheck;
  zone: string;
  editor: boolean;
  onAccept: () => void;
}) {
  const change = c.pendingChange;
  return (
    <>
      <dl>
        <dt>Record</dt>
        <dd>
          {c.recordType} <code>{c.host}</code>
        </dd>
        <dt>Expected</dt>
        <dd>
          {c.expected === 'unchanged' ? (
            'the answer it learned: alerts when it changes'
          ) : (
            <Values values={c.expected} />
          )}
        </dd>
        {c.learned && (
          <>
            <dt>Learned</dt>
            <dd>
              <Values values={c.learned.values} />{' '}
              <span class="muted">on {formatIn(c.learned.at, zone)}</span>
            </dd>
          </>
        )}
        <dt>Checked</dt>
        <dd>
          every {seconds(c.intervalSeconds)}, within {seconds(c.timeoutSeconds)}
        </dd>
      </dl>
      {change && (
        <div class="banner warn">
          <p>
            <span aria-hidden="true">! </span>
            <strong>Answer changed</strong> (since {formatIn(change.since, zone)}): was{' '}
            {change.previous.join(', ') || 'no records'}, now {change.current.join(', ') || 'no records'}.
          </p>
          {c.expected === 'unchanged' && (
            <p class="muted">
              Unless accepted, the new answer is learned {seconds(c.relearnAfterSeconds)} after the change.
            </p>
          )}
          {editor && (
            <button type="button" onClick={onAccept}>
              Accept the new answer <span class="visually-hidden">of {c.name}</span>
            </button>
          )}
        </div>
      )}
    </>
  );
}

export function PortDetails({ check: c, zone }: { check: PortCheck; zone: string }) {
  const latest = usePortCheckLatest(c.id, c.updatedAt, POLL_MS);
  const r = latest.data;
  const ms = (value: number | null | undefined) => (value == null ? '—' : `${Math.round(value)} ms`);
  return (
    <dl>
      <dt>Address</dt>
      <dd>
        <code>{c.host.includes(':') ? `[${c.host}]:${c.port}` : `${c.host}:${c.port}`}</code>
      </dd>
      <dt>TLS</dt>
      <dd>{c.tls ? 'yes: handshake and certificate checked' : 'no'}</dd>
      <dt>Banner</dt>
      <dd>
        {c.expectBanner ? (
          <>
            starts with <code>{c.expectBanner}</code>
          </>
        ) : (
          'not checked'
        )}
      </dd>
      <dt>Checked</dt>
      <dd>
        every {seconds(c.intervalSeconds)}, within {seconds(c.timeoutSeconds)}
      </dd>
      <dt>Latest result</dt>
      <dd>
        {r === undefined
          ? 'Loading…'
          : r === null
            ? 'none yet: the first check is on its way'
            : `${formatIn(r.at, zone)} from ${r.region}: connected in ${ms(r.connectMs)}${c.tls ? `, TLS in ${ms(r.tlsMs)}` : ''}`}
        {r?.banner && (
          <>
            , answered <code>{r.banner}</code>
          </>
        )}
      </dd>
      {r?.certificate && (
        <>
          <dt>Certificate</dt>
          <dd>
            {r.certificate.daysLeft} days left (until {formatIn(r.certificate.validTo, zone)})
            {!r.certificate.valid && <span class="error-text"> ⚠ not valid</span>}
          </dd>
        </>
      )}
    </dl>
  );
}
