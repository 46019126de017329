import { useEffect, useState } from 'preact/hooks';
import { api, fieldErrors, must, problemText, type Schemas } from '../api/client.js';
import { allWebsites, type WebsiteSummary } from '../api/organization.js';
import { canEdit, useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { Check, Field, FormActions, FormError } from '../ui/form.js';
import { useLoad } from '../ui/use-load.js';
import { browserZone, formatIn, isoToZoned, knownZones, zonedToIso } from './zoned-time.js';

type Window = Schemas['MaintenanceWindow'];
type Weekday = 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA' | 'SU';
const WEEKDAYS: Array<[Weekday, string]> = [
  ['MO', 'Monday'],
  ['TU', 'Tuesday'],
  ['WE', 'Wednesday'],
  ['TH', 'Thursday'],
  ['FR', 'Friday'],
  ['SA', 'Saturday'],
  ['SU', 'Sunday'],
];
const UNIT = { daily: ['day', 'days'], weekly: ['week', 'weeks'], monthly: ['month', 'months'] } as const;

/** "Every 2 weeks on Monday, Thursday until …" — a recurrence in words. */
export function describeRecurrence(window: Pick<Window, 'recurrence' | 'timezone'>): string {
  const r = window.recurrence;
  if (!r) return 'Once';
  const unit = UNIT[r.frequency];
  let text = r.interval === 1 ? `Every ${unit[0]}` : `Every ${r.interval} ${unit[1]}`;
  if (r.byWeekday?.length)
    text += ` on ${r.byWeekday.map((d) => WEEKDAYS.find(([k]) => k === d)?.[1] ?? d).join(', ')}`;
  if (r.until) text += ` until ${formatIn(r.until, window.timezone)}`;
  return text;
}

/** A website's windows with their editor: on the website's page. */
export function WebsiteMaintenance({ websiteId }: { websiteId: number }) {
  const { caller } = useSession();
  const editor = canEdit(caller);
  const windows = useLoad(
    async () => must(await api.GET('/api/maintenance-windows', { params: { query: { websiteId } } })),
    [websiteId],
  );
  const [editing, setEditing] = useState<Window | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Window | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const remove = async (window: Window) => {
    setDeleting(null);
    const { error, response } = await api.DELETE('/api/maintenance-windows/{id}', {
      params: { path: { id: window.id } },
    });
    setMessage(response.ok ? null : problemText(error));
    await windows.reload();
  };
  return (
    <div id="maintenance">
      <FormError message={message ?? windows.error} />
      {windows.data?.length === 0 && (
        <p>
          No maintenance windows.{' '}
          {editor && 'Plan one so that planned work neither opens incidents nor sends alerts.'}
        </p>
      )}
      {windows.data && windows.data.length > 0 && (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">First</th>
              <th scope="col">Repeats</th>
              {editor && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {windows.data.map((w) => (
              <tr key={w.id}>
                <td data-label="Title">{w.title}</td>
                <td data-label="First">
                  {formatIn(w.startsAt, w.timezone)} – {formatIn(w.endsAt, w.timezone)}{' '}
                  <span class="muted">({w.timezone})</span>
                </td>
                <td data-label="Repeats">{describeRecurrence(w)}</td>
                {editor && (
                  <td data-label="Actions">
                    <ul class="inline">
                      <li>
                        <button type="button" class="link" onClick={() => setEditing(w)}>
                          Edit <span class="visually-hidden">{w.title}</span>
                        </button>
                      </li>
                      <li>
                        <button type="button" class="link" onClick={() => setDeleting(w)}>
                          Delete <span class="visually-hidden">{w.title}</span>
                        </button>
                      </li>
                    </ul>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editor && editing === null && (
        <p>
          <button type="button" onClick={() => setEditing('new')}>
            Add a maintenance window
          </button>
        </p>
      )}
      {editor && editing !== null && (
        <WindowForm
          key={editing === 'new' ? 'new' : editing.id}
          websiteId={websiteId}
          window={editing === 'new' ? null : editing}
          onDone={(saved) => {
            setEditing(null);
            if (saved) void windows.reload();
          }}
        />
      )}
      <Confirm
        open={deleting !== null}
        title={`Delete the window “${deleting?.title ?? ''}”?`}
        confirmLabel="Delete the window"
        cancelLabel="Keep it"
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      >
        Its occurrences stop; one running now ends at once and checks count again.
      </Confirm>
    </div>
  );
}

function inOneHour(zone: string, hours: number): string {
  const at = new Date(Date.now() + hours * 3_600_000);
  at.setUTCMinutes(0, 0, 0);
  return isoToZoned(at.toISOString(), zone);
}

/** Creates or edits one window: one-off or recurring, with its next 5 occurrences previewed by the API. */
export function WindowForm({
  websiteId,
  window,
  onDone,
}: {
  websiteId: number;
  window: Window | null;
  onDone: (saved: boolean) => void;
}) {
  const initialZone = window?.timezone ?? browserZone();
  const [title, setTitle] = useState(window?.title ?? '');
  const [timezone, setTimezone] = useState(initialZone);
  const [startsAt, setStartsAt] = useState(
    window ? isoToZoned(window.startsAt, initialZone) : inOneHour(initialZone, 1),
  );
  const [endsAt, setEndsAt] = useState(
    window ? isoToZoned(window.endsAt, initialZone) : inOneHour(initialZone, 2),
  );
  const [frequency, setFrequency] = useState<'' | 'daily' | 'weekly' | 'monthly'>(
    window?.recurrence?.frequency ?? '',
  );
  const [interval, setInterval] = useState(String(window?.recurrence?.interval ?? 1));
  const [weekdays, setWeekdays] = useState<Weekday[]>(window?.recurrence?.byWeekday ?? []);
  const [until, setUntil] = useState(
    window?.recurrence?.until ? isoToZoned(window.recurrence.until, initialZone) : '',
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [preview, setPreview] = useState<{
    items: Schemas['MaintenancePreview']['items'];
    error: string | null;
  }>({
    items: [],
    error: null,
  });

  const schedule = () => {
    const start = zonedToIso(startsAt, timezone);
    const end = zonedToIso(endsAt, timezone);
    const untilIso = until ? zonedToIso(until, timezone) : null;
    const recurrence = frequency
      ? {
          frequency,
          interval: Number(interval) || 1,
          ...(frequency === 'weekly' && weekdays.length > 0 ? { byWeekday: weekdays } : {}),
          ...(untilIso ? { until: untilIso } : {}),
        }
      : null;
    return { startsAt: start ?? '', endsAt: end ?? '', timezone, recurrence };
  };

  // The preview follows the form (a moment after the last change): the API computes the occurrences.
  useEffect(() => {
    const body = schedule();
    if (!body.startsAt || !body.endsAt) {
      setPreview({ items: [], error: 'Choose when it starts and ends.' });
      return;
    }
    let stale = false;
    const timer = setTimeout(async () => {
      const { data, error } = await api.POST('/api/maintenance-windows/preview', {
        body: { ...body, limit: 5 },
      });
      if (stale) return;
      setPreview(data ? { items: data.items, error: null } : { items: [], error: problemText(error) });
    }, 250);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [startsAt, endsAt, timezone, frequency, interval, weekdays.join(','), until]);

  const save = async (event: Event) => {
    event.preventDefault();
    const body = schedule();
    const answer = window
      ? await api.PATCH('/api/maintenance-windows/{id}', {
          params: { path: { id: window.id } },
          body: { title, ...body },
        })
      : await api.POST('/api/maintenance-windows', { body: { websiteId, title, ...body } });
    if (answer.data) onDone(true);
    else {
      setErrors(fieldErrors(answer.error));
      setMessage(problemText(answer.error));
    }
  };
  const zones = knownZones();

  return (
    <form onSubmit={save} noValidate aria-label={window ? `Edit ${window.title}` : 'New maintenance window'}>
      <h3>{window ? `Edit “${window.title}”` : 'New maintenance window'}</h3>
      <FormError message={message} />
      <Field label="Title" error={errors.title}>
        {(props) => (
          <input {...props} required value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
        )}
      </Field>
      <Field
        label="Time zone"
        error={errors.timezone}
        hint="Start and end repeat on this wall clock, across daylight-saving changes."
      >
        {(props) => (
          <select
            {...props}
            value={timezone}
            onChange={(e) => {
              const zone = e.currentTarget.value;
              setTimezone(zone);
            }}
          >
            {(zones.includes(timezone) ? zones : [timezone, ...zones]).map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="row">
        <Field label="Starts" error={errors.startsAt}>
          {(props) => (
            <input
              {...props}
              type="datetime-local"
              required
              value={startsAt}
              onInput={(e) => setStartsAt(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Ends" error={errors.endsAt}>
          {(props) => (
            <input
              {...props}
              type="datetime-local"
              required
              value={endsAt}
              onInput={(e) => setEndsAt(e.currentTarget.value)}
            />
          )}
        </Field>
      </div>
      <div class="row">
        <Field label="Repeats" error={errors['recurrence.frequency'] ?? errors.recurrence}>
          {(props) => (
            <select
              {...props}
              value={frequency}
              onChange={(e) => setFrequency(e.currentTarget.value as typeof frequency)}
            >
              <option value="">Does not repeat</option>
              <option value="daily">Daily</option>
              <option value="weekly">Weekly</option>
              <option value="monthly">Monthly (same day of the month)</option>
            </select>
          )}
        </Field>
        {frequency && (
          <Field label={`Every how many ${UNIT[frequency][1]}`} error={errors['recurrence.interval']}>
            {(props) => (
              <input
                {...props}
                type="number"
                min={1}
                max={365}
                value={interval}
                onInput={(e) => setInterval(e.currentTarget.value)}
              />
            )}
          </Field>
        )}
        {frequency && (
          <Field label="Until (optional)" error={errors['recurrence.until']}>
            {(props) => (
              <input
                {...props}
                type="datetime-local"
                value={until}
                onInput={(e) => setUntil(e.currentTarget.value)}
              />
            )}
          </Field>
        )}
      </div>
      {frequency === 'weekly' && (
        <fieldset>
          <legend>On these days (none: the first window’s day)</legend>
          <div class="row">
            {WEEKDAYS.map(([key, name]) => (
              <Check
                key={key}
                label={name}
                checked={weekdays.includes(key)}
                onChange={(on) =>
                  setWeekdays(WEEKDAYS.map(([k]) => k).filter((k) => (k === key ? on : weekdays.includes(k))))
                }
              />
            ))}
          </div>
          {errors['recurrence.byWeekday'] && <p class="error-text">⚠ {errors['recurrence.byWeekday']}</p>}
        </fieldset>
      )}
      <section aria-labelledby="preview-title" class="card">
        <h4 id="preview-title">Next occurrences ({timezone})</h4>
        {preview.error ? (
          <p class="muted">{preview.error}</p>
        ) : preview.items.length === 0 ? (
          <p class="muted">None ahead: every occurrence is over.</p>
        ) : (
          <ol aria-live="polite" class="occurrences">
            {preview.items.map((o) => (
              <li key={o.startsAt}>
                {formatIn(o.startsAt, timezone)} – {formatIn(o.endsAt, timezone)}
              </li>
            ))}
          </ol>
        )}
      </section>
      <FormActions submit={window ? 'Save the window' : 'Add the window'} onCancel={() => onDone(false)} />
    </form>
  );
}

/** Every window of the organization, website by website (the API lists them per website). */
export function Maintenance() {
  const [progress, setProgress] = useState<{ done: number; of: number } | null>(null);
  const all = useLoad(async () => {
    const websites = await allWebsites();
    const found: Array<{ website: WebsiteSummary; windows: Window[] }> = [];
    let done = 0;
    setProgress({ done, of: websites.length });
    const queue = [...websites];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let website = queue.shift(); website; website = queue.shift()) {
          const { data } = await api.GET('/api/maintenance-windows', {
            params: { query: { websiteId: website.id } },
          });
          if (data?.length) found.push({ website, windows: data });
          setProgress({ done: ++done, of: websites.length });
        }
      }),
    );
    return found.sort((a, b) => a.website.name.localeCompare(b.website.name));
  }, []);
  return (
    <section>
      <h1>Maintenance</h1>
      <p>Planned work: checks go on, but no incident opens and no alert goes out while a window runs.</p>
      <FormError message={all.error} />
      {!all.data && progress && (
        <p role="status">
          Reading the windows of {progress.of} websites…{' '}
          <progress max={progress.of} value={progress.done} aria-label="Websites read" /> {progress.done}/
          {progress.of}
        </p>
      )}
      {all.data?.length === 0 && (
        <p>No maintenance windows yet: open a website’s page and add one under “Maintenance”.</p>
      )}
      {all.data?.map(({ website, windows }) => (
        <div class="group" key={website.id}>
          <h2>
            <a href={`/websites/${website.publicId}`}>{website.name}</a>
          </h2>
          <ul>
            {windows.map((w) => (
              <li key={w.id}>
                <strong>{w.title}</strong>: {formatIn(w.startsAt, w.timezone)} –{' '}
                {formatIn(w.endsAt, w.timezone)} ({w.timezone}); {describeRecurrence(w)}
              </li>
            ))}
          </ul>
        </div>
      ))}
      {all.data && all.data.length > 0 && (
        <p class="muted">To change or delete a window, open its website’s page.</p>
      )}
    </section>
  );
}
