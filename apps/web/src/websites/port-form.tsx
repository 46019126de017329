import { api, type Schemas } from '../api/client.js';
import { Check, Field } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { CheckTiming, type FormProps, MonitorForm, NumberInput, paths, toNumber } from './monitor-forms.js';

export function PortForm({
  websiteRef,
  host,
  check,
  onDone,
}: FormProps & { check: Schemas['PortCheck'] | null }) {
  const form = useForm(
    {
      name: check?.name ?? '',
      target: check?.host ?? '',
      port: check ? String(check.port) : '',
      tls: check?.tls ?? false,
      banner: check?.expectBanner ?? '',
      interval: String(check?.intervalSeconds ?? 300),
      timeout: String(check?.timeoutSeconds ?? 10),
    },
    {
      shows: paths('host', 'port', 'tls', 'expectBanner', 'intervalSeconds', 'timeoutSeconds', 'name'),
      body: (v) => ({
        port: Number(v.port),
        tls: v.tls,
        expectBanner: v.banner === '' ? null : v.banner,
        intervalSeconds: Number(toNumber(v.interval, 300)),
        timeoutSeconds: Number(toNumber(v.timeout, 10)),
        ...(v.name.trim() ? { name: v.name } : {}),
        ...(v.target.trim() ? { host: v.target } : {}),
      }),
    },
  );
  const { errors } = form;

  const save = async () => {
    const body = form.check();
    if (!body) return;
    const answer = check
      ? await api.PATCH('/api/port-checks/{id}', { params: { path: { id: check.id } }, body })
      : await api.POST('/api/websites/{websiteRef}/port-checks', { params: { path: { websiteRef } }, body });
    if (form.answered(answer) && answer.data) onDone(answer.data);
  };

  return (
    <MonitorForm
      title={check ? `Edit “${check.name}”` : 'New port check'}
      submit={check ? 'Save the port check' : 'Add the port check'}
      message={form.message}
      onSubmit={save}
      onCancel={() => onDone(null)}
    >
      <div class="row">
        <Field label="Host" error={errors.host} hint={`Empty: the website’s host${host ? `, ${host}` : ''}.`}>
          {(props) => (
            <input
              {...props}
              placeholder={host}
              spellcheck={false}
              autocomplete="off"
              {...form.bind('target', 'host')}
            />
          )}
        </Field>
        <Field label="Port" error={errors.port} hint="Such as 25 (SMTP), 993 (IMAPS), 5432 (PostgreSQL).">
          {(props) => <NumberInput {...props} min={1} {...form.bind('port')} />}
        </Field>
      </div>
      <Check
        label="TLS: a handshake after connecting, the certificate checked"
        checked={form.values.tls}
        onChange={(on) => form.set('tls', on)}
        error={errors.tls}
      />
      <Field
        label="Expected banner (optional)"
        error={errors.expectBanner}
        hint="The first line the server sends must start with it, such as 220 for SMTP."
      >
        {(props) => <input {...props} {...form.bind('banner', 'expectBanner')} />}
      </Field>
      <CheckTiming
        errors={errors}
        interval={form.bind('interval', 'intervalSeconds')}
        timeout={form.bind('timeout', 'timeoutSeconds')}
      />
      <Field label="Name (optional)" error={errors.name} hint="Empty: host:port.">
        {(props) => <input {...props} {...form.bind('name')} />}
      </Field>
    </MonitorForm>
  );
}
