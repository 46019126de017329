import { useEffect, useState } from 'preact/hooks';
import { createWindowBody, patchWindowBody } from '../../../../libs/maintenance/maintenance-window.schema.js';
import { api, problemText, type Schemas } from '../api/client.js';
import { maintenanceKeys, type MaintenanceWindow as Window } from '../api/maintenance.js';
import { write } from '../api/query.js';
import { Check, Field, FormActions, FormError } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { UNIT, WEEKDAYS, type Weekday } from './recurrence-text.js';
import { browserZone, formatIn, isoToZoned, knownZones, zonedToIso } from './zoned-time.js';

function inOneHour(zone: string, hours: number): string {
  const at = new Date(Date.now() + hours * 3_600_000);
  at.setUTCMinutes(0, 0, 0);
  return isoToZoned(at.toISOString(), zone);
}

type Frequency = '' | 'daily' | 'weekly' | 'monthly';

/** When a window starts, ends and repeats, as the API takes it (an unknown wall-clock time: empty). */
function schedule(values: {
  timezone: string;
  startsAt: string;
  endsAt: string;
  frequency: Frequency;
  interval: string;
  weekdays: string[];
  until: string;
}) {
  const { timezone, frequency, weekdays } = values;
  const until = values.until ? zonedToIso(values.until, timezone) : null;
  const recurrence = frequency
    ? {
        frequency,
        interval: Number(values.interval) || 1,
        ...(frequency === 'weekly' && weekdays.length > 0 ? { byWeekday: weekdays as Weekday[] } : {}),
        ...(until ? { until } : {}),
      }
    : null;
  return {
    startsAt: zonedToIso(values.startsAt, timezone) ?? '',
    endsAt: zonedToIso(values.endsAt, timezone) ?? '',
    timezone,
    recurrence,
  };
}

/** Creates or edits one window: one-off or recurring, with its next 5 occurrences previewed by the API. */
export function WindowForm({
  websiteId,
  window,
  onDone,
}: {
  websiteId: number;
  window: Window | null;
  onDone: () => void;
}) {
  const initialZone = window?.timezone ?? browserZone();
  const recurrence = window?.recurrence;
  const form = useForm(
    {
      title: window?.title ?? '',
      timezone: initialZone,
      startsAt: window ? isoToZoned(window.startsAt, initialZone) : inOneHour(initialZone, 1),
      endsAt: window ? isoToZoned(window.endsAt, initialZone) : inOneHour(initialZone, 2),
      frequency: (recurrence?.frequency ?? '') as Frequency,
      interval: String(recurrence?.interval ?? 1),
      weekdays: (recurrence?.byWeekday ?? []) as string[],
      until: recurrence?.until ? isoToZoned(recurrence.until, initialZone) : '',
    },
    {
      schema: window ? patchWindowBody : createWindowBody,
      body: (values) => ({ ...(window ? {} : { websiteId }), title: values.title, ...schedule(values) }),
    },
  );
  const { values, errors } = form;
  const { timezone, frequency } = values;
  const [preview, setPreview] = useState<{
    items: Schemas['MaintenancePreview']['items'];
    error: string | null;
  }>({
    items: [],
    error: null,
  });

  // The preview follows the form (a moment after the last change): the API computes the occurrences.
  useEffect(() => {
    const body = schedule(values);
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
  }, [
    values.startsAt,
    values.endsAt,
    timezone,
    frequency,
    values.interval,
    values.weekdays.join(','),
    values.until,
  ]);

  const save = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    const answer = window
      ? await write(
          api.PATCH('/api/maintenance-windows/{id}', { params: { path: { id: window.id } }, body }),
          maintenanceKeys.all,
        )
      : await write(
          api.POST('/api/maintenance-windows', { body: { ...body, websiteId } }),
          maintenanceKeys.all,
        );
    if (form.answered(answer)) onDone();
  };
  const zones = knownZones();

  return (
    <form onSubmit={save} noValidate aria-label={window ? `Edit ${window.title}` : 'New maintenance window'}>
      <h3>{window ? `Edit “${window.title}”` : 'New maintenance window'}</h3>
      <FormError message={form.message} />
      <Field label="Title" error={errors.title}>
        {(props) => <input {...props} required {...form.bind('title')} />}
      </Field>
      <Field
        label="Time zone"
        error={errors.timezone}
        hint="Start and end repeat on this wall clock, across daylight-saving changes."
      >
        {(props) => (
          <select {...props} {...form.bind('timezone')}>
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
          {(props) => <input {...props} type="datetime-local" required {...form.bind('startsAt')} />}
        </Field>
        <Field label="Ends" error={errors.endsAt}>
          {(props) => <input {...props} type="datetime-local" required {...form.bind('endsAt')} />}
        </Field>
      </div>
      <div class="row">
        <Field label="Repeats" error={errors['recurrence.frequency'] ?? errors.recurrence}>
          {(props) => (
            <select {...props} {...form.bind('frequency', 'recurrence.frequency')}>
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
                {...form.bind('interval', 'recurrence.interval')}
              />
            )}
          </Field>
        )}
        {frequency && (
          <Field label="Until (optional)" error={errors['recurrence.until']}>
            {(props) => (
              <input {...props} type="datetime-local" {...form.bind('until', 'recurrence.until')} />
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
                checked={values.weekdays.includes(key)}
                onChange={(on) =>
                  form.set(
                    'weekdays',
                    WEEKDAYS.map(([k]) => k).filter((k) => (k === key ? on : values.weekdays.includes(k))),
                  )
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
      <FormActions submit={window ? 'Save the window' : 'Add the window'} onCancel={onDone} />
    </form>
  );
}
