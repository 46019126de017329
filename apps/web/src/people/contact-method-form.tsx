import { useState } from 'preact/hooks';
import {
  CONTACT_METHOD_TYPES,
  createContactMethodBody,
  patchContactMethodBody,
} from '../../../../libs/contact-methods/contact-method.schema.js';
import { api } from '../api/client.js';
import { type ContactEvent, type ContactMethod, contactMethodKeys } from '../api/contact-methods.js';
import { write } from '../api/query.js';
import { browserZone, knownZones } from '../maintenance/zoned-time.js';
import { canEdit, useSession } from '../session.js';
import { Check, Field, FormError } from '../ui/form.js';
import { type Form, useForm } from '../ui/use-form.js';
import { EVENT_NAMES, METHOD_TYPES, WEEKDAYS } from './contact-method-words.js';

/** A method's controls: its type and address (only when added), label, hours and events. */
type MethodValues = {
  type: string;
  address: string;
  label: string;
  limited: boolean;
  days: string[];
  from: string;
  to: string;
  timezone: string;
  events: string[];
};

function methodValues(method: ContactMethod | null): MethodValues {
  const hours = method?.hours;
  return {
    type: method?.type ?? 'email',
    address: method?.address ?? '',
    label: method?.label ?? '',
    limited: Boolean(hours),
    days: (hours?.days ?? [1, 2, 3, 4, 5]).map(String),
    from: hours?.from ?? '09:00',
    to: hours?.to ?? '18:00',
    timezone: hours?.timezone ?? browserZone(),
    events: method?.events ?? ['alert', 'recovery', 'acknowledged'],
  };
}

/** The label, hours and events as the API takes them (on adding and on changing alike). */
const settingsBody = (v: MethodValues) => ({
  label: v.label.trim() || null,
  hours: v.limited
    ? { timezone: v.timezone, days: v.days.map(Number).sort((a, b) => a - b), from: v.from, to: v.to }
    : null,
  events: v.events as ContactEvent[],
});

/** The address as the API takes it: a phone number as people write it (+49 151 1234-5678) in E.164. */
function addressOf(type: ContactMethod['type'], written: string): string {
  const trimmed = written.trim();
  return METHOD_TYPES[type].input === 'tel' ? trimmed.replace(/[\s().-]/g, '') : trimmed;
}

