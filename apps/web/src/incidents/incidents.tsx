import { useIncidentRows } from '../api/incidents.js';
import { clientCustomerId, useSession } from '../session.js';
import { FormError } from '../ui/form.js';
import { KIND_NAME } from '../websites/monitor-forms.js';

/**
 * Incidents, newest first. Staff read the organization's (`GET /api/incidents`); a client user,
 * whom that route is closed to, reads its customer's websites one by one.
 */
export function Incidents() {
  const { caller } = useSession();
  const own = clientCustomerId(caller);
  const rows = useIncidentRows(own);
  return (
    <section>
      <h1>Incidents</h1>
      <FormError message={rows.error} />
      {!rows.data && !rows.error && <p role="status">Loading…</p>}
      {rows.data?.length === 0 && <p>No incidents: every website has stayed up.</p>}
      {rows.data && rows.data.length > 0 && (
        <table class="stack" id="incidents">
          <thead>
            <tr>
              <th scope="col">Website</th>
              <th scope="col">State</th>
              <th scope="col">Cause</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
            </tr>
          </thead>
          <tbody>
            {rows.data.map(({ incident, website }) => (
              <tr key={incident.id}>
                <td data-label="Website">
                  {website ? (
                    <a href={`/websites/${website.publicId}`}>{website.name}</a>
                  ) : (
                    `#${incident.websiteId}`
                  )}
                  {incident.monitor && ` · ${KIND_NAME[incident.monitor.kind]}`}
                </td>
                <td data-label="State">
                  <a href={`/incidents/${incident.id}`}>
                    {incident.resolvedAt ? '✓ Resolved' : '✕ Ongoing'}
                    {!incident.resolvedAt && incident.acknowledgement && ', acknowledged'}
                  </a>
                </td>
                <td data-label="Cause">{incident.cause}</td>
                <td data-label="From">{new Date(incident.startedAt).toLocaleString()}</td>
                <td data-label="To">
                  {incident.resolvedAt ? new Date(incident.resolvedAt).toLocaleString() : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
