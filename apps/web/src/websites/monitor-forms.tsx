import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import type { Schemas } from '../api/client.js';
import { Field, FormActions, FormError } from '../ui/form.js';
import type { Bound } from '../ui/use-form.js';

/** A monitor's kind. */
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
  'api-flow': 'API flow',
  browser: 'browser journey',
  crawl: 'site crawl',
  lighthouse: 'Lighthouse check',
};
/** …and as a label: "Ping check" (a name such as gRPC keeps its own case). */
export const KIND_NAME = Object.fromEntries(
  Object.entries(NOUN).map(([kind, noun]) => [
    kind,
    /^[a-z][a-z]/.test(noun) ? `${noun.charAt(0).toUpperCase()}${noun.slice(1)}` : noun,
  ]),
) as Record<Kind, string>;

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

/** A number control bound to a form (`form.bind`). */
export function NumberInput({ min, ...props }: Bound & { id: string; min?: number }) {
  return <input {...props} type="number" inputMode="numeric" min={min ?? 0} />;
}

/** How often a DNS or port check runs and how long it may take: both forms ask the same. */
export function CheckTiming({
  errors,
  interval,
  timeout,
}: {
  errors: Record<string, string | undefined>;
  interval: Bound;
  timeout: Bound;
}) {
  return (
    <div class="row">
      <Field label="Check every (seconds)" error={errors.intervalSeconds}>
        {(field) => <NumberInput {...field} min={10} {...interval} />}
      </Field>
      <Field label="Timeout (seconds)" error={errors.timeoutSeconds}>
        {(field) => <NumberInput {...field} min={1} {...timeout} />}
      </Field>
    </div>
  );
}
