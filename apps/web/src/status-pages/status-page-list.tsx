import { useVisibleCustomers } from '../api/organization.js';
import { useStatusPages } from '../api/status-pages.js';
import { canEdit, clientCustomerId, useSession } from '../session.js';
import { FormError } from '../ui/form.js';

export function StatusPages() {
  const { caller } = useSession();
  const own = clientCustomerId(caller);
  const pages = useStatusPages();
  const customers = useVisibleCustomers();
  const customerName = (id: number) => customers.data?.find((c) => c.id === id)?.name ?? '';
  const editor = canEdit(caller);
  return (
    <section>
      <h1>Status pages</h1>
      <p>Public pages that tell a customer’s visitors whether its websites work.</p>
      <FormError message={pages.error} />
      {editor && (
        <p>
          <a class="button" href="/status-pages/new">
            Create a status page
          </a>
        </p>
      )}
      {pages.data?.length === 0 && (
        <p>
          {editor
            ? 'No status pages yet: create one for a customer, choose its websites, then make it public.'
            : 'No status pages yet.'}
        </p>
      )}
      {pages.data && pages.data.length > 0 && (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Page</th>
              {own === null && <th scope="col">Customer</th>}
              <th scope="col">Visibility</th>
              <th scope="col">Public link</th>
            </tr>
          </thead>
          <tbody>
            {pages.data.map((p) => (
              <tr key={p.id}>
                <td data-label="Page">
                  {editor ? <a href={`/status-pages/${p.id}`}>{p.title}</a> : p.title}
                </td>
                {own === null && <td data-label="Customer">{customerName(p.customerId)}</td>}
                <td data-label="Visibility">{p.public ? '✓ Public' : '🔒 Private (draft)'}</td>
                <td data-label="Public link" class="url">
                  {p.public ? (
                    <a href={`/status/${p.slug}`} target="_blank" rel="noopener">
                      /status/{p.slug}
                    </a>
                  ) : (
                    <span class="muted">none until it is public</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
