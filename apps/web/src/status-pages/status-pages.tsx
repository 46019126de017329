import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, fieldErrors, must, problemText, type Schemas } from '../api/client.js';
import { allWebsites, useVisibleCustomers } from '../api/organization.js';
import { canEdit, clientCustomerId, useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { Check, Field, FormError, Loading, Notice } from '../ui/form.js';
import { StatusBadge } from '../ui/status.js';
import { useLoad } from '../ui/use-load.js';

type StatusPage = Schemas['StatusPage'];

const publicLink = (slug: string) => `${location.origin}/status/${slug}`;

export function StatusPages() {
  const { caller } = useSession();
  const own = clientCustomerId(caller);
  const pages = useLoad(async () => must(await api.GET('/api/status-pages')), []);
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

export function StatusPageEdit() {
  const { params } = useRoute();
  const { route } = useLocation();
  const isNew = params.ref === 'new';
  const id = Number(params.ref);
  const page = useLoad(
    async () => (isNew ? null : must(await api.GET('/api/status-pages/{id}', { params: { path: { id } } }))),
    [params.ref],
  );
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
    if (response.ok) route('/status-pages');
    else setMessage(problemText(error));
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
              ✓ Public at{' '}
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
        onSaved={(saved) => (p ? void page.reload() : route(`/status-pages/${saved.id}`))}
      />
      {p?.public && <Preview slug={p.slug} updatedAt={p.updatedAt} />}
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

function StatusPageForm({ page, onSaved }: { page: StatusPage | null; onSaved: (page: StatusPage) => void }) {
  const { query } = useLocation();
  const customers = useVisibleCustomers();
  const [customerId, setCustomerId] = useState(String(page?.customerId ?? query.customerId ?? ''));
  const websites = useLoad(async () => (customerId ? allWebsites(Number(customerId)) : []), [customerId]);
  const [title, setTitle] = useState(page?.title ?? '');
  const [slug, setSlug] = useState(page?.slug ?? '');
  const [allSites, setAllSites] = useState(page ? page.websiteIds === null : true);
  const [websiteIds, setWebsiteIds] = useState<number[]>(page?.websiteIds ?? []);
  const [logoUrl, setLogoUrl] = useState(page?.branding.logoUrl ?? '');
  const [accentColor, setAccentColor] = useState(page?.branding.accentColor ?? '');
  const [footerText, setFooterText] = useState(page?.branding.footerText ?? '');
  const [isPublic, setPublic] = useState(page?.public ?? false);
  const [showResponseTimes, setShowResponseTimes] = useState(page?.showResponseTimes ?? true);
  const [embed, setEmbed] = useState((page?.embedAllowedOrigins ?? []).join('\n'));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const fields = {
      title,
      slug,
      websiteIds: allSites ? null : websiteIds,
      branding: {
        logoUrl: logoUrl || null,
        accentColor: accentColor || null,
        footerText: footerText || null,
      },
      public: isPublic,
      showResponseTimes,
      embedAllowedOrigins: embed
        .split(/[\n,]/)
        .map((o) => o.trim())
        .filter(Boolean),
    };
    const answer = page
      ? await api.PATCH('/api/status-pages/{id}', { params: { path: { id: page.id } }, body: fields })
      : await api.POST('/api/status-pages', { body: { ...fields, customerId: Number(customerId) } });
    if (answer.data) {
      setErrors({});
      setMessage(null);
      setSaved(true);
      onSaved(answer.data);
    } else {
      setErrors(fieldErrors(answer.error));
      setMessage(problemText(answer.error));
    }
  };

  return (
    <form onSubmit={save} noValidate aria-label={page ? 'Status page settings' : 'New status page'}>
      {saved && page && <Notice>Saved.</Notice>}
      <FormError message={message} />
      <Field
        label="Customer"
        error={errors.customerId}
        hint={page ? 'A page stays with its customer.' : undefined}
      >
        {(props) => (
          <select
            {...props}
            required
            disabled={page !== null}
            value={customerId}
            onChange={(e) => {
              setCustomerId(e.currentTarget.value);
              setWebsiteIds([]);
            }}
          >
            <option value="">Choose a customer</option>
            {customers.data?.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Page title" error={errors.title}>
        {(props) => (
          <input {...props} required value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
        )}
      </Field>
      <Field
        label="Address (slug)"
        error={errors.slug}
        hint={`The page is served at ${publicLink(slug || 'your-slug')}; lowercase letters, digits and dashes.`}
      >
        {(props) => (
          <input
            {...props}
            required
            autoCapitalize="none"
            value={slug}
            onInput={(e) => setSlug(e.currentTarget.value)}
          />
        )}
      </Field>
      <fieldset>
        <legend>Websites shown</legend>
        <Check
          label="All the customer’s websites, as they come and go"
          checked={allSites}
          onChange={setAllSites}
          error={errors.websiteIds}
        />
        {!allSites && websites.data?.length === 0 && <p class="muted">This customer has no websites yet.</p>}
        {!allSites && (
          <div class="row">
            {websites.data?.map((w) => (
              <Check
                key={w.id}
                label={w.name}
                checked={websiteIds.includes(w.id)}
                onChange={(on) =>
                  setWebsiteIds((ids) => (on ? [...ids, w.id] : ids.filter((i) => i !== w.id)))
                }
              />
            ))}
          </div>
        )}
      </fieldset>
      <fieldset>
        <legend>Branding</legend>
        <Field label="Logo URL (optional)" error={errors['branding.logoUrl']} hint="An https:// image.">
          {(props) => (
            <input {...props} type="url" value={logoUrl} onInput={(e) => setLogoUrl(e.currentTarget.value)} />
          )}
        </Field>
        <Field
          label="Accent colour (optional)"
          error={errors['branding.accentColor']}
          hint="Hex, e.g. #1f5fbf."
        >
          {(props) => (
            <input {...props} value={accentColor} onInput={(e) => setAccentColor(e.currentTarget.value)} />
          )}
        </Field>
        <Field label="Footer text (optional)" error={errors['branding.footerText']}>
          {(props) => (
            <input {...props} value={footerText} onInput={(e) => setFooterText(e.currentTarget.value)} />
          )}
        </Field>
      </fieldset>
      <Check
        label="Public: anyone with the link sees it"
        checked={isPublic}
        onChange={setPublic}
        error={errors.public}
      />
      <Check
        label="Show response times"
        checked={showResponseTimes}
        onChange={setShowResponseTimes}
        error={errors.showResponseTimes}
      />
      <Field
        label="Sites that may embed it (optional)"
        error={errors.embedAllowedOrigins ?? errors['embedAllowedOrigins.0']}
        hint="Origins such as https://shop.example, one per line; none: no site may frame it."
      >
        {(props) => (
          <textarea {...props} rows={2} value={embed} onInput={(e) => setEmbed(e.currentTarget.value)} />
        )}
      </Field>
      <button type="submit" class="primary">
        {page ? 'Save the status page' : 'Create the status page'}
      </button>
    </form>
  );
}

/** What visitors see, read from the page's public JSON (the app's policy frames no page). */
function Preview({ slug, updatedAt }: { slug: string; updatedAt: string }) {
  const view = useLoad(
    async () => must(await api.GET('/status/{slug}.json', { params: { path: { slug } } })),
    [slug, updatedAt],
  );
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
