import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, problemText } from '../api/client.js';
import { customerKeys, useCustomer, useCustomerWebsites } from '../api/customers.js';
import { write } from '../api/query.js';
import { WebsiteTable } from '../overview/overview.js';
import { canEdit, useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { FormError, Loading, Notice } from '../ui/form.js';
import { CustomerForm } from './customer-form.js';

export function CustomerPage() {
  const { params } = useRoute();
  const id = Number(params.id);
  const { caller } = useSession();
  const customer = useCustomer(id);
  // Their status changes as they are checked.
  const websites = useCustomerWebsites(id, 5_000);
  const [cancelling, setCancelling] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const c = customer.data;
  if (customer.notFound)
    return (
      <section>
        <h1>Customer not found</h1>
        <p>
          <a href="/customers">Back to the customers</a>
        </p>
      </section>
    );
  if (!c) return <Loading error={customer.error} />;
  const editor = canEdit(caller);
  const setStatus = async (status: 'active' | 'marked_for_cancellation') => {
    setCancelling(false);
    const { error, response } = await write(
      api.PATCH('/api/customers/{id}', { params: { path: { id } }, body: { status } }),
      customerKeys.all,
    );
    setMessage(response.ok ? null : problemText(error));
  };
  return (
    <section>
      {editor && (
        <p>
          <a href="/customers">← Customers</a>
        </p>
      )}
      <h1>{c.name}</h1>
      <p>
        Package: {c.packageDisplayName} ·{' '}
        {c.status === 'active'
          ? '✓ Active'
          : c.status === 'cancelled'
            ? `∅ Cancelled${c.cancellationDate ? ` on ${new Date(c.cancellationDate).toLocaleDateString()}` : ''}`
            : `! Cancels on ${c.cancellationDate ? new Date(c.cancellationDate).toLocaleString() : 'the end of the month'}`}
      </p>
      <FormError message={message} />
      {c.status === 'marked_for_cancellation' && (
        <Notice>Monitoring goes on until the cancellation date; you can still undo it.</Notice>
      )}
      <p>
        <a href={`/customers/${c.id}/report`}>Report: uptime, incidents and response times for a month</a>
      </p>
      <h2>Websites</h2>
      {editor && (
        <p>
          <a class="button" href={`/websites/new?customerId=${c.id}`}>
            Add a website
          </a>{' '}
          <a href={`/imports?customerId=${c.id}`}>Import many from a file</a> ·{' '}
          <a href={`/api/exports?format=csv&customerId=${c.id}`} download>
            Export them (CSV)
          </a>
        </p>
      )}
      {websites.data?.length === 0 && (
        <p>{editor ? 'No websites yet: add the first one.' : 'No websites are monitored yet.'}</p>
      )}
      {websites.data && websites.data.length > 0 && <WebsiteTable websites={websites.data} />}
      {editor && (
        <>
          <h2>Details</h2>
          <CustomerForm customer={c} />
          <h2>Cancellation</h2>
          {c.status === 'active' ? (
            <button type="button" class="danger" onClick={() => setCancelling(true)}>
              Cancel the customer…
            </button>
          ) : (
            <button type="button" onClick={() => void setStatus('active')}>
              {c.status === 'cancelled' ? 'Reactivate the customer' : 'Undo the cancellation'}
            </button>
          )}
          <Confirm
            open={cancelling}
            title={`Cancel ${c.name}?`}
            confirmLabel="Cancel at the end of the month"
            cancelLabel="Keep the customer"
            onConfirm={() => void setStatus('marked_for_cancellation')}
            onCancel={() => setCancelling(false)}
          >
            Its websites stay checked until the last day of this month, then stop. Until then you can undo it.
          </Confirm>
        </>
      )}
    </section>
  );
}
