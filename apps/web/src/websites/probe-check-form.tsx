import { useEffect, useState } from 'preact/hooks';
import { api, problemText } from '../api/client.js';
import { monitorKeys, useMonitorLatest, useMonitorUptime } from '../api/monitors.js';
import { write } from '../api/query.js';
import { formatIn } from '../maintenance/zoned-time.js';
import { Check, Field } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import {
  CheckTiming,
  Choice,
  type FormProps,
  KIND_NAME,
  MonitorForm,
  NOUN,
  NumberInput,
  seconds,
  toNumber,
} from './monitor-forms.js';
import { runNowText } from './monitor-runs.js';
import { initialText, type KindField, kindFields, sentValue } from './probe-kind-fields.js';
import type { ProbeCheck, ProbeKind } from './probe-kinds.js';

const LABEL: Record<string, string> = {
  host: 'Host',
  port: 'Port',
  count: 'Echo requests each check',
  maxLossPercent: 'Lost replies allowed (%)',
  maxRttMs: 'Slow above (ms, average round trip)',
  payload: 'Payload sent',
  payloadEncoding: 'Payload as',
  tls: 'TLS: the connection encrypted, the certificate checked',
  service: 'Service',
  metadata: 'Metadata sent',
  url: 'Address (ws:// or wss://)',
  headers: 'Headers sent',
  subprotocol: 'Subprotocol',
  send: 'Message sent once open',
  security: 'Security',
  expect: 'The reply must',
};
const OPTION_LABEL: Record<string, string> = {
  text: 'Text',
  hex: 'Hex digits',
  starttls: 'STARTTLS',
  tls: 'TLS at once',
  none: 'None (clear text)',
};

type Values = { name: string; interval: string; timeout: string } & Record<`field.${string}`, string>;

/** A check of a probe kind, its fields as the API's document lists them. */
export function ProbeCheckForm({
  websiteRef,
  host,
  kind,
  check,
  onDone,
}: FormProps & { kind: ProbeKind; check: ProbeCheck | null }) {
  const [fields, setFields] = useState<KindField[] | null>(null);
  // The kind's own fields are `field.<key>` (their path in the body is `<key>`), as text.
  const form = useForm<Values, Record<string, unknown>>(
    {
      name: check?.name ?? '',
      interval: String(check?.intervalSeconds ?? 300),
      timeout: String(check?.timeoutSeconds ?? 10),
    },
    {
      shows: (path) => path !== '',
      body: (v) => ({
        ...Object.fromEntries(
          (fields ?? []).flatMap((field) => {
            // A credential shown as "(set)" goes back as "(set)": the API keeps the sealed value.
            const value = sentValue(field, v[`field.${field.key}`] ?? '');
            return value === undefined ? [] : [[field.key, value]];
          }),
        ),
        intervalSeconds: Number(toNumber(v.interval, 300)),
        timeoutSeconds: Number(toNumber(v.timeout, 10)),
        ...(v.name.trim() ? { name: v.name } : {}),
      }),
    },
  );
  const { errors } = form;

  // Filled once the kind's fields are read (again for another kind or check).
  useEffect(() => {
    void kindFields().then((all) => {
      const own = all[kind];
      setFields(own);
      const stored = (check ?? {}) as Record<string, unknown>;
      form.reset({
        ...form.values,
        ...Object.fromEntries(
          own.map((field) => [`field.${field.key}`, initialText(field, stored[field.key])]),
        ),
      });
    });
  }, [kind, check]);

  const save = async () => {
    const body = form.check();
    if (!body) return;
    const answer = check
      ? await api.PATCH('/api/monitors/{id}', { params: { path: { id: check.id } }, body })
      : await api.POST('/api/websites/{websiteRef}/monitors', {
          params: { path: { websiteRef } },
          body: { ...body, kind } as never,
        });
    if (form.answered(answer) && answer.data) onDone(answer.data);
  };

  const set = (key: string) => (text: string) => form.set(`field.${key}`, text);
  return (
    <MonitorForm
      title={check ? `Edit “${check.name}”` : `New ${NOUN[kind]}`}
      submit={check ? `Save the ${NOUN[kind]}` : `Add the ${NOUN[kind]}`}
      message={form.message}
      onSubmit={save}
      onCancel={() => onDone(null)}
    >
      {fields === null && <p class="muted">Loading the fields…</p>}
      {fields?.map((field) => {
        const label = `${LABEL[field.key] ?? field.key}${field.required ? '' : ' (optional)'}`;
        const value = form.values[`field.${field.key}`] ?? '';
        const error = Object.entries(errors).find(
          ([path]) => path === field.key || path.startsWith(`${field.key}.`),
        )?.[1];
        const hint =
          field.key === 'host' ? `Empty: the website’s host${host ? `, ${host}` : ''}.` : field.description;
        if (field.kind === 'boolean')
          return (
            <Check
              key={field.key}
              label={label}
              checked={value === 'true'}
              onChange={(on) => set(field.key)(String(on))}
              error={error}
            />
          );
        if (field.kind === 'choice')
          return (
            <Choice
              key={field.key}
              legend={label}
              value={value}
              options={field.options.map((option) => [option, OPTION_LABEL[option] ?? option])}
              onChange={set(field.key)}
            />
          );
        if (field.kind === 'expect') {
          const [how = 'contains', ...rest] = value.split(':');
          const wanted = rest.join(':');
          return (
            <div class="row" key={field.key}>
              <Choice
                legend={label}
                value={how === 'matches' ? 'matches' : 'contains'}
                options={[
                  ['contains', 'contain this text'],
                  ['matches', 'match this RE2 pattern'],
                ]}
                onChange={(next) => set(field.key)(`${next}:${wanted}`)}
              />
              <Field label="Expected (optional)" error={error} hint="Empty: any reply will do.">
                {(props) => (
                  <input
                    {...props}
                    spellcheck={false}
                    value={wanted}
                    onInput={(e) => set(field.key)(`${how}:${e.currentTarget.value}`)}
                  />
                )}
              </Field>
            </div>
          );
        }
        return (
          <Field
            key={field.key}
            label={label}
            error={error}
            hint={field.kind === 'pairs' ? 'One per line: Name: value.' : hint}
          >
            {(props) =>
              field.kind === 'number' ? (
                <NumberInput {...props} {...form.bind(`field.${field.key}`, field.key)} />
              ) : field.kind === 'pairs' ? (
                <textarea
                  {...props}
                  rows={3}
                  spellcheck={false}
                  {...form.bind(`field.${field.key}`, field.key)}
                />
              ) : (
                <input
                  {...props}
                  spellcheck={false}
                  autocomplete="off"
                  placeholder={field.key === 'host' ? host : undefined}
                  {...form.bind(`field.${field.key}`, field.key)}
                />
              )
            }
          </Field>
        );
      })}
      <CheckTiming
        errors={errors}
        interval={form.bind('interval', 'intervalSeconds')}
        timeout={form.bind('timeout', 'timeoutSeconds')}
      />
      <Field label="Name (optional)" error={errors.name} hint="Empty: named after what it checks.">
        {(props) => <input {...props} {...form.bind('name')} />}
      </Field>
    </MonitorForm>
  );
}

