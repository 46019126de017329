import type { ComponentChildren } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import { api, fieldErrors, type Problem, problemText, type Schemas } from '../api/client.js';
import { formatIn, knownZones } from '../maintenance/zoned-time.js';
import { Check, Field, FormActions, FormError } from '../ui/form.js';

export type Kind = Schemas['Monitor']['kind'];
/** What a kind is called in a sentence: "Add a ping check". */
export const NOUN: Record<Kind, string> = {
  heartbeat: 'heartbeat',
  dns: 'DNS check',
  port: 'port check',
  icmp: 'ping check',
  udp: 'UDP check',
  grpc: 'gRPC check',
  websocket: 'WebSocket check',
  smtp: 'SMTP check',
  imap: 'IMAP check',
  pop3: 'POP3 check',
};
/** …and as a label: "Ping check" (a name such as gRPC keeps its own case). */
export const KIND_NAME = Object.fromEntries(
  Object.entries(NOUN).map(([kind, noun]) => [
    kind,
    /^[a-z][a-z]/.test(noun) ? `${noun.charAt(0).toUpperCase()}${noun.slice(1)}` : noun,
  ]),
) as Record<Kind, string>;
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

/** A number of seconds in words: "90 s", "5 min", "2 h", "1 day". */
export function seconds(total: number): string {
  const units: Array<[number, string, string]> = [
    [86_400, 'day', 'days'],
    [3600, 'h', 'h'],
    [60, 'min', 'min'],
  ];
  for (const [size, one, many] of units)
    if (total >= size && total % size === 0) return `${total / size} ${total === size ? one : many}`;
  return `${total} s`;
}

/** A number field's text as the API takes it: empty is `empty` (a default, or null). */
export function toNumber<T>(text: string, empty: T): number | T {
  return text.trim() === '' ? empty : Number(text);
}

export interface FormProps {
  websiteRef: string;
  /** The website's host: what an empty host means. */
  host: string;
  onDone: (saved: Schemas['Monitor'] | null) => void;
}

/**
 * What an answer's problem shows: each field's error at its field, and above the form what names
 * no field shown here (or, when all are shown, that they are).
 */
export function useProblem(shown: (path: string) => boolean) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  return {
    errors,
    message,
    show(problem: Problem | undefined) {
      const all = problem?.errors ?? [];
      const elsewhere = all.filter((e) => !shown(e.path)).map((e) => `${e.path}: ${e.message}`);
      setErrors(fieldErrors(problem));
      setMessage(
        all.length === 0
          ? problemText(problem)
          : elsewhere.length > 0
            ? elsewhere.join('; ')
            : 'Some values were refused: see the marked fields.',
      );
    },
  };
}

/** Paths a form shows at its fields: these names, and what is under them (`expected.0`, `schedule.cron`). */
export const paths =
  (...names: string[]) =>
  (path: string) =>
    names.some((name) => path === name || path.startsWith(`${name}.`));

export function MonitorForm({
  title,
  submit,
  message,
  onSubmit,
  onCancel,
  children,
}: {
  title: string;
  submit: string;
  message: string | null;
  onSubmit: () => Promise<void>;
  onCancel: () => void;
  children: ComponentChildren;
}) {
  const id = useId();
  return (
    <form
      class="card monitor-form"
      noValidate
      aria-labelledby={id}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      <h3 id={id}>{title}</h3>
      <FormError message={message} />
      {children}
      <FormActions submit={submit} onCancel={onCancel} />
    </form>
  );
}

