import { useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client.js';
import { Check, Field } from '../ui/form.js';
import {
  CheckTiming,
  type FormProps,
  MonitorForm,
  NumberInput,
  paths,
  toNumber,
  useProblem,
} from './monitor-forms.js';

export function PortForm({
  websiteRef,
  host,
  check,
  onDone,
}: FormProps & { check: Schemas['PortCheck'] | null }) {
  const [name, setName] = useState(check?.name ?? '');
  const [target, setTarget] = useState(check?.host ?? '');
  const [port, setPort] = useState(check ? String(check.port) : '');
  const [tls, setTls] = useState(check?.tls ?? false);
  const [banner, setBanner] = useState(check?.expectBanner ?? '');
  const [interval, setIntervalText] = useState(String(check?.intervalSeconds ?? 300));
  const [timeout, setTimeoutText] = useState(String(check?.timeoutSeconds ?? 10));
  const { errors, message, show } = useProblem(
    paths('host', 'port', 'tls', 'expectBanner', 'intervalSeconds', 'timeoutSeconds', 'name'),
  );

  const save = async () => {
    const body = {
      port: Number(port),
      tls,
      expectBanner: banner === '' ? null : banner,
      intervalSeconds: Number(toNumber(interval, 300)),
      timeoutSeconds: Number(toNumber(timeout, 10)),
      ...(name.trim() ? { name } : {}),
      ...(target.trim() ? { host: target } : {}),
    };
    const answer = check
      ? await api.PATCH('/api/port-checks/{id}', { params: { path: { id: check.id } }, body })
      : await api.POST('/api/websites/{websiteRef}/port-checks', { params: { path: { websiteRef } }, body });
    if (answer.data) onDone(answer.data);
    else show(answer.error);
  };

  return (
    <MonitorForm
      title={check ? `Edit “${check.name}”` : 'New port check'}
      submit={check ? 'Save the port check' : 'Add the port check'}
      message={message}
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
              value={target}
              onInput={(e) => setTarget(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Port" error={errors.port} hint="Such as 25 (SMTP), 993 (IMAPS), 5432 (PostgreSQL).">
          {(props) => <NumberInput {...props} min={1} value={port} onInput={setPort} />}
        </Field>
      </div>
      <Check
        label="TLS: a handshake after connecting, the certificate checked"
        checked={tls}
        onChange={setTls}
        error={errors.tls}
      />
      <Field
        label="Expected banner (optional)"
        error={errors.expectBanner}
        hint="The first line the server sends must start with it, such as 220 for SMTP."
      >
        {(props) => <input {...props} value={banner} onInput={(e) => setBanner(e.currentTarget.value)} />}
      </Field>
      <CheckTiming
        errors={errors}
        interval={interval}
        onInterval={setIntervalText}
        timeout={timeout}
        onTimeout={setTimeoutText}
      />
      <Field label="Name (optional)" error={errors.name} hint="Empty: host:port.">
        {(props) => <input {...props} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
    </MonitorForm>
  );
}
