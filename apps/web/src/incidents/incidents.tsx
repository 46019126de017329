import { api, must, type Schemas } from '../api/client.js';
import { allWebsites, type WebsiteSummary } from '../api/organization.js';
import { clientCustomerId, useSession } from '../session.js';
import { FormError } from '../ui/form.js';
import { useLoad } from '../ui/use-load.js';
import { KIND_NAME } from '../websites/monitor-forms.js';

type Row = { incident: Schemas['Incident']; website: WebsiteSummary | undefined };

/**
 * Incidents, newest first. Staff read the organization's (`GET /api/incidents`); a client user,
 * whom that route is closed to, reads its customer's websites one by one.
 */
export function Incidents() {
  const { caller } = useSession();
  const own = clientCustomerId(caller);
  const rows = useLoad(
    async (): Promise<Row[]> => {
      const websites = await allWebsites();
      const byId = new Map(websites.map((w) => [w.id, w]));
      let incidents: Schemas['Incident'][];
      if (own === null) {
        incidents = must(await api.GET('/api/incidents', { params: { query: { limit: 100 } } })).items;
      } else {
        const lists = await Promise.all(
          websites.slice(0, 200).map(
            async (w) =>
              must(
                await api.GET('/api/websites/{websiteRef}/incidents', {
                  params: { path: { websiteRef: w.publicId }, query: { limit: 20 } },
                }),
              ).items,
          ),
        );
        incidents = lists.flat();
      }
      return incidents
        .map((incident) => ({ incident, website: byId.get(incident.websiteId) }))
        .sort((a, b) => b.incident.startedAt.localeCompare(a.incident.startedAt));
    },
    [own],
    10_000,
  );
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
