import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, fieldErrors, problemText } from '../api/client.js';
import { write } from '../api/query.js';
import { useStatusPage } from '../api/status-pages.js';
import { Confirm } from '../ui/confirm.js';
import { Field, FormError, Loading } from '../ui/form.js';
import {
  type IncidentPost,
  type IncidentPostDraft,
  postKeys,
  useCustomerWebsites,
  useIncidentDraft,
  useIncidentPosts,
} from './incident-posts-api.js';

const STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
type PostStatus = (typeof STATUSES)[number];
const IMPACTS = {
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
};
type Impact = keyof typeof IMPACTS;
const label = (status: string) => status[0]?.toUpperCase() + status.slice(1);
const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** `/status-pages/:ref/incidents` (`?incidentId=` prefills a post from an automatic incident). */
export function IncidentPosts() {
  const { params } = useRoute();
  const { query } = useLocation();
  const pageId = Number(params.ref);
  const page = useStatusPage(pageId);
  const posts = useIncidentPosts(pageId);
  const draft = useIncidentDraft(pageId, query.incidentId ?? null);
  if (page.notFound) return <h1>Status page not found</h1>;
  if (!page.data || !posts.data || draft.data === undefined)
    return <Loading error={page.error ?? posts.error ?? draft.error} />;
  const p = page.data;
  return (
    <section>
      <p>
        <a href={`/status-pages/${p.id}`}>← {p.title}</a>
      </p>
      <h1>Incident posts</h1>
      <p class="muted">
        What visitors of <a href={`/status/${p.slug}`}>/status/{p.slug}</a> read during an outage: open posts
        show at the top of the page, resolved ones in its history.
      </p>
      <Compose pageId={p.id} customerId={p.customerId} websiteIds={p.websiteIds} draft={draft.data} />
      <h2>Posts</h2>
      {posts.data.items.length === 0 && <p>No incident posted yet.</p>}
      {posts.data.items.map((post) => (
        <Post key={post.id} pageId={p.id} post={post} />
      ))}
    </section>
  );
}

/** A message's Markdown as the page will show it (the API renders and sanitizes it). */
function Preview({ pageId, message }: { pageId: number; message: string }) {
  const [html, setHtml] = useState<string | null>(null);
  const show = async () => {
    const { data } = await api.POST('/api/status-pages/{id}/incident-preview', {
      params: { path: { id: pageId } },
      body: { message },
    });
    setHtml(data?.html ?? null);
  };
  return (
    <>
      <button type="button" onClick={() => void show()} disabled={message.trim() === ''}>
        Preview
      </button>
      {html !== null && (
        // Sanitized by the API's allow-list (no script, links http(s) and mailto only).
        <section
          class="card message-preview"
          aria-label="Preview"
          dangerouslySetInnerHTML={{ __html: html }}
        />
      )}
    </>
  );
}

function StatusSelect({ value, onChange }: { value: PostStatus; onChange: (s: PostStatus) => void }) {
  return (
    <Field label="Status">
      {(props) => (
        <select {...props} value={value} onChange={(e) => onChange(e.currentTarget.value as PostStatus)}>
          {STATUSES.map((s) => (
            <option value={s}>{label(s)}</option>
          ))}
        </select>
      )}
    </Field>
  );
}

