import { useState } from 'preact/hooks';
import { lazy, useLocation, useRoute } from 'preact-iso';
import { api, problemText, type Schemas } from '../api/client.js';
import { useMonitors } from '../api/monitors.js';
import { invalidate, write } from '../api/query.js';
import {
  useHttpResults,
  useWebsite,
  useWebsiteIncidents,
  useWebsiteStatus,
  useWebsiteUptime,
  websiteKeys,
} from '../api/websites.js';
import { WebsiteMaintenance } from '../maintenance/website-maintenance.js';
import { canEdit, clientCustomerId, useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { FormError, Loading } from '../ui/form.js';
import { StatusBadge } from '../ui/status.js';
import { EvidenceView } from './evidence.js';
import { WebsiteMonitors } from './monitors.js';
import { TimingChart } from './timing-chart.js';
import { WebsiteDependencies } from './website-dependencies.js';
import { WebsiteEdit } from './website-edit.js';

const PERIODS = ['24h', '7d', '30d', '90d'] as const;
const OUTCOME = { pass: '✓', warn: '!', fail: '✕', skipped: '–' } as const;
const CHECK_NAMES: Record<string, string> = {
  status: 'Status code',
  ssl: 'TLS certificate',
  httpsRedirect: 'HTTPS redirect',
  size: 'Page size',
  responseTime: 'Response time',
  keyword: 'Keyword',
  domainExpiry: 'Domain expiry',
  assertions: 'Assertions',
};
const POLL_MS = 5_000;
/** The Site health tab (findings tables, the Lighthouse chart, the forms): loaded when opened. */
const SiteHealthTab = lazy(() => import('../site-health/site-health-tab.js').then((m) => m.SiteHealthTab));

export function WebsitePage() {
  const { params } = useRoute();
  const ref = params.ref ?? '';
  if (ref === 'new') return <WebsiteEdit />;
  return <WebsiteDetails websiteRef={ref} />;
}

function WebsiteDetails({ websiteRef }: { websiteRef: string }) {
  const { caller } = useSession();
  const { route, query } = useLocation();
  const website = useWebsite(websiteRef);
  const status = useWebsiteStatus(websiteRef, POLL_MS);
  // The same read as the monitors' section: whether a crawl or a Lighthouse check gives a Site health tab.
  const monitors = useMonitors(websiteRef, POLL_MS);
  const [deleting, setDeleting] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  if (website.notFound)
    return (
      <section>
        <h1>Website not found</h1>
        <p>
          It may have been deleted. <a href="/">Back to the overview</a>
        </p>
      </section>
    );
  const w = website.data;
  if (!w) return <Loading error={website.error} />;

  const setPaused = async (paused: boolean) => {
    const { error, response } = await write(
      api.PATCH('/api/websites/{websiteRef}', {
        params: { path: { websiteRef: w.publicId } },
        body: { paused },
      }),
      websiteKeys.all,
    );
    setMessage(response.ok ? null : problemText(error));
  };
  const remove = async () => {
    setDeleting(false);
    const { error, response } = await api.DELETE('/api/websites/{websiteRef}', {
      params: { path: { websiteRef: w.publicId } },
    });
    if (!response.ok) return setMessage(problemText(error));
    // Away first: this page's own reads would only answer 404 now.
    route(`/customers/${w.customerId}`);
    await invalidate(websiteKeys.all);
  };
  const editor = canEdit(caller);
  const siteHealth = query.tab === 'site-health';
  const hasSiteChecks = (monitors.data?.items ?? []).some(
    (m) => m.kind === 'crawl' || m.kind === 'lighthouse',
  );

  return (
    <section>
      <p>
        <a href="/">← All websites</a>
      </p>
      <h1>{w.name}</h1>
      <p class="url">
        {w.httpMethod} {w.url}
      </p>
      <p>
        {status.data ? <StatusBadge status={status.data.status} /> : <StatusBadge status="unknown" />}
        {status.data?.since && (
          <span class="muted"> since {new Date(status.data.since).toLocaleString()}</span>
        )}
      </p>
      <FormError message={message} />
      {editor && (
        <div class="actions">
          <a class="button" href={`/websites/${w.publicId}/edit`}>
            Edit
          </a>
          <button type="button" onClick={() => void setPaused(!w.paused)}>
            {w.paused ? 'Resume monitoring' : 'Pause monitoring'}
          </button>
          <button type="button" class="danger" onClick={() => setDeleting(true)}>
            Delete…
          </button>
        </div>
      )}
      <Confirm
        open={deleting}
        title={`Delete ${w.name}?`}
        confirmLabel="Delete the website"
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(false)}
      >
        Its checks stop and its results, incidents and uptime history go with it. This cannot be undone.
      </Confirm>

      {(hasSiteChecks || siteHealth) && (
        <nav class="tabs" aria-label="Website sections">
          <a href={`/websites/${w.publicId}`} aria-current={siteHealth ? undefined : 'page'}>
            Monitoring
          </a>
          <a href={`/websites/${w.publicId}?tab=site-health`} aria-current={siteHealth ? 'page' : undefined}>
            Site health
          </a>
        </nav>
      )}
      {siteHealth ? (
        <SiteHealthTab website={w} />
      ) : (
        <WebsiteMonitoring website={w} websiteRef={websiteRef} status={status.data} />
      )}
    </section>
  );
}

