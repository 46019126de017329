import { useLocation } from 'preact-iso';
import { useVisibleCustomers } from '../api/organization.js';
import { clientCustomerId, useSession } from '../session.js';
import { FormError } from '../ui/form.js';
import { CustomerForm } from './customer-form.js';

const STATUS_TEXT = {
  active: '✓ Active',
  marked_for_cancellation: '! Cancels soon',
  cancelled: '∅ Cancelled',
};

export function Customers() {
  const { caller } = useSession();
  const { route } = useLocation();
  const own = clientCustomerId(caller);
  const customers = useVisibleCustomers();
  return (
    <section>
      <h1>Customers</h1>
      {own === null && (
        <p>
          <a href="/imports">Import websites from UptimeRobot, Uptime Kuma or a CSV</a> · Export:{' '}
          <a href="/api/exports?format=webmon-json" download>
            everything (JSON)
          </a>
          ,{' '}
          <a href="/api/exports?format=csv" download>
            the websites (CSV)
          </a>
        </p>
      )}
      <FormError message={customers.error} />
      {customers.data?.length === 0 && (
        <p>No customers yet: create the first one below, then add its websites.</p>
      )}
      {customers.data && customers.data.length > 0 && (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Customer</th>
              <th scope="col">Package</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {customers.data.map((c) => (
              <tr key={c.id}>
                <td data-label="Customer">
                  <a href={`/customers/${c.id}`}>{c.name}</a>
                </td>
                <td data-label="Package">{c.packageDisplayName}</td>
                <td data-label="Status">
                  {STATUS_TEXT[c.status]}
                  {c.cancellationDate && ` (${new Date(c.cancellationDate).toLocaleDateString()})`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {own === null && (
        <>
          <h2>New customer</h2>
          <CustomerForm customer={null} onSaved={(c) => route(`/customers/${c.id}`)} />
        </>
      )}
    </section>
  );
}
