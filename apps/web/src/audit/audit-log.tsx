import { useEffect, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client.js';
import { useActorNames } from '../api/people.js';
import type { paths } from '../api/schema.js';
import { Field, FormError } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';

type AuditEvent = Schemas['AuditEvent'];
type AuditQuery = NonNullable<paths['/api/audit-events']['get']['parameters']['query']>;
type Filters = {
  from: string;
  to: string;
  actor: string;
  actorType: '' | 'user' | 'token';
  resource: string;
};

const RESOURCES = [
  'websites',
  'customers',
  'packages',
  'maintenance-windows',
  'notification-channels',
  'status-pages',
  'users',
  'invitations',
  'tokens',
  'auth',
  'me',
];

function show(value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return 'none';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An operation in words: `updateWebsite` → "Update website", `login` → "Login". */
function actionWords(action: string): string {
  const words = action.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Changes beyond this many (a create sets every field) fold under a summary the person opens. */
const CHANGES_SHOWN = 4;

function ChangeList({ changes }: { changes: AuditEvent['changes'] }) {
  return (
    <ul class="changes">
      {changes.map((c) => (
        <li key={c.path}>
          <code>{c.path}</code>:{' '}
          {c.writeOnly ? (
            <span class="muted">changed (write-only, not shown)</span>
          ) : (
            <>
              <del>{show(c.old)}</del> <span aria-hidden="true">→</span>
              <span class="visually-hidden">became</span> <ins>{show(c.new)}</ins>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

function Changes({ changes }: { changes: AuditEvent['changes'] }) {
  if (changes.length <= CHANGES_SHOWN) return <ChangeList changes={changes} />;
  return (
    <details>
      <summary>{changes.length} fields</summary>
      <ChangeList changes={changes} />
    </details>
  );
}

/** The audit log (admins): who changed what and when, filtered, newest first, page by page. */
export function AuditLog() {
  const form = useForm<Filters, AuditQuery>(
    { from: '', to: '', actor: '', actorType: '', resource: '' },
    {
      body: (filters) => ({
        limit: 50,
        ...(filters.from ? { from: new Date(filters.from).toISOString() } : {}),
        ...(filters.to ? { to: new Date(filters.to).toISOString() } : {}),
        ...(filters.actor ? { actorId: Number(filters.actor) } : {}),
        ...(filters.actor && filters.actorType ? { actorType: filters.actorType } : {}),
        ...(filters.resource ? { resource: filters.resource } : {}),
      }),
    },
  );
  const { errors } = form;
  const [events, setEvents] = useState<AuditEvent[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Names for the actors' numbers: the organization's users and tokens.
  const actors = useActorNames();
  const actorName = (actor: AuditEvent['actor']) => {
    if (actor.type === 'anonymous') return 'Someone not signed in';
    const name = actor.id === null ? undefined : actors.data?.[actor.type].get(actor.id);
    return name ? `${name} (${actor.type} ${actor.id})` : `${actor.type} ${actor.id ?? ''}`;
  };

  const load = async (after: string | null, shown: AuditEvent[]) => {
    const filters = form.check();
    if (!filters) return;
    setBusy(true);
    const answer = await api.GET('/api/audit-events', {
      params: { query: { ...filters, ...(after ? { cursor: after } : {}) } },
    });
    setBusy(false);
    if (!form.answered(answer) || !answer.data) return;
    setEvents([...shown, ...answer.data.items]);
    setCursor(answer.data.nextCursor);
  };
  // The first page on arrival.
  useEffect(() => {
    void load(null, []);
  }, []);

  return (
    <section>
      <h1>Audit log</h1>
      <p>Every change made in the organization: who, what, when and from where. Kept 400 days.</p>
      <form
        class="toolbar"
        aria-label="Filters"
        onSubmit={(e) => {
          e.preventDefault();
          void load(null, []);
        }}
      >
        <Field label="From" error={errors.from}>
          {(props) => <input {...props} type="datetime-local" {...form.bind('from')} />}
        </Field>
        <Field label="To" error={errors.to}>
          {(props) => <input {...props} type="datetime-local" {...form.bind('to')} />}
        </Field>
        <Field label="Actor id" error={errors.actorId} hint="A user’s or a token’s number">
          {(props) => <input {...props} inputMode="numeric" {...form.bind('actor', 'actorId')} />}
        </Field>
        <Field label="Actor kind" error={errors.actorType}>
          {(props) => (
            <select {...props} {...form.bind('actorType')}>
              <option value="">Users and tokens</option>
              <option value="user">Users</option>
              <option value="token">Tokens</option>
            </select>
          )}
        </Field>
        <Field label="Resource" error={errors.resource}>
          {(props) => (
            <select {...props} {...form.bind('resource')}>
              <option value="">All</option>
              {RESOURCES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" class="primary">
          Show
        </button>
      </form>
      <FormError message={form.message} />
      {events?.length === 0 && <p>No events match these filters: widen the dates or clear a filter.</p>}
      {events && events.length > 0 && (
        <table class="stack" id="audit">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr key={e.id}>
                <td data-label="When">{new Date(e.at).toLocaleString()}</td>
                <td data-label="Who">
                  {actorName(e.actor)}
                  {e.actor.role && <span class="muted"> ({e.actor.role})</span>}
                  {e.subject && <span class="muted"> {e.subject.email}</span>}
                </td>
                <td data-label="What">
                  {e.outcome === 'succeeded' ? '✓ ' : e.status >= 500 ? '✕ Failed: ' : '✕ Refused: '}
                  {actionWords(e.action)}
                  {e.resourceId && ` #${e.resourceId}`}
                  {e.outcome === 'failed' && <span class="muted"> (HTTP {e.status})</span>}
                </td>
                <td data-label="Changes">
                  {e.changes.length === 0 ? <span class="muted">—</span> : <Changes changes={e.changes} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor && (
        <button type="button" disabled={busy} onClick={() => void load(cursor, events ?? [])}>
          {busy ? 'Loading…' : 'Load more'}
        </button>
      )}
      {busy && !events && <p role="status">Loading…</p>}
    </section>
  );
}
