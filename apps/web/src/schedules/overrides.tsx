import { useState } from 'preact/hooks';
import { createOverrideBody } from '../../../../libs/oncall/schedule.schema.js';
import { api, problemText } from '../api/client.js';
import { write } from '../api/query.js';
import { type Schedule, scheduleKeys, useOnCallPeople, useOverrides } from '../api/schedules.js';
import { formatIn, isoToZoned, zonedToIso } from '../maintenance/zoned-time.js';
import { Field, FormError, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';

/** The next full hour and the one a day later, on the schedule's clock. */
function nextHours(zone: string): { from: string; to: string } {
  const at = new Date(Date.now() + 3_600_000);
  at.setUTCMinutes(0, 0, 0);
  return {
    from: isoToZoned(at.toISOString(), zone),
    to: isoToZoned(new Date(at.getTime() + 86_400_000).toISOString(), zone),
  };
}

/** The schedule's overrides (someone covering a span), and for editors a form to add one and removal. */
export function Overrides({ schedule, editor }: { schedule: Schedule; editor: boolean }) {
  const zone = schedule.timezone;
  const overrides = useOverrides(schedule.id);
  const [message, setMessage] = useState<string | null>(null);
  const now = Date.now();
  const shown = (overrides.data ?? []).filter((o) => Date.parse(o.to) > now - 7 * 86_400_000);
  const remove = async (id: number) => {
    const { error, response } = await write(
      api.DELETE('/api/schedules/{id}/overrides/{overrideId}', {
        params: { path: { id: schedule.id, overrideId: id } },
      }),
      scheduleKeys.one(schedule.id),
    );
    setMessage(response.ok ? null : problemText(error));
  };
  return (
    <section aria-labelledby="overrides-heading">
      <h2 id="overrides-heading">Overrides</h2>
      <p class="muted">Someone covers a span: an override wins over every layer. Times in {zone}.</p>
      <FormError message={overrides.error ?? message} />
      {overrides.data && shown.length === 0 && <p>No overrides now or ahead.</p>}
      {shown.length > 0 && (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Who covers</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
              {editor && (
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {shown.map((o) => (
              <tr key={o.id}>
                <td data-label="Who covers">
                  {o.user ? o.user.name : `Removed user ${o.userId} (ignored)`}
                  {Date.parse(o.to) <= now && <span class="muted"> (ended)</span>}
                </td>
                <td data-label="From">{formatIn(o.from, zone)}</td>
                <td data-label="To">{formatIn(o.to, zone)}</td>
                {editor && (
                  <td data-label="Actions">
                    <button type="button" class="link" onClick={() => void remove(o.id)}>
                      Remove
                      <span class="visually-hidden">
                        {' '}
                        the override of {o.user?.name ?? `user ${o.userId}`} from {formatIn(o.from, zone)}
                      </span>
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editor && <OverrideForm schedule={schedule} />}
    </section>
  );
}

function OverrideForm({ schedule }: { schedule: Schedule }) {
  const zone = schedule.timezone;
  const people = useOnCallPeople();
  const start = () => ({ userId: '', ...nextHours(zone) });
  const form = useForm(start, {
    schema: createOverrideBody,
    body: (v) => ({
      userId: (v.userId ? Number(v.userId) : undefined) as number,
      from: zonedToIso(v.from, zone) ?? '',
      to: zonedToIso(v.to, zone) ?? '',
    }),
  });
  const { errors } = form;
  const [added, setAdded] = useState(false);
  const save = async (event: Event) => {
    event.preventDefault();
    setAdded(false);
    const body = form.check();
    if (!body) return;
    const answer = await write(
      api.POST('/api/schedules/{id}/overrides', { params: { path: { id: schedule.id } }, body }),
      scheduleKeys.one(schedule.id),
    );
    if (form.answered(answer)) {
      form.reset(start());
      setAdded(true);
    }
  };
  return (
    <form onSubmit={save} noValidate aria-label="Add an override" class="card">
      <h3>Add an override</h3>
      {added && <Notice>Override added.</Notice>}
      <FormError message={form.message ?? people.error} />
      <Field label="Who covers" error={errors.userId}>
        {(props) => (
          <select {...props} required {...form.bind('userId')}>
            <option value="">Choose a person…</option>
            {(people.data ?? []).map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.name} ({p.email})
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="row">
        <Field label="From" error={errors.from}>
          {(props) => <input {...props} type="datetime-local" required {...form.bind('from')} />}
        </Field>
        <Field label="To" error={errors.to} hint="At most 31 days later.">
          {(props) => <input {...props} type="datetime-local" required {...form.bind('to')} />}
        </Field>
      </div>
      <div class="actions">
        <button type="submit" class="primary">
          Add the override
        </button>
      </div>
    </form>
  );
}
