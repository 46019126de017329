import { useState } from 'preact/hooks';
import { api, must, problemText, type Schemas } from '../api/client.js';
import { useMonitors } from '../api/monitors.js';
import { useApiQuery, write } from '../api/query.js';
import { websiteKeys } from '../api/websites.js';
import { Field, FormError } from '../ui/form.js';
import { StatusBadge } from '../ui/status.js';
import { KIND_NAME } from './monitor-forms.js';

type Dependencies = Schemas['Dependencies'];
type Parent = Schemas['DependencyParent'];
type Website = Pick<Schemas['Website'], 'id' | 'publicId' | 'name'>;

const keyOf = (websiteRef: string) => [...websiteKeys.one(websiteRef), 'dependencies'] as const;
/** The choices of a parent: the organization's websites (the first 1,000 by name). */
const PARENT_CHOICES = 1000;

const parentOf = (parent: Dependencies['parents'][number]): Parent =>
  parent.monitorId !== undefined ? { monitorId: parent.monitorId } : { websiteId: parent.websiteId ?? 0 };

/**
 * What the website depends on — another website, or a monitor (a server's heartbeat, a DNS check,
 * its own DNS check) — and what depends on it: while a parent is down its alerts are held.
 */
export function WebsiteDependencies({ website, editable }: { website: Website; editable: boolean }) {
  const ref = website.publicId;
  const deps = useApiQuery(keyOf(ref), async () =>
    must(await api.GET('/api/websites/{websiteRef}/dependencies', { params: { path: { websiteRef: ref } } })),
  );
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const save = async (parents: Parent[]) => {
    const answer = await write(
      api.PUT('/api/websites/{websiteRef}/dependencies', {
        params: { path: { websiteRef: ref } },
        body: { parents },
      }),
      keyOf(ref),
    );
    setError(answer.error ? problemText(answer.error) : null);
    return !answer.error;
  };
  if (!deps.data) return deps.error ? <FormError message={deps.error} /> : <p role="status">Loading…</p>;
  const current = deps.data.parents.map(parentOf);
  return (
    <div id="dependencies">
      <FormError message={error} />
      {deps.data.parents.length === 0 ? (
        <p>It depends on nothing: its alerts are never held.</p>
      ) : (
        <ul class="plain">
          {deps.data.parents.map((parent, i) => (
            <li key={`${parent.websiteId ?? ''}-${parent.monitorId ?? ''}`}>
              {parent.name} <StatusBadge status={parent.status} />{' '}
              {editable && (
                <button type="button" class="link" onClick={() => save(current.filter((_, j) => j !== i))}>
                  Remove<span class="visually-hidden"> {parent.name}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {deps.data.children.length > 0 && (
        <p>
          Depending on it (their alerts wait while it is down):{' '}
          {deps.data.children.map((child) => child.name).join(', ')}
        </p>
      )}
      {editable &&
        (adding ? (
          <AddParent
            website={website}
            onCancel={() => setAdding(false)}
            onAdd={async (parent) => {
              if (await save([...current, parent])) setAdding(false);
            }}
          />
        ) : (
          <button type="button" onClick={() => setAdding(true)}>
            Add what it depends on
          </button>
        ))}
    </div>
  );
}

/** Picks a parent: a website, then its HTTP check or one of its monitors. */
function AddParent({
  website,
  onAdd,
  onCancel,
}: {
  website: Website;
  onAdd: (parent: Parent) => Promise<void>;
  onCancel: () => void;
}) {
  const websites = useApiQuery(['websites', 'summaries', 'dependency-choices'], async () =>
    must(await api.GET('/api/websites/summaries', { params: { query: { limit: PARENT_CHOICES } } })),
  );
  const choices = websites.data ?? [];
  // Another website first (its HTTP check is the usual parent); this one only for its monitors.
  const [picking, setChosen] = useState<string | null>(null);
  const chosen =
    picking ?? choices.find((w) => w.publicId !== website.publicId)?.publicId ?? website.publicId;
  const [check, setCheck] = useState('http');
  const monitors = useMonitors(chosen, 0);
  const owner = choices.find((w) => w.publicId === chosen);
  // This website's own HTTP check cannot be its parent: its first monitor is the first choice.
  const own = chosen === website.publicId;
  const firstMonitor = monitors.data?.items[0];
  const picked = own && check === 'http' ? (firstMonitor ? String(firstMonitor.id) : '') : check;
  const submit = (event: Event) => {
    event.preventDefault();
    if (!owner || picked === '') return;
    void onAdd(picked === 'http' ? { websiteId: owner.id } : { monitorId: Number(picked) });
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label="Add a dependency">
      <Field label="Website" hint="Another website, or this one for one of its monitors">
        {(props) => (
          <select
            {...props}
            value={chosen}
            onChange={(e) => {
              setChosen(e.currentTarget.value);
              setCheck('http');
            }}
          >
            {choices.map((w) => (
              <option key={w.publicId} value={w.publicId}>
                {w.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label="Check"
        hint={
          own && monitors.data && !firstMonitor
            ? 'This website has no other checks to depend on: choose another website, or add a heartbeat, DNS or port check to this one first'
            : 'While it is down, this website’s alerts are held'
        }
      >
        {(props) => (
          <select
            {...props}
            value={picked}
            disabled={own && monitors.data !== undefined && !firstMonitor}
            onChange={(e) => setCheck(e.currentTarget.value)}
          >
            {!own && <option value="http">Its HTTP check</option>}
            {(monitors.data?.items ?? []).map((monitor) => (
              <option key={monitor.id} value={String(monitor.id)}>
                {KIND_NAME[monitor.kind] ?? monitor.kind}: {monitor.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="actions">
        <button type="submit" class="primary" disabled={picked === ''}>
          Add
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
