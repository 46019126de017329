import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, problemText } from '../api/client.js';
import { write } from '../api/query.js';
import { type StatusPage, useStatusPage } from '../api/status-pages.js';
import { canEdit, useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { Field, FormError, Loading } from '../ui/form.js';
import { useCustomerWebsites } from './incident-posts-api.js';
import {
  type Subscriber,
  type SubscriberState,
  subscriberKeys,
  subscribersCsvUrl,
  useSubscribers,
} from './status-page-subscribers-api.js';

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
/** What a subscriber is told by: an address, or the URL their notices are posted to. */
const addressOf = (s: Subscriber) => (s.channel === 'webhook' ? (s.webhookUrl ?? '') : s.email);

/** `/status-pages/:ref/subscribers`: who is told of the page's incidents and maintenance; export, removal. */
export function StatusPageSubscribers() {
  const { params } = useRoute();
  const pageId = Number(params.ref);
  const page = useStatusPage(pageId);
  const [state, setState] = useState<SubscriberState | null>(null);
  const loaded = useSubscribers(pageId, state);
  if (page.notFound || loaded.notFound) return <h1>Status page not found</h1>;
  if (!page.data || !loaded.subscribers || !loaded.counts)
    return <Loading error={page.error ?? loaded.error} />;
  const p = page.data;
  const { counts, subscribers } = loaded;
  const none = counts.confirmed + counts.pending === 0;
  return (
    <section>
      <p>
        <a href={`/status-pages/${p.id}`}>← {p.title}</a>
      </p>
      <h1>Subscribers</h1>
      <p class="muted">
        Told by e-mail or webhook when an incident is posted, updated or resolved, and of maintenance. Only
        confirmed subscribers are told; a pending one has not followed the mailed link yet.
      </p>
      <ul class="cards" aria-label="Subscribers by state">
        <li class="card">
          <strong>{counts.confirmed}</strong> confirmed
        </li>
        <li class="card">
          <strong>{counts.pending}</strong> pending
        </li>
      </ul>
      {none ? (
        <>
          <h2>No subscribers yet</h2>
          <HowToSubscribe page={p} />
        </>
      ) : (
        <>
          <div class="toolbar">
            <Field label="Show">
              {(props) => (
                <select
                  {...props}
                  value={state ?? ''}
                  onChange={(e) => setState((e.currentTarget.value || null) as SubscriberState | null)}
                >
                  <option value="">All subscribers</option>
                  <option value="confirmed">Confirmed</option>
                  <option value="pending">Pending</option>
                </select>
              )}
            </Field>
            <a class="button" href={subscribersCsvUrl(p.id)} download>
              Export CSV
            </a>
          </div>
          <FormError message={loaded.error} />
          {subscribers.length === 0 ? (
            <p>{state ? `No ${state} subscribers.` : 'No subscribers.'}</p>
          ) : (
            <SubscriberTable page={p} subscribers={subscribers} />
          )}
          {loaded.hasMore && (
            <button type="button" disabled={loaded.loadingMore} onClick={loaded.loadMore}>
              {loaded.loadingMore ? 'Loading…' : 'Load more'}
            </button>
          )}
          <details>
            <summary>How visitors subscribe</summary>
            <HowToSubscribe page={p} />
          </details>
        </>
      )}
    </section>
  );
}

function SubscriberTable({ page, subscribers }: { page: StatusPage; subscribers: Subscriber[] }) {
  const { caller } = useSession();
  const websites = useCustomerWebsites(page.customerId);
  const [removing, setRemoving] = useState<Subscriber | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const nameOf = (id: number) => websites.data?.find((w) => w.id === id)?.name ?? `Website ${id}`;
  const remove = async (subscriber: Subscriber) => {
    setRemoving(null);
    const { error: problem, response } = await write(
      api.DELETE('/api/status-pages/{id}/subscribers/{subscriber}', {
        params: { path: { id: page.id, subscriber: subscriber.id } },
      }),
      subscriberKeys.of(page.id),
    );
    if (!response.ok) return setError(problemText(problem));
    setError(null);
    setDone(`Removed ${addressOf(subscriber)}.`);
  };
  const editor = canEdit(caller);
  return (
    <>
      <FormError message={error} />
      {done && <p role="status">{done}</p>}
      <table class="stack">
        <thead>
          <tr>
            <th scope="col">Subscriber</th>
            <th scope="col">By</th>
            <th scope="col">State</th>
            <th scope="col">Websites</th>
            <th scope="col">Since</th>
            <th scope="col">Confirmed</th>
            {editor && (
              <th scope="col">
                <span class="visually-hidden">Remove</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {subscribers.map((s) => (
            <tr key={s.id}>
              <td data-label="Subscriber" class={s.channel === 'webhook' ? 'url' : undefined}>
                {addressOf(s)}
              </td>
              <td data-label="By">{s.channel === 'webhook' ? 'Webhook' : 'E-mail'}</td>
              <td data-label="State">{s.state === 'confirmed' ? 'Confirmed' : 'Pending'}</td>
              <td data-label="Websites">
                {s.components === null ? 'The whole page' : s.components.map(nameOf).join(', ')}
              </td>
              <td data-label="Since">
                <time dateTime={s.createdAt}>{day(s.createdAt)}</time>
              </td>
              <td data-label="Confirmed">
                {s.confirmedAt ? <time dateTime={s.confirmedAt}>{day(s.confirmedAt)}</time> : '—'}
              </td>
              {editor && (
                <td data-label="">
                  <button
                    type="button"
                    class="danger"
                    aria-label={`Remove ${addressOf(s)}`}
                    onClick={() => setRemoving(s)}
                  >
                    Remove…
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <Confirm
        open={removing !== null}
        title={`Remove ${removing ? addressOf(removing) : ''}?`}
        confirmLabel="Remove the subscriber"
        cancelLabel="Keep them"
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      >
        They are told nothing more from this page, and are not told they were removed. They can subscribe
        again.
      </Confirm>
    </>
  );
}

/** How visitors subscribe (the empty list's words): the form, the feeds, a webhook. */
function HowToSubscribe({ page }: { page: StatusPage }) {
  const base = `${location.origin}/status/${page.slug}`;
  return (
    <div>
      {!page.public && (
        <p>
          <strong>The page is private:</strong> make it public on its screen for visitors to subscribe.
        </p>
      )}
      <p>Visitors subscribe from the page itself, or:</p>
      <ul>
        <li>
          By e-mail at <a href={`${base}/subscribe`}>{`${base}/subscribe`}</a> (they confirm by a mailed
          link), for the whole page or chosen websites.
        </li>
        <li>
          In a feed reader: <a href={`${base}/feed.rss`}>{`${base}/feed.rss`}</a> (RSS) or{' '}
          <a href={`${base}/feed.atom`}>{`${base}/feed.atom`}</a> (Atom). Feed readers are not listed here.
        </li>
        <li>
          By webhook: <code>POST {`${base}/subscriptions`}</code> with{' '}
          <code>{'{"webhookUrl": "https://…"}'}</code>; the URL must answer a signed challenge, and gets its
          signing secret (Standard Webhooks) once.
        </li>
      </ul>
    </div>
  );
}
