import { useState } from 'preact/hooks';
import { lazy } from 'preact-iso';
import { api, problemText, type Schemas } from '../api/client.js';
import { monitorKeys, useMonitors } from '../api/monitors.js';
import { useDisplayZone } from '../api/organization.js';
import { invalidate, write } from '../api/query.js';
import { formatIn } from '../maintenance/zoned-time.js';
import { canEdit, useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { FormError, Notice } from '../ui/form.js';
import { StatusBadge } from '../ui/status.js';
import { ApiFlowDetails } from './api-flow-details.js';
import { ApiFlowForm, type ApiFlowMonitor } from './api-flow-form.js';
import { DnsForm } from './dns-form.js';
import { HeartbeatForm } from './heartbeat-form.js';
import { JourneyDetails } from './journey-details.js';
import { DnsDetails, HeartbeatDetails, POLL_MS, PortDetails } from './monitor-details.js';
import { KIND_NAME, type Kind, NOUN } from './monitor-forms.js';
import { PortForm } from './port-form.js';
import { ProbeCheckForm, ProbeDetails } from './probe-check-form.js';
import {
  CHOSEN_KINDS,
  type ChosenKind,
  PROBE_KINDS,
  type ProbeCheck,
  type ProbeKind,
} from './probe-kinds.js';

type Monitor = Schemas['Monitor'];
type Heartbeat = Schemas['Heartbeat'];
type DnsCheck = Schemas['DnsCheck'];
type PortCheck = Schemas['PortCheck'];
type BrowserCheck = Schemas['BrowserCheck'];
type CrawlCheck = Schemas['CrawlCheck'];
type LighthouseCheck = Schemas['LighthouseCheck'];
/** The journey editor and the step format's schema it checks with: loaded when a journey is edited. */
const JourneyForm = lazy(() => import('./journey-form.js').then((m) => m.JourneyForm));
/** A crawl's and a Lighthouse check's forms (with the schemas they check with): loaded when one is edited. */
const CrawlForm = lazy(() => import('../site-health/crawl-form.js').then((m) => m.CrawlForm));
const LighthouseForm = lazy(() => import('../site-health/lighthouse-form.js').then((m) => m.LighthouseForm));

/** A website's heartbeats, DNS and port checks: where each stands, and (editors) adding, changing, deleting. */
export function WebsiteMonitors({ website }: { website: Schemas['Website'] }) {
  const { caller } = useSession();
  const editor = canEdit(caller);
  const websiteRef = website.publicId;
  const host = hostOf(website.url);
  const monitors = useMonitors(websiteRef, POLL_MS);
  // Times in the organization's time zone (the browser's when the API does not say it).
  const zone = useDisplayZone();
  const [editing, setEditing] = useState<{ kind: Kind; monitor: Monitor | null } | null>(null);
  const [deleting, setDeleting] = useState<Monitor | null>(null);
  const [adding, setAdding] = useState<ChosenKind>('icmp');
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
        protocol; an API flow makes requests in order (sign in, then use the API); a browser journey plays
        steps in a real browser (sign in, search, the basket); a site crawl finds broken links and mixed
        content, a Lighthouse check scores pages (both shown under Site health). Times in {zone}.
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
              {m.kind === 'api-flow' && (
                <ApiFlowDetails flow={m} zone={zone} pollMs={POLL_MS} editor={editor} />
              )}
              {(m.kind === 'crawl' || m.kind === 'lighthouse') && (
                <SiteCheckDetails check={m} websiteRef={websiteRef} />
              )}
              {m.kind === 'browser' && (
                <JourneyDetails
                  journey={m}
                  websiteRef={websiteRef}
                  zone={zone}
                  pollMs={POLL_MS}
                  editor={editor}
                />
              )}
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
              onChange={(e) => setAdding(e.currentTarget.value as ChosenKind)}
            >
              {CHOSEN_KINDS.map((kind) => (
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
      {editor && form && editing?.kind === 'api-flow' && (
        <ApiFlowForm {...form} flow={editing.monitor as ApiFlowMonitor | null} />
      )}
      {editor && form && editing?.kind === 'browser' && (
        <JourneyForm {...form} journey={editing.monitor as BrowserCheck | null} />
      )}
      {editor && form && editing?.kind === 'crawl' && (
        <CrawlForm {...form} check={editing.monitor as CrawlCheck | null} />
      )}
      {editor && form && editing?.kind === 'lighthouse' && (
        <LighthouseForm {...form} check={editing.monitor as LighthouseCheck | null} />
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

/** A crawl or a Lighthouse check: how often, and where what it finds is shown. */
function SiteCheckDetails({
  check,
  websiteRef,
}: {
  check: CrawlCheck | LighthouseCheck;
  websiteRef: string;
}) {
  return (
    <dl>
      <dt>Runs</dt>
      <dd>{check.schedule}</dd>
      <dt>Found</dt>
      <dd>
        <a href={`/websites/${websiteRef}?tab=site-health`}>
          {check.kind === 'crawl'
            ? 'Broken links, mixed content and sitemaps'
            : 'Scores, their history and reports'}
        </a>{' '}
        under Site health
      </dd>
    </dl>
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