/** What the latest result of a probe check said: when, from where, each step's time, what it saw. */
export function ProbeDetails({
  check: c,
  zone,
  pollMs,
  editor,
}: {
  check: ProbeCheck;
  zone: string;
  pollMs: number;
  editor: boolean;
}) {
  const [trial, setTrial] = useState<string | null>(null);
  const runNow = async () => {
    setTrial('Running…');
    const { data, error } = await write(
      api.POST('/api/monitors/{id}/run', { params: { path: { id: c.id } } }),
      monitorKeys.one(c.id),
    );
    setTrial(data ? runNowText(data) : problemText(error));
  };
  const latest = useMonitorLatest(c.id, c.updatedAt, pollMs);
  const uptime = useMonitorUptime(c.id, c.updatedAt, pollMs);
  const r = latest.data;
  const timings = Object.entries(r?.timings ?? {}).filter(([step, ms]) => ms !== null && step !== 'totalMs');
  const evidence = (r?.evidence ?? {}) as Record<string, unknown>;
  const said = ['greeting', 'reply', 'servingStatus', 'protocol']
    .map((key) => [key, evidence[key]] as const)
    .filter(([, value]) => typeof value === 'string' && value !== '');
  const certificate = evidence.certificate as
    | { subject: string; validTo: string; daysLeft: number }
    | null
    | undefined;
  return (
    <dl>
      <dt>Kind</dt>
      <dd>{KIND_NAME[c.kind]}</dd>
      <dt>Checked</dt>
      <dd>
        every {seconds(c.intervalSeconds)}, within {seconds(c.timeoutSeconds)}
      </dd>
      <dt>Uptime, 24 hours</dt>
      <dd>
        {uptime.data === undefined
          ? 'Loading…'
          : uptime.data.uptimePercent === null
            ? 'no result yet'
            : `${uptime.data.uptimePercent.toFixed(2)} % (${uptime.data.checks} checks${uptime.data.downtimeSeconds > 0 ? `, down ${seconds(uptime.data.downtimeSeconds)}` : ''})`}
      </dd>
      <dt>Latest result</dt>
      <dd>
        {r === undefined
          ? 'Loading…'
          : r === null
            ? 'none yet: the first check is on its way'
            : `${formatIn(r.at, zone)} from ${r.region}: ${r.status}${r.address ? ` (${r.address})` : ''} in ${Math.round(r.durationMs)} ms`}
        {timings.length > 0 && (
          <span class="muted">
            {' — '}
            {timings.map(([step, ms]) => `${step.replace(/Ms$/, '')} ${Math.round(ms ?? 0)} ms`).join(', ')}
          </span>
        )}
      </dd>
      {said.map(([key, value]) => (
        <>
          <dt>
            {{ greeting: 'Greeting', reply: 'Reply', servingStatus: 'Health', protocol: 'Subprotocol' }[key]}
          </dt>
          <dd>
            <code>{String(value)}</code>
          </dd>
        </>
      ))}
      {certificate && (
        <>
          <dt>Certificate</dt>
          <dd>
            {certificate.subject}, expires {formatIn(certificate.validTo, zone)} ({certificate.daysLeft} days)
          </dd>
        </>
      )}
      {editor && (
        <>
          <dt>Test</dt>
          <dd>
            <button type="button" class="link" onClick={() => void runNow()}>
              Run it now <span class="visually-hidden">({c.name})</span>
            </button>{' '}
            <span role="status">{trial}</span>
          </dd>
        </>
      )}
    </dl>
  );
}
