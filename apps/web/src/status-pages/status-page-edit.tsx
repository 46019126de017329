import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, problemText } from '../api/client.js';
import { invalidate } from '../api/query.js';
import { statusPageKeys, usePublicStatusPage, useStatusPage } from '../api/status-pages.js';
import { Confirm } from '../ui/confirm.js';
import { FormError, Loading } from '../ui/form.js';
import { StatusBadge } from '../ui/status.js';
import { StatusPageDomains } from './status-page-domains.js';
import { StatusPageEmbed } from './status-page-embed.js';
import { publicLink, StatusPageForm } from './status-page-form.js';

/** A status page (`/status-pages/new`: a new one): its settings, a preview of what visitors see, deletion. */
export function StatusPageEdit() {
  const { params } = useRoute();
  const { route } = useLocation();
  const page = useStatusPage(params.ref === 'new' ? null : Number(params.ref));
  const [deleting, setDeleting] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  if (page.notFound)
    return (
      <section>
        <h1>Status page not found</h1>
        <p>
          <a href="/status-pages">Back to the status pages</a>
        </p>
      </section>
    );
  if (page.data === undefined) return <Loading error={page.error} />;
  const p = page.data;
  const remove = async () => {
    setDeleting(false);
    if (!p) return;
    const { error, response } = await api.DELETE('/api/status-pages/{id}', {
      params: { path: { id: p.id } },
    });
    if (!response.ok) return setMessage(problemText(error));
    // Away first: this page's own reads would only answer 404 now.
    route('/status-pages');
    await invalidate(statusPageKeys.all);
  };
  return (
    <section>
      <p>
        <a href="/status-pages">← Status pages</a>
      </p>
      <h1>{p ? p.title : 'Create a status page'}</h1>
      <FormError message={message} />
      {p && (
        <p>
          {p.public ? (
            <>
              {p.access.mode === 'public'
                ? '✓ Public at'
                : '🔒 Published, for some visitors only (Access), at'}{' '}
              <a href={`/status/${p.slug}`} target="_blank" rel="noopener" class="url">
                {publicLink(p.slug)}
              </a>
            </>
          ) : (
            '🔒 Private: only you see it; make it public to give its link to the customer’s visitors.'
          )}
        </p>
      )}
      <StatusPageForm
        key={p?.id ?? 'new'}
        page={p}
        onSaved={(saved) => {
          if (!p) route(`/status-pages/${saved.id}`);
        }}
      />
      {p && (
        <p>
          <a href={`/status-pages/${p.id}/incidents`}>Incident posts</a>: tell visitors about an outage,
          update by update.
        </p>
      )}
      {p && (
        <p>
          <a href={`/status-pages/${p.id}/subscribers`}>Subscribers</a>: who is told of incidents and
          maintenance by e-mail or webhook; export or remove them.
        </p>
      )}
      {p && <StatusPageDomains pageId={p.id} />}
      {p && <StatusPageEmbed page={p} />}
      {/* The app reads the page as a visitor: a password or range page would refuse it. */}
      {p?.public && (p.access.mode === 'public' || p.access.mode === 'clients') && (
        <Preview slug={p.slug} updatedAt={p.updatedAt} />
      )}
      {p && (
        <>
          <h2>Delete</h2>
          <button type="button" class="danger" onClick={() => setDeleting(true)}>
            Delete the status page…
          </button>
          <Confirm
            open={deleting}
            title={`Delete ${p.title}?`}
            confirmLabel="Delete the page"
            cancelLabel="Keep it"
            onConfirm={() => void remove()}
            onCancel={() => setDeleting(false)}
          >
            Its address /status/{p.slug} stops answering; its badges stop too.
          </Confirm>
        </>
      )}
    </section>
  );
}

/** What visitors see, read from the page's public JSON (the app's policy frames no page). */
function Preview({ slug, updatedAt }: { slug: string; updatedAt: string }) {
  const view = usePublicStatusPage(slug, updatedAt);
  const v = view.data;
  return (
    <section aria-labelledby="preview-heading" class="card preview">
      <h2 id="preview-heading">Preview</h2>
      <FormError message={view.error} />
      {v && (
        <>
          <p>
            <strong>{v.title}</strong> — {v.overall.text}
          </p>
          {v.websites.length === 0 ? (
            <p class="muted">No websites on the page yet.</p>
          ) : (
            <ul>
              {v.websites.map((w, index) => (
                // The page carries no ids; its order is fixed for one build.
                <li key={index}>
                  {w.name}: <StatusBadge status={w.status} />
                  {w.uptime90dPercent !== null && ` · ${w.uptime90dPercent.toFixed(2)} % over 90 days`}
                </li>
              ))}
            </ul>
          )}
          {v.branding.footerText && <p class="muted">{v.branding.footerText}</p>}
        </>
      )}
      <p>
        <a href={`/status/${slug}`} target="_blank" rel="noopener">
          Open the public page
        </a>
      </p>
    </section>
  );
}
