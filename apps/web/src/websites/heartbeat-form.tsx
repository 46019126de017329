import { useEffect, useState } from 'preact/hooks';
import { api, fieldErrors, problemText, type Schemas } from '../api/client.js';
import { formatIn, knownZones } from '../maintenance/zoned-time.js';
import { Field } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { Choice, type FormProps, MonitorForm, NumberInput, paths, toNumber } from './monitor-forms.js';

/** The schedule as the API takes it: a period, or a cron expression in a time zone. */
function schedule(v: { mode: 'period' | 'cron'; period: string; cron: string; timezone: string }) {
  return (
    v.mode === 'period' ? { periodSeconds: Number(v.period) } : { cron: v.cron, timezone: v.timezone }
  ) satisfies Schemas['HeartbeatSchedule'];
}

export function HeartbeatForm({
  websiteRef,
  heartbeat,
  zone,
  onDone,
}: FormProps & { heartbeat: Schemas['Heartbeat'] | null; zone: string }) {
  const schedule0 = heartbeat?.schedule;
  const form = useForm(
    {
      name: heartbeat?.name ?? '',
      mode: (schedule0 && 'cron' in schedule0 ? 'cron' : 'period') as 'period' | 'cron',
      period: schedule0 && 'periodSeconds' in schedule0 ? String(schedule0.periodSeconds) : '3600',
      cron: schedule0 && 'cron' in schedule0 ? schedule0.cron : '',
      timezone: schedule0 && 'cron' in schedule0 ? schedule0.timezone : zone,
      grace: String(heartbeat?.graceSeconds ?? 300),
      maxRun: heartbeat?.maxRunSeconds ? String(heartbeat.maxRunSeconds) : '',
    },
    {
      shows: paths('name', 'schedule', 'graceSeconds', 'maxRunSeconds'),
      body: (v) => ({
        name: v.name,
        schedule: schedule(v),
        graceSeconds: Number(toNumber(v.grace, 300)),
        maxRunSeconds: toNumber(v.maxRun, null),
      }),
    },
  );
  const { values, errors } = form;
  const { mode, period, cron, timezone, grace } = values;
  const [preview, setPreview] = useState<{ times: string[]; error: string | null }>({
    times: [],
    error: null,
  });

  // The next pings expected, computed by the API a moment after the last change.
  useEffect(() => {
    if (mode === 'cron' && cron.trim() === '') {
      setPreview({ times: [], error: 'Enter a cron expression to see when pings are expected.' });
      return;
    }
    let stale = false;
    const timer = setTimeout(async () => {
      const { data, error } = await api.POST('/api/heartbeats/preview', {
        body: { schedule: schedule(values), graceSeconds: Number(toNumber(grace, 0)) },
      });
      if (stale) return;
      const why = Object.values(fieldErrors(error)).join('; ') || problemText(error);
      setPreview(data ? { times: data.nextExpectedAt, error: null } : { times: [], error: why });
    }, 300);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [mode, period, cron, timezone, grace]);

  const save = async () => {
    const body = form.check();
    if (!body) return;
    const answer = heartbeat
      ? await api.PATCH('/api/heartbeats/{id}', { params: { path: { id: heartbeat.id } }, body })
      : await api.POST('/api/websites/{websiteRef}/heartbeats', { params: { path: { websiteRef } }, body });
    if (form.answered(answer) && answer.data) onDone(answer.data);
  };
  const zones = knownZones();

  return (
    <MonitorForm
      title={heartbeat ? `Edit “${heartbeat.name}”` : 'New heartbeat'}
      submit={heartbeat ? 'Save the heartbeat' : 'Add the heartbeat'}
      message={form.message}
      onSubmit={save}
      onCancel={() => onDone(null)}
    >
      <Field label="Name" error={errors.name} hint="What the job is, such as “Nightly backup”.">
        {(props) => <input {...props} required {...form.bind('name')} />}
      </Field>
      <Choice
        legend="The job runs"
        value={mode}
        options={[
          ['period', 'Every so many seconds'],
          ['cron', 'On a cron schedule'],
        ]}
        onChange={(next) => form.set('mode', next)}
      />
      {mode === 'period' ? (
        <Field
          label="Period (seconds)"
          error={errors['schedule.periodSeconds'] ?? errors.schedule}
          hint="3600: hourly; 86400: daily."
        >
          {(props) => <NumberInput {...props} min={10} {...form.bind('period', 'schedule.periodSeconds')} />}
        </Field>
      ) : (
        <div class="row">
          <Field
            label="Cron expression"
            error={errors['schedule.cron'] ?? errors.schedule}
            hint="Five fields: minute hour day month weekday, such as 30 2 * * *."
          >
            {(props) => (
              <input
                {...props}
                required
                spellcheck={false}
                autocomplete="off"
                {...form.bind('cron', 'schedule.cron')}
              />
            )}
          </Field>
          <Field label="Time zone" error={errors['schedule.timezone']}>
            {(props) => (
              <select {...props} {...form.bind('timezone', 'schedule.timezone')}>
                {(zones.includes(timezone) ? zones : [timezone, ...zones]).map((z) => (
                  <option key={z} value={z}>
                    {z}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      )}
      <div class="row">
        <Field
          label="Grace (seconds)"
          error={errors.graceSeconds}
          hint="How late a ping may be before it is missed."
        >
          {(props) => <NumberInput {...props} {...form.bind('grace', 'graceSeconds')} />}
        </Field>
        <Field
          label="Longest run (seconds, optional)"
          error={errors.maxRunSeconds}
          hint="A run started with /start and not finished within this alerts."
        >
          {(props) => <NumberInput {...props} min={1} {...form.bind('maxRun', 'maxRunSeconds')} />}
        </Field>
      </div>
      <section class="card" aria-label="Next pings expected">
        <h4>Next pings expected ({zone})</h4>
        {preview.error ? (
          <p class="muted">{preview.error}</p>
        ) : (
          <ol class="occurrences" aria-live="polite">
            {preview.times.map((iso) => (
              <li key={iso}>{formatIn(iso, zone)}</li>
            ))}
          </ol>
        )}
      </section>
    </MonitorForm>
  );
}