/** Adds a method: the API sends it a code at once, and the new method (unverified) is handed on. */
export function AddMethodForm({ onAdded }: { onAdded: (method: ContactMethod) => void }) {
  const { caller } = useSession();
  const form = useForm(() => methodValues(null), {
    schema: createContactMethodBody,
    body: (v) => ({
      type: v.type as ContactMethod['type'],
      address: addressOf(v.type as ContactMethod['type'], v.address),
      ...settingsBody(v),
    }),
  });
  const kind = METHOD_TYPES[form.values.type as ContactMethod['type']];
  // Each add sends a code: a second click while the first is under way sends nothing.
  const [sending, setSending] = useState(false);
  const add = async (event: Event) => {
    event.preventDefault();
    if (sending) return;
    const body = form.check();
    if (!body) return;
    setSending(true);
    try {
      const answer = await write(api.POST('/api/me/contact-methods', { body }), contactMethodKeys.mine);
      if (!form.answered(answer) || !answer.data) return;
      form.reset(methodValues(null));
      onAdded(answer.data);
    } finally {
      setSending(false);
    }
  };
  return (
    <form class="card" onSubmit={add} noValidate aria-labelledby="add-method-title">
      <h3 id="add-method-title">Add a contact method</h3>
      <FormError message={form.message} />
      {/* 409: nothing in the organization sends to this type; whoever may add channels is shown where. */}
      {form.errors.type && canEdit(caller) && (
        <p>
          You can add one: <a href="/channels/new">add a channel</a>, organization-wide.
        </p>
      )}
      <div class="row">
        <Field label="Type" error={form.errors.type}>
          {(props) => (
            <select {...props} {...form.bind('type')}>
              {CONTACT_METHOD_TYPES.map((type) => (
                <option key={type} value={type}>
                  {METHOD_TYPES[type].name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Address" error={form.errors.address} hint={kind.hint}>
          {(props) => (
            <input
              {...props}
              // Preact types each input type apart: one chosen at run time is typed as one of them.
              type={kind.input as 'text'}
              inputMode={kind.input === 'tel' ? 'tel' : undefined}
              autocomplete={kind.input === 'email' ? 'email' : kind.input === 'tel' ? 'tel' : 'off'}
              placeholder={kind.placeholder}
              required
              {...form.bind('address')}
            />
          )}
        </Field>
      </div>
      <SettingsFields form={form} />
      <div class="actions">
        <button type="submit" class="primary" disabled={sending}>
          {sending ? 'Sending a code…' : 'Add and send a code'}
        </button>
      </div>
    </form>
  );
}

/** Changes a method's label, hours and events (its address stays: another address is another method). */
export function EditMethodForm({ method, onDone }: { method: ContactMethod; onDone: () => void }) {
  const form = useForm(() => methodValues(method), { schema: patchContactMethodBody, body: settingsBody });
  const save = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    const answer = await write(
      api.PATCH('/api/me/contact-methods/{id}', { params: { path: { id: method.id } }, body }),
      contactMethodKeys.mine,
    );
    if (form.answered(answer)) onDone();
  };
  return (
    <form
      onSubmit={save}
      noValidate
      aria-label={`Change ${METHOD_TYPES[method.type].name} ${method.address}`}
    >
      <FormError message={form.message} />
      <SettingsFields form={form} />
      <div class="actions">
        <button type="submit" class="primary">
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A method's label, the hours it may be used and the events it is told of. */
function SettingsFields({ form }: { form: Form<MethodValues, unknown> }) {
  const { values, errors } = form;
  const toggle = (key: 'days' | 'events', value: string, on: boolean) =>
    form.set(key, on ? [...values[key], value] : values[key].filter((v) => v !== value));
  const zones = knownZones();
  return (
    <>
      <Field label="Label (optional)" error={errors.label} hint="E.g. “work phone”">
        {(props) => <input {...props} maxLength={100} {...form.bind('label')} />}
      </Field>
      <fieldset>
        <legend>When it may be used</legend>
        <Check
          label="Only on some days and hours"
          checked={values.limited}
          onChange={(on) => form.set('limited', on)}
          error={errors.hours}
        />
        {values.limited && (
          <>
            <fieldset class="days">
              <legend>Days</legend>
              <div class="row">
                {WEEKDAYS.map(({ day, name }) => (
                  <Check
                    key={day}
                    label={name}
                    checked={values.days.includes(String(day))}
                    onChange={(on) => toggle('days', String(day), on)}
                  />
                ))}
              </div>
              {errors['hours.days'] && <p class="error-text">⚠ {errors['hours.days']}</p>}
            </fieldset>
            <div class="row">
              <Field label="From" error={errors['hours.from']}>
                {(props) => <input {...props} type="time" required {...form.bind('from', 'hours.from')} />}
              </Field>
              <Field label="To" error={errors['hours.to']}>
                {(props) => <input {...props} type="time" required {...form.bind('to', 'hours.to')} />}
              </Field>
              <Field label="Time zone" error={errors['hours.timezone']}>
                {(props) => (
                  <select {...props} {...form.bind('timezone', 'hours.timezone')}>
                    {(zones.includes(values.timezone) ? zones : [values.timezone, ...zones]).map((zone) => (
                      <option key={zone} value={zone}>
                        {zone}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
            <p class="hint">A “to” before “from” runs over midnight; the same time: the whole day.</p>
          </>
        )}
      </fieldset>
      <fieldset>
        <legend>What it is told of</legend>
        {(['alert', 'recovery', 'acknowledged'] as const).map((kind) => (
          <Check
            key={kind}
            label={EVENT_NAMES[kind]}
            checked={values.events.includes(kind)}
            onChange={(on) => toggle('events', kind, on)}
          />
        ))}
        {errors.events && <p class="error-text">⚠ {errors.events}</p>}
      </fieldset>
    </>
  );
}
