import { api, type Schemas } from '../api/client.js';
import { Field } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import {
  CheckTiming,
  Choice,
  type FormProps,
  MonitorForm,
  NumberInput,
  paths,
  toNumber,
} from './monitor-forms.js';

const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'CAA'] as const;
const VALUE_HINT: Record<(typeof RECORD_TYPES)[number], string> = {
  A: 'IPv4 addresses, such as 192.0.2.1',
  AAAA: 'IPv6 addresses, such as 2001:db8::1',
  CNAME: 'the host it points to',
  MX: 'priority and mail server, such as 10 mx1.example.com',
  TXT: 'the text as it is (case and spaces count)',
  NS: 'name servers, such as ns1.example.net',
  CAA: 'flags, tag and value, such as 0 issue "letsencrypt.org"',
};

export function DnsForm({
  websiteRef,
  host,
  check,
  onDone,
}: FormProps & { check: Schemas['DnsCheck'] | null }) {
  const form = useForm(
    {
      recordType: (check?.recordType ?? 'A') as (typeof RECORD_TYPES)[number],
      name: check?.name ?? '',
      lookup: check?.host ?? '',
      mode: (check?.expected === 'unchanged' ? 'unchanged' : 'values') as 'values' | 'unchanged',
      values: Array.isArray(check?.expected) ? check.expected.join('\n') : '',
      interval: String(check?.intervalSeconds ?? 300),
      timeout: String(check?.timeoutSeconds ?? 5),
      relearn: String(check?.relearnAfterSeconds ?? 86_400),
    },
    {
      // The field of the mode not chosen is not shown: its refusal is named above the form.
      shows: (path, v) =>
        paths(
          'recordType',
          'host',
          v.mode === 'values' ? 'expected' : 'relearnAfterSeconds',
          'intervalSeconds',
          'timeoutSeconds',
          'name',
        )(path),
      body: (v) => ({
        recordType: v.recordType,
        expected:
          v.mode === 'unchanged'
            ? ('unchanged' as const)
            : v.values
                .split('\n')
                .map((value) => (v.recordType === 'TXT' ? value : value.trim()))
                .filter((value) => value.trim() !== ''),
        intervalSeconds: Number(toNumber(v.interval, 300)),
        timeoutSeconds: Number(toNumber(v.timeout, 5)),
        relearnAfterSeconds: Number(toNumber(v.relearn, 86_400)),
        ...(v.name.trim() ? { name: v.name } : {}),
        ...(v.lookup.trim() ? { host: v.lookup } : {}),
      }),
    },
  );
  const { values, errors } = form;
  // Each refused value is named by its index (`expected.0`): all of them show at the one field.
  const valueErrors = Object.entries(errors)
    .filter(([path]) => path === 'expected' || path.startsWith('expected.'))
    .map(([, message]) => message);

  const save = async () => {
    const body = form.check();
    if (!body) return;
    const answer = check
      ? await api.PATCH('/api/dns-checks/{id}', { params: { path: { id: check.id } }, body })
      : await api.POST('/api/websites/{websiteRef}/dns-checks', { params: { path: { websiteRef } }, body });
    if (form.answered(answer) && answer.data) onDone(answer.data);
  };

  return (
    <MonitorForm
      title={check ? `Edit “${check.name}”` : 'New DNS check'}
      submit={check ? 'Save the DNS check' : 'Add the DNS check'}
      message={form.message}
      onSubmit={save}
      onCancel={() => onDone(null)}
    >
      <div class="row">
        <Field label="Record type" error={errors.recordType}>
          {(props) => (
            <select {...props} {...form.bind('recordType')}>
              {RECORD_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Host" error={errors.host} hint={`Empty: the website’s host${host ? `, ${host}` : ''}.`}>
          {(props) => (
            <input
              {...props}
              placeholder={host}
              spellcheck={false}
              autocomplete="off"
              {...form.bind('lookup', 'host')}
            />
          )}
        </Field>
      </div>
      <Choice
        legend="Alert when"
        value={values.mode}
        options={[
          ['values', 'The answer is not these values'],
          ['unchanged', 'The answer changes (the first one is learned)'],
        ]}
        onChange={(mode) => form.set('mode', mode)}
      />
      {values.mode === 'values' ? (
        <Field
          label="Expected values (one per line)"
          error={valueErrors.length > 0 ? valueErrors.join(' · ') : undefined}
          hint={`In any order: ${VALUE_HINT[values.recordType]}.`}
        >
          {(props) => (
            <textarea {...props} rows={3} spellcheck={false} {...form.bind('values', 'expected')} />
          )}
        </Field>
      ) : (
        <Field
          label="Learn a changed answer after (seconds)"
          error={errors.relearnAfterSeconds}
          hint="Unless you accept it sooner; 86400: a day."
        >
          {(props) => <NumberInput {...props} min={60} {...form.bind('relearn', 'relearnAfterSeconds')} />}
        </Field>
      )}
      <CheckTiming
        errors={errors}
        interval={form.bind('interval', 'intervalSeconds')}
        timeout={form.bind('timeout', 'timeoutSeconds')}
      />
      <Field label="Name (optional)" error={errors.name} hint="Empty: the record type and host.">
        {(props) => <input {...props} {...form.bind('name')} />}
      </Field>
    </MonitorForm>
  );
}