/** The website's monitoring: uptime, regions, its other monitors, response times, results, incidents, maintenance. */
function WebsiteMonitoring({
  website: w,
  websiteRef,
  status,
}: {
  website: Schemas['Website'];
  websiteRef: string;
  status: ReturnType<typeof useWebsiteStatus>['data'];
}) {
  const { caller } = useSession();
  const results = useHttpResults(websiteRef, POLL_MS);
  const uptime = useWebsiteUptime(websiteRef, PERIODS, 60_000);
  const incidents = useWebsiteIncidents(websiteRef, POLL_MS);
  const regions = Object.entries(status?.regions ?? {});
  return (
    <>
      <h2>Uptime</h2>
      <ul class="cards" aria-label="Uptime by period">
        {PERIODS.map((period, index) => {
          const u = uptime.data?.[index];
          return (
            <li class="card" key={period}>
              <strong>{u?.uptimePercent == null ? '—' : `${u.uptimePercent.toFixed(2)} %`}</strong>
              {period === '24h' ? 'last 24 hours' : `last ${period.replace('d', ' days')}`}
              {u && u.responseTimeMs.p50 !== null && (
                <span class="muted"> · median {Math.round(u.responseTimeMs.p50)} ms</span>
              )}
            </li>
          );
        })}
      </ul>

      <h2>Regions</h2>
      {regions.length === 0 ? (
        <p>No region has checked it yet{w.paused ? ': it is paused.' : '; the first check is on its way.'}</p>
      ) : (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Region</th>
              <th scope="col">Status</th>
              <th scope="col">Last checked</th>
            </tr>
          </thead>
          <tbody>
            {regions.map(([region, state]) => (
              <tr key={region}>
                <td data-label="Region">{region}</td>
                <td data-label="Status">
                  <StatusBadge status={state.status} />
                  {!state.fresh && <span class="muted"> (stale)</span>}
                </td>
                <td data-label="Last checked">
                  {state.lastCheckedAt ? new Date(state.lastCheckedAt).toLocaleString() : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2>Heartbeats, DNS and ports</h2>
      <WebsiteMonitors website={w} />

      {clientCustomerId(caller) === null && (
        <>
          <h2>Depends on</h2>
          <WebsiteDependencies website={w} editable={canEdit(caller)} />
        </>
      )}

      <h2>Response time</h2>
      {results.data && <TimingChart results={results.data} />}

      <h2>Recent results</h2>
      {results.data?.length === 0 && <p>No results yet: the first check runs within one interval.</p>}
      {results.data && results.data.length > 0 && (
        <table class="stack" id="results">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Region</th>
              <th scope="col">Result</th>
              <th scope="col">HTTP</th>
              <th scope="col">Time</th>
              <th scope="col">Checks</th>
            </tr>
          </thead>
          <tbody>
            {results.data.slice(0, 20).map((r) => (
              <tr key={r.id}>
                <td data-label="When">{new Date(r.startedAt).toLocaleString()}</td>
                <td data-label="Region">{r.region}</td>
                <td data-label="Result">
                  <StatusBadge status={r.status} />
                  {r.error && <div class="error-text">{r.error.message}</div>}
                  {r.hasEvidence && <EvidenceView websiteRef={websiteRef} resultRef={r.id} />}
                </td>
                <td data-label="HTTP">
                  {r.httpStatus ?? '—'}
                  {r.redirects.length > 0 && (
                    <div class="muted">
                      after{' '}
                      {r.redirects.map((hop) => `${hop.status} ${new URL(hop.url).pathname}`).join(' → ')}
                    </div>
                  )}
                </td>
                <td data-label="Time">{Math.round(r.timings.total)} ms</td>
                <td data-label="Checks">
                  <ul class="inline">
                    {r.checks
                      .filter((c) => c.outcome !== 'skipped')
                      .map((c) => (
                        <li key={c.name} title={c.message}>
                          {`${OUTCOME[c.outcome]} ${CHECK_NAMES[c.name] ?? c.name}`}
                        </li>
                      ))}
                  </ul>
                  {r.checks
                    .filter((c) => c.outcome === 'fail')
                    .map((c) => (
                      <div key={c.name} class="error-text">
                        {CHECK_NAMES[c.name] ?? c.name}: {c.message}
                      </div>
                    ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2>Incidents</h2>
      {incidents.data?.items.length === 0 && <p>No incidents: it has not been down.</p>}
      {incidents.data && incidents.data.items.length > 0 && (
        <ul>
          {incidents.data.items.map((incident) => (
            <li key={incident.id}>
              <a href={`/incidents/${incident.id}`}>{incident.resolvedAt ? '✓ Resolved' : '✕ Ongoing'}</a>:{' '}
              {incident.cause} — from {new Date(incident.startedAt).toLocaleString()}
              {incident.resolvedAt && ` to ${new Date(incident.resolvedAt).toLocaleString()}`}
              {incident.regions.length > 0 && ` (${incident.regions.join(', ')})`}
            </li>
          ))}
        </ul>
      )}

      {clientCustomerId(caller) === null && (
        <>
          <h2>Maintenance</h2>
          <WebsiteMaintenance websiteId={w.id} />
        </>
      )}
    </>
  );
}