/** Two or more choices as radio buttons in a group. */
export function Choice<T extends string>({
  legend,
  value,
  options,
  onChange,
}: {
  legend: string;
  value: T;
  options: Array<[T, string]>;
  onChange: (value: T) => void;
}) {
  const name = useId();
  return (
    <fieldset class="choice">
      <legend>{legend}</legend>
      <div class="row">
        {options.map(([key, label]) => (
          <div class="field check" key={key}>
            <input
              type="radio"
              id={`${name}-${key}`}
              name={name}
              checked={value === key}
              onChange={() => onChange(key)}
            />
            <label for={`${name}-${key}`}>{label}</label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

export function NumberInput({
  value,
  onInput,
  min,
  ...props
}: {
  id: string;
  value: string;
  onInput: (value: string) => void;
  min?: number;
}) {
  return (
    <input
      {...props}
      type="number"
      inputMode="numeric"
      min={min ?? 0}
      value={value}
      onInput={(e) => onInput(e.currentTarget.value)}
    />
  );
}

/** How often a DNS or port check runs and how long it may take: both forms ask the same. */
export function CheckTiming(props: {
  errors: Record<string, string | undefined>;
  interval: string;
  onInterval: (value: string) => void;
  timeout: string;
  onTimeout: (value: string) => void;
}) {
  return (
    <div class="row">
      <Field label="Check every (seconds)" error={props.errors.intervalSeconds}>
        {(field) => <NumberInput {...field} min={10} value={props.interval} onInput={props.onInterval} />}
      </Field>
      <Field label="Timeout (seconds)" error={props.errors.timeoutSeconds}>
        {(field) => <NumberInput {...field} min={1} value={props.timeout} onInput={props.onTimeout} />}
      </Field>
    </div>
  );
}

export function HeartbeatForm({
  websiteRef,
  heartbeat,
  zone,
  onDone,
}: FormProps & { heartbeat: Schemas['Heartbeat'] | null; zone: string }) {
  const schedule0 = heartbeat?.schedule;
  const [name, setName] = useState(heartbeat?.name ?? '');
  const [mode, setMode] = useState<'period' | 'cron'>(schedule0 && 'cron' in schedule0 ? 'cron' : 'period');
  const [period, setPeriod] = useState(
    schedule0 && 'periodSeconds' in schedule0 ? String(schedule0.periodSeconds) : '3600',
  );
  const [cron, setCron] = useState(schedule0 && 'cron' in schedule0 ? schedule0.cron : '');
  const [timezone, setTimezone] = useState(schedule0 && 'cron' in schedule0 ? schedule0.timezone : zone);
  const [grace, setGrace] = useState(String(heartbeat?.graceSeconds ?? 300));
  const [maxRun, setMaxRun] = useState(heartbeat?.maxRunSeconds ? String(heartbeat.maxRunSeconds) : '');
  const [preview, setPreview] = useState<{ times: string[]; error: string | null }>({
    times: [],
    error: null,
  });
  const { errors, message, show } = useProblem(paths('name', 'schedule', 'graceSeconds', 'maxRunSeconds'));

  const schedule = (): Schemas['HeartbeatSchedule'] =>
    mode === 'period' ? { periodSeconds: Number(period) } : { cron, timezone };

  // The next pings expected, computed by the API a moment after the last change.
  useEffect(() => {
    if (mode === 'cron' && cron.trim() === '') {
      setPreview({ times: [], error: 'Enter a cron expression to see when pings are expected.' });
      return;
    }
    let stale = false;
    const timer = setTimeout(async () => {
      const { data, error } = await api.POST('/api/heartbeats/preview', {
        body: { schedule: schedule(), graceSeconds: Number(toNumber(grace, 0)) },
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
    const body = {
      name,
      schedule: schedule(),
      graceSeconds: Number(toNumber(grace, 300)),
      maxRunSeconds: toNumber(maxRun, null),
    };
    const answer = heartbeat
      ? await api.PATCH('/api/heartbeats/{id}', { params: { path: { id: heartbeat.id } }, body })
      : await api.POST('/api/websites/{websiteRef}/heartbeats', { params: { path: { websiteRef } }, body });
    if (answer.data) onDone(answer.data);
    else show(answer.error);
  };
  const zones = knownZones();

  return (
    <MonitorForm
      title={heartbeat ? `Edit “${heartbeat.name}”` : 'New heartbeat'}
      submit={heartbeat ? 'Save the heartbeat' : 'Add the heartbeat'}
      message={message}
      onSubmit={save}
      onCancel={() => onDone(null)}
    >
      <Field label="Name" error={errors.name} hint="What the job is, such as “Nightly backup”.">
        {(props) => (
          <input {...props} required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        )}
      </Field>
      <Choice
        legend="The job runs"
        value={mode}
        options={[
          ['period', 'Every so many seconds'],
          ['cron', 'On a cron schedule'],
        ]}
        onChange={setMode}
      />
      {mode === 'period' ? (
        <Field
          label="Period (seconds)"
          error={errors['schedule.periodSeconds'] ?? errors.schedule}
          hint="3600: hourly; 86400: daily."
        >
          {(props) => <NumberInput {...props} min={10} value={period} onInput={setPeriod} />}
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
                value={cron}
                onInput={(e) => setCron(e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="Time zone" error={errors['schedule.timezone']}>
            {(props) => (
              <select {...props} value={timezone} onChange={(e) => setTimezone(e.currentTarget.value)}>
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
          {(props) => <NumberInput {...props} value={grace} onInput={setGrace} />}
        </Field>
        <Field
          label="Longest run (seconds, optional)"
          error={errors.maxRunSeconds}
          hint="A run started with /start and not finished within this alerts."
        >
          {(props) => <NumberInput {...props} min={1} value={maxRun} onInput={setMaxRun} />}
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