function Compose(props: {
  pageId: number;
  customerId: number;
  websiteIds: number[] | null;
  draft: IncidentPostDraft | null;
}) {
  const websites = useCustomerWebsites(props.customerId);
  const { draft } = props;
  const [title, setTitle] = useState(draft?.title ?? '');
  const [status, setStatus] = useState<PostStatus>(draft?.status ?? 'investigating');
  const [message, setMessage] = useState(draft?.message ?? '');
  const [impacts, setImpacts] = useState<Record<number, Impact | ''>>(
    Object.fromEntries((draft?.components ?? []).map((c) => [c.id, c.impact])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const onPage = (websites.data ?? []).filter(
    (w) => props.websiteIds === null || props.websiteIds.includes(w.id),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    const components = Object.entries(impacts)
      .filter(([, impact]) => impact !== '')
      .map(([id, impact]) => ({ id: Number(id), impact: impact as Impact }));
    const { error: problem, response } = await write(
      api.POST('/api/status-pages/{id}/incidents', {
        params: { path: { id: props.pageId } },
        body: {
          title,
          components,
          status,
          message,
          ...(draft ? { fromIncidentId: draft.fromIncidentId } : {}),
        },
      }),
      postKeys.of(props.pageId),
    );
    if (!response.ok) {
      setErrors(fieldErrors(problem));
      return setError(problemText(problem));
    }
    setErrors({});
    setError(null);
    setTitle('');
    setMessage('');
    setImpacts({});
    setDone(`Posted “${title}”.`);
  };
  return (
    <form class="card" onSubmit={(e) => void submit(e)} aria-labelledby="compose-heading">
      <h2 id="compose-heading">{draft ? 'Publish the incident as a post' : 'Post an incident'}</h2>
      <FormError message={error} />
      {done && <p role="status">{done}</p>}
      <Field label="Title" error={errors.title}>
        {(p) => (
          <input {...p} value={title} onInput={(e) => setTitle(e.currentTarget.value)} maxLength={200} />
        )}
      </Field>
      <fieldset>
        <legend>Affected websites</legend>
        {onPage.map((website, index) => (
          <Field label={website.name} error={errors[`components.${index}.id`]}>
            {(p) => (
              <select
                {...p}
                value={impacts[website.id] ?? ''}
                onChange={(e) =>
                  setImpacts({ ...impacts, [website.id]: e.currentTarget.value as Impact | '' })
                }
              >
                <option value="">Not affected</option>
                {Object.entries(IMPACTS).map(([value, text]) => (
                  <option value={value}>{text}</option>
                ))}
              </select>
            )}
          </Field>
        ))}
      </fieldset>
      <StatusSelect value={status} onChange={setStatus} />
      <Field
        label="Message"
        error={errors.message}
        hint="Markdown: **bold**, lists, links. No HTML, no images."
      >
        {(p) => (
          <textarea {...p} rows={5} value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
        )}
      </Field>
      <Preview pageId={props.pageId} message={message} />
      <p>
        <button type="submit" class="primary">
          Post
        </button>
      </p>
    </form>
  );
}

/** One post: its updates newest first, a form for the next, its title's edit and its deletion. */
function Post({ pageId, post }: { pageId: number; post: IncidentPost }) {
  const [status, setStatus] = useState<PostStatus>(post.status === 'resolved' ? 'resolved' : post.status);
  const [message, setMessage] = useState('');
  const [title, setTitle] = useState(post.title);
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const path = { id: pageId, postId: post.id };
  const keys = postKeys.of(pageId);
  const update = async (event: Event) => {
    event.preventDefault();
    const { error: problem, response } = await write(
      api.POST('/api/status-pages/{id}/incidents/{postId}/updates', {
        params: { path },
        body: { status, message },
      }),
      keys,
    );
    if (!response.ok) return setError(problemText(problem));
    setError(null);
    setMessage('');
  };
  const rename = async () => {
    const { error: problem, response } = await write(
      api.PATCH('/api/status-pages/{id}/incidents/{postId}', { params: { path }, body: { title } }),
      keys,
    );
    setError(response.ok ? null : problemText(problem));
  };
  const remove = async () => {
    setDeleting(false);
    const { error: problem, response } = await write(
      api.DELETE('/api/status-pages/{id}/incidents/{postId}', { params: { path } }),
      keys,
    );
    if (!response.ok) setError(problemText(problem));
  };
  const headingId = `post-${post.id}`;
  return (
    <article class="card" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {post.title}{' '}
        <span class="muted">
          · {post.resolvedAt ? `Resolved ${when(post.resolvedAt)}` : label(post.status)}
        </span>
      </h3>
      <p class="muted">
        {post.components.map((c) => `${c.name ?? `website ${c.id}`}: ${IMPACTS[c.impact]}`).join(' · ')} ·{' '}
        <a href={post.url}>permalink</a>
      </p>
      <FormError message={error} />
      <ol class="updates">
        {post.updates.map((u) => (
          <li key={u.id}>
            <strong>{label(u.status)}</strong> · {when(u.createdAt)}
            {u.editedAt && ' (edited)'}
            <div dangerouslySetInnerHTML={{ __html: u.html }} />
          </li>
        ))}
      </ol>
      <form onSubmit={(e) => void update(e)} aria-label={`Update ${post.title}`}>
        <StatusSelect value={status} onChange={setStatus} />
        <Field label="Update" hint="Markdown. Choose Resolved to close the post.">
          {(p) => (
            <textarea {...p} rows={3} value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
          )}
        </Field>
        <Preview pageId={pageId} message={message} />
        <button type="submit" class="primary">
          Post the update
        </button>
      </form>
      <details>
        <summary>Edit or delete</summary>
        <Field label="Title">
          {(p) => <input {...p} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />}
        </Field>
        <button type="button" onClick={() => void rename()}>
          Save the title
        </button>{' '}
        <button type="button" class="danger" onClick={() => setDeleting(true)}>
          Delete the post…
        </button>
        <Confirm
          open={deleting}
          title={`Delete ${post.title}?`}
          confirmLabel="Delete the post"
          cancelLabel="Keep it"
          onConfirm={() => void remove()}
          onCancel={() => setDeleting(false)}
        >
          It leaves the public page and its history at once.
        </Confirm>
      </details>
    </article>
  );
}
