import { useState } from 'preact/hooks';
import { api, problemText, type Schemas } from '../api/client.js';
import { monitorKeys, useHeartbeatPings, useMonitors, usePortCheckLatest } from '../api/monitors.js';
import { useOrganization } from '../api/organization.js';
import { invalidate, write } from '../api/query.js';
import { browserZone, formatIn } from '../maintenance/zoned-time.js';
import { canEdit, useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { FormError, Notice } from '../ui/form.js';
import { StatusBadge } from '../ui/status.js';
import { DnsForm, HeartbeatForm, KIND_NAME, type Kind, NOUN, PortForm, seconds } from './monitor-forms.js';
import { ProbeCheckForm, ProbeDetails } from './probe-check-form.js';
import { PROBE_KINDS, type ProbeCheck, type ProbeKind } from './probe-kinds.js';

type Monitor = Schemas['Monitor'];
type Heartbeat = Schemas['Heartbeat'];
type DnsCheck = Schemas['DnsCheck'];
type PortCheck = Schemas['PortCheck'];

const POLL_MS = 5_000;
const PING_KIND = { success: '✓ Succeeded', start: '▶ Started', failure: '✕ Failed' } as const;

/** A website's heartbeats, DNS and port checks: where each stands, and (editors) adding, changing, deleting. */
export function WebsiteMonitors({ website }: { website: Schemas['Website'] }) {
  const { caller } = useSession();
  const editor = canEdit(caller);
  const websiteRef = website.publicId;
  const host = hostOf(website.url);
  const monitors = useMonitors(websiteRef, POLL_MS);
  // Times in the organization's time zone (the browser's when the API does not say it).
  const zone = useOrganization().data?.timezone ?? browserZone();
  const [editing, setEditing] = useState<{ kind: Kind; monitor: Monitor | null } | null>(null);
  const [deleting, setDeleting] = useState<Monitor | null>(null);
  const [adding, setAdding] = useState<ProbeKind>('icmp');
  const [message, setMessage] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const remove = async (monitor: Monitor) => {
    setDeleting(null);
    const path = { params: { path: { id: monitor.id } } };
    // One route deletes a monitor of any kind.
    const { error, response } = await write(
      api.DELETE('/api/monitors/{id}', path),
      monitorKeys.ofWebsite(websiteRef),
    );
    setMessage(response.ok ? null : problemText(error));
    setNotice(response.ok ? `Deleted “${monitor.name}”.` : null);
  };
  const accept = async (check: DnsCheck) => {
    const { error, response } = await write(
      api.POST('/api/dns-checks/{id}/accept-change', { params: { path: { id: check.id } } }),
      monitorKeys.ofWebsite(websiteRef),
    );
    setMessage(response.ok ? null : problemText(error));
    setNotice(response.ok ? `The new answer of “${check.name}” is the one expected from now on.` : null);
  };
  const done = (saved: Monitor | null) => {
    setEditing(null);
    setMessage(null);
    if (!saved) return;
    const added = !editing?.monitor;
    setNotice(
      !added
        ? `Saved “${saved.name}”.`
        : saved.kind === 'heartbeat' && saved.pingUrl
          ? `Added “${saved.name}”: have the job call its ping URL below.`
          : `Added “${saved.name}”: its first check is on its way.`,
    );
    void invalidate(monitorKeys.ofWebsite(websiteRef));
  };
  const items = monitors.data?.items;
  const form = editing && {
    key: `${editing.kind}-${editing.monitor?.id ?? 'new'}`,
    websiteRef,
    host,
    onDone: done,
  };

  return (
    <div id="monitors">
      <p class="muted">
        A heartbeat hears from a job that pings (a cron job, a backup); a DNS check watches a record; a port
        check connects to a TCP service; ping, UDP, gRPC, WebSocket and mail server checks speak their
        protocol. Times in {zone}.
      </p>
      <FormError message={message ?? monitors.error} />
      {notice && <Notice>{notice}</Notice>}
      {items?.length === 0 && (
        <p>
          None yet.{' '}
          {editor
            ? 'Add a heartbeat for a job that should run on time, a DNS check for a record that must not change unnoticed, or a port check for mail, a database or any TCP service.'
            : 'Staff of the agency can add them.'}
        </p>
      )}
      {items && items.length > 0 && (
        <ul class="monitors">
          {items.map((m) => (
            <li class="card monitor" key={`${m.kind}-${m.id}`}>
              <h3>
                <span class="kind">{KIND_NAME[m.kind]}:</span> {m.name}
              </h3>
              <p>
                <StatusBadge status={m.status} />
                {m.status === 'unknown' && m.kind === 'heartbeat' && (
                  <span class="muted"> (no ping yet)</span>
                )}
                {m.since && <span class="muted"> since {formatIn(m.since, zone)}</span>}
                {m.openIncidentId && (
                  <>
                    {' · '}
                    <a href={`/incidents/${m.openIncidentId}`}>the open incident</a>
                  </>
                )}
              </p>
              {m.lastCause && (
                <p class={m.status === 'down' ? 'error-text' : 'muted'}>
                  {m.status === 'down' ? <span aria-hidden="true">⚠ </span> : 'Last failure: '}
                  {m.lastCause}
                </p>
              )}
              {m.kind === 'heartbeat' && <HeartbeatDetails heartbeat={m} zone={zone} />}
              {m.kind === 'dns' && (
                <DnsDetails check={m} zone={zone} editor={editor} onAccept={() => void accept(m)} />
              )}
              {m.kind === 'port' && <PortDetails check={m} zone={zone} />}
              {isProbe(m) && <ProbeDetails check={m} zone={zone} pollMs={POLL_MS} editor={editor} />}
              {editor && (
                <ul class="inline">
                  <li>
                    <button
                      type="button"
                      class="link"
                      onClick={() => setEditing({ kind: m.kind, monitor: m })}
                    >
                      Edit <span class="visually-hidden">{m.name}</span>
                    </button>
                  </li>
                  <li>
                    <button type="button" class="link" onClick={() => setDeleting(m)}>
                      Delete <span class="visually-hidden">{m.name}</span>
                    </button>
                  </li>
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
      {editor && !editing && (
        <div class="actions">
          {(['heartbeat', 'dns', 'port'] as const).map((kind) => (
            <button key={kind} type="button" onClick={() => setEditing({ kind, monitor: null })}>
              Add a {NOUN[kind]}
            </button>
          ))}
          <span class="add-other">
            <label for="probe-kind">or a</label>{' '}
            <select
              id="probe-kind"
              value={adding}
              onChange={(e) => setAdding(e.currentTarget.value as ProbeKind)}
            >
              {PROBE_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {NOUN[kind]}
                </option>
              ))}
            </select>{' '}
            <button type="button" onClick={() => setEditing({ kind: adding, monitor: null })}>
              Add it
            </button>
          </span>
        </div>
      )}
      {editor && form && editing && isProbeKind(editing.kind) && (
        <ProbeCheckForm
          {...form}
          key={`${editing.kind}-${editing.monitor?.id ?? 'new'}`}
          kind={editing.kind}
          check={editing.monitor as ProbeCheck | null}
        />
      )}
      {editor && form && editing?.kind === 'heartbeat' && (
        <HeartbeatForm {...form} zone={zone} heartbeat={editing.monitor as Heartbeat | null} />
      )}
      {editor && form && editing?.kind === 'dns' && (
        <DnsForm {...form} check={editing.monitor as DnsCheck | null} />
      )}
      {editor && form && editing?.kind === 'port' && (
        <PortForm {...form} check={editing.monitor as PortCheck | null} />
      )}
      <Confirm
        open={deleting !== null}
        title={`Delete the ${deleting ? NOUN[deleting.kind] : ''} “${deleting?.name ?? ''}”?`}
        confirmLabel={`Delete the ${deleting ? NOUN[deleting.kind] : ''}`}
        cancelLabel="Keep it"
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      >
        {deleting?.kind === 'heartbeat'
          ? 'Its ping URL stops working and its pings go with it; an incident it left open is resolved.'
          : 'Its results go with it; an incident it left open is resolved.'}
      </Confirm>
    </div>
  );
}

const isProbeKind = (kind: Kind): kind is ProbeKind => (PROBE_KINDS as readonly string[]).includes(kind);
const isProbe = (monitor: Monitor): monitor is ProbeCheck => isProbeKind(monitor.kind);

/** The host a website's URL names (what a DNS or port check asks about by default). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return '';
  }
}

function describeSchedule(heartbeat: Heartbeat): string {
  const s = heartbeat.schedule;
  return 'periodSeconds' in s
    ? `a ping every ${seconds(s.periodSeconds)}`
    : `cron “${s.cron}” (${s.timezone})`;
}

function HeartbeatDetails({ heartbeat: h, zone }: { heartbeat: Heartbeat; zone: string }) {
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
  const [copied, setCopied] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('Copied.');
    } catch {
      setCopied('This browser did not allow copying: select the address and copy it.');
    }
  };
  return (
    <div class="ping-url">
      <p>
        <strong>Ping URL</strong>{' '}
        <span class="muted">(the job’s credential: keep it out of public places)</span>
      </p>
      <p class="copy-row">
        <code>{url}</code>{' '}
        <button type="button" onClick={() => void copy()}>
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

function DnsDetails({
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

function PortDetails({ check: c, zone }: { check: PortCheck; zone: string }) {
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
