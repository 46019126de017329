import { useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client.js';
import { Field } from '../ui/form.js';
import {
  CheckTiming,
  Choice,
  type FormProps,
  MonitorForm,
  NumberInput,
  paths,
  toNumber,
  useProblem,
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
  const [recordType, setRecordType] = useState<(typeof RECORD_TYPES)[number]>(check?.recordType ?? 'A');
  const [name, setName] = useState(check?.name ?? '');
  const [lookup, setLookup] = useState(check?.host ?? '');
  const [mode, setMode] = useState<'values' | 'unchanged'>(
    check?.expected === 'unchanged' ? 'unchanged' : 'values',
  );
  const [values, setValues] = useState(Array.isArray(check?.expected) ? check.expected.join('\n') : '');
  const [interval, setIntervalText] = useState(String(check?.intervalSeconds ?? 300));
  const [timeout, setTimeoutText] = useState(String(check?.timeoutSeconds ?? 5));
  const [relearn, setRelearn] = useState(String(check?.relearnAfterSeconds ?? 86_400));
  const { errors, message, show } = useProblem(
    paths(
      'recordType',
      'host',
      mode === 'values' ? 'expected' : 'relearnAfterSeconds',
      'intervalSeconds',
      'timeoutSeconds',
      'name',
    ),
  );
  const [valueErrors, setValueErrors] = useState<string[]>([]);

  const save = async () => {
    const body = {
      recordType,
      expected:
        mode === 'unchanged'
          ? ('unchanged' as const)
          : values
              .split('\n')
              .map((v) => (recordType === 'TXT' ? v : v.trim()))
              .filter((v) => v.trim() !== ''),
      intervalSeconds: Number(toNumber(interval, 300)),
      timeoutSeconds: Number(toNumber(timeout, 5)),
      relearnAfterSeconds: Number(toNumber(relearn, 86_400)),
      ...(name.trim() ? { name } : {}),
      ...(lookup.trim() ? { host: lookup } : {}),
    };
    const answer = check
      ? await api.PATCH('/api/dns-checks/{id}', { params: { path: { id: check.id } }, body })
      : await api.POST('/api/websites/{websiteRef}/dns-checks', { params: { path: { websiteRef } }, body });
    if (answer.data) return onDone(answer.data);
    show(answer.error);
    // Each refused value is named by its index (`expected.0`): all of them show at the one field.
    setValueErrors(
      (answer.error?.errors ?? [])
        .filter((e) => e.path === 'expected' || e.path.startsWith('expected.'))
        .map((e) => e.message),
    );
  };

  return (
    <MonitorForm
      title={check ? `Edit “${check.name}”` : 'New DNS check'}
      submit={check ? 'Save the DNS check' : 'Add the DNS check'}
      message={message}
      onSubmit={save}
      onCancel={() => onDone(null)}
    >
      <div class="row">
        <Field label="Record type" error={errors.recordType}>
          {(props) => (
            <select
              {...props}
              value={recordType}
              onChange={(e) => setRecordType(e.currentTarget.value as typeof recordType)}
            >
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
              value={lookup}
              onInput={(e) => setLookup(e.currentTarget.value)}
            />
          )}
        </Field>
      </div>
      <Choice
        legend="Alert when"
        value={mode}
        options={[
          ['values', 'The answer is not these values'],
          ['unchanged', 'The answer changes (the first one is learned)'],
        ]}
        onChange={setMode}
      />
      {mode === 'values' ? (
        <Field
          label="Expected values (one per line)"
          error={valueErrors.length > 0 ? valueErrors.join(' · ') : undefined}
          hint={`In any order: ${VALUE_HINT[recordType]}.`}
        >
          {(props) => (
            <textarea
              {...props}
              rows={3}
              spellcheck={false}
              value={values}
              onInput={(e) => setValues(e.currentTarget.value)}
            />
          )}
        </Field>
      ) : (
        <Field
          label="Learn a changed answer after (seconds)"
          error={errors.relearnAfterSeconds}
          hint="Unless you accept it sooner; 86400: a day."
        >
          {(props) => <NumberInput {...props} min={60} value={relearn} onInput={setRelearn} />}
        </Field>
      )}
      <CheckTiming
        errors={errors}
        interval={interval}
        onInterval={setIntervalText}
        timeout={timeout}
        onTimeout={setTimeoutText}
      />
      <Field label="Name (optional)" error={errors.name} hint="Empty: the record type and host.">
        {(props) => <input {...props} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
    </MonitorForm>
  );
}
