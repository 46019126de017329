import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, fieldErrors, must, problemText, type Schemas } from '../api/client.js';
import { useVisibleCustomers } from '../api/organization.js';
import { canEdit, useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { Check, Field, FormError, Loading, Notice } from '../ui/form.js';
import { useLoad } from '../ui/use-load.js';
import {
  type ChannelSchema,
  type ConfigField,
  channelSchema,
  fieldLabel,
  typeName,
} from './channel-schema.js';

/** Event kinds in words; a kind the API adds later shows as its code until named here. */
const EVENT_LABELS: Record<string, string> = {
  'website.down': 'Website down',
  'website.up': 'Website up again',
  'website.degraded': 'Website degraded (slow or a warning)',
  'website.unmonitored': 'Website no longer checked (no region serves it)',
  'website.monitored': 'Website checked again',
  'ssl.expiring': 'TLS certificate expiring',
  'ssl.invalid': 'TLS certificate invalid',
  'domain.expiring': 'Domain expiring',
  'maintenance.started': 'Maintenance started',
  'maintenance.ended': 'Maintenance ended',
  'incident.acknowledged': 'Incident acknowledged',
  'heartbeat.down': 'Heartbeat missed (a job did not ping)',
  'heartbeat.up': 'Heartbeat back (the job pinged)',
  'dns.down': 'DNS answer wrong or missing',
  'dns.up': 'DNS answer as expected again',
  'dns.changed': 'DNS answer changed',
  'port.down': 'Port not answering as expected',
  'port.up': 'Port answering again',
  test: 'Test sends',
};

type Channel = Schemas['Channel'];
type Delivery = Schemas['Delivery'];

export function Channels() {
  const { caller } = useSession();
  const channels = useLoad(async () => must(await api.GET('/api/notification-channels')), []);
  return (
    <section>
      <h1>Notification channels</h1>
      <p>
        Where alerts go when a website goes down, comes back, or a certificate or domain is about to expire.
      </p>
      <FormError message={channels.error} />
      {canEdit(caller) && (
        <p>
          <a class="button" href="/channels/new">
            Add a channel
          </a>
        </p>
      )}
      {channels.data?.length === 0 && (
        <p>No channels yet: add one (Slack, Teams, a webhook, e-mail …), then send it a test.</p>
      )}
      {channels.data && channels.data.length > 0 && (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Channel</th>
              <th scope="col">Type</th>
              <th scope="col">State</th>
              <th scope="col">Receives</th>
            </tr>
          </thead>
          <tbody>
            {channels.data.map((c) => (
              <tr key={c.id}>
                <td data-label="Channel">
                  <a href={`/channels/${c.id}`}>{c.name}</a>
                </td>
                <td data-label="Type">{typeName(c.type)}</td>
                <td data-label="State">{c.enabled ? '✓ On' : '⏸ Off'}</td>
                <td data-label="Receives">
                  {c.events.length} kinds of event
                  {c.scope.listedOnly
                    ? ', from the websites that choose it'
                    : c.scope.customerId !== undefined
                      ? ', from one customer'
                      : ', from every website'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function ChannelPage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const { caller } = useSession();
  const isNew = params.ref === 'new';
  const id = Number(params.ref);
  const schema = useLoad(channelSchema, []);
  const channel = useLoad(
    async () =>
      isNew ? null : must(await api.GET('/api/notification-channels/{id}', { params: { path: { id } } })),
    [params.ref],
  );
  const [secret, setSecret] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const editor = canEdit(caller);

  if (channel.notFound)
    return (
      <section>
        <h1>Channel not found</h1>
        <p>
          <a href="/channels">Back to the channels</a>
        </p>
      </section>
    );
  if (!schema.data || channel.data === undefined) return <Loading error={schema.error ?? channel.error} />;
  const c = channel.data;
  const remove = async () => {
    setDeleting(false);
    if (!c) return;
    const { error, response } = await api.DELETE('/api/notification-channels/{id}', {
      params: { path: { id: c.id } },
    });
    if (response.ok) route('/channels');
    else setMessage(problemText(error));
  };
  return (
    <section>
      <p>
        <a href="/channels">← Channels</a>
      </p>
      <h1>{c ? c.name : 'Add a channel'}</h1>
      <FormError message={message} />
      {secret && (
        <Notice>
          Its signing secret, shown this once: <code class="secret">{secret}</code> — keep it in your receiver
          to check each delivery’s signature.
        </Notice>
      )}
      {c && <TestSend channel={c} editor={editor} />}
      {editor ? (
        <>
          {c && <h2>Settings</h2>}
          <ChannelForm
            key={c?.id ?? 'new'}
            channel={c}
            schema={schema.data}
            onSaved={(saved, newSecret) => {
              if (newSecret) setSecret(newSecret);
              if (!c) route(`/channels/${saved.id}`);
              else void channel.reload();
            }}
          />
        </>
      ) : (
        c && (
          <p>
            {typeName(c.type)} · {c.enabled ? '✓ On' : '⏸ Off'}
          </p>
        )
      )}
      {c && <DeliveryLog channelId={c.id} editor={editor} />}
      {c && editor && (
        <>
          <h2>Delete</h2>
          <button type="button" class="danger" onClick={() => setDeleting(true)}>
            Delete the channel…
          </button>
          <Confirm
            open={deleting}
            title={`Delete ${c.name}?`}
            confirmLabel="Delete the channel"
            cancelLabel="Keep it"
            onConfirm={() => void remove()}
            onCancel={() => setDeleting(false)}
          >
            No more alerts go to it; websites that chose it stop naming it.
          </Confirm>
        </>
      )}
    </section>
  );
}

function initialValue(field: ConfigField, channel: Channel | null): string | boolean {
  const value = channel?.config[field.key];
  if (field.kind === 'boolean') return value === true;
  if (field.secret || value === undefined || value === null) return '';
  return Array.isArray(value) ? value.join('\n') : String(value);
}

function toConfigValue(field: ConfigField, value: string | boolean): unknown {
  if (field.kind === 'boolean') return value === true;
  const text = String(value).trim();
  if (field.kind === 'number') return Number(text);
  if (field.kind === 'list')
    return text
      .split(/[\n,]/)
      .map((v) => v.trim())
      .filter(Boolean);
  return text;
}

function ChannelForm({
  channel,
  schema,
  onSaved,
}: {
  channel: Channel | null;
  schema: ChannelSchema;
  onSaved: (channel: Channel, secret: string | undefined) => void;
}) {
  const customers = useVisibleCustomers();
  const [type, setType] = useState<string>(channel?.type ?? 'slack');
  const [name, setName] = useState(channel?.name ?? '');
  const [enabled, setEnabled] = useState(channel?.enabled ?? true);
  const [events, setEvents] = useState<string[]>(channel?.events ?? schema.events);
  const [scope, setScope] = useState<'all' | 'customer' | 'listed'>(
    channel?.scope.listedOnly ? 'listed' : channel?.scope.customerId !== undefined ? 'customer' : 'all',
  );
  const [scopeCustomer, setScopeCustomer] = useState(String(channel?.scope.customerId ?? ''));
  const fields = schema.fields[type] ?? [];
  const [values, setValues] = useState<Record<string, string | boolean>>(() =>
    Object.fromEntries(fields.map((f) => [f.key, initialValue(f, channel)])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const changeType = (next: string) => {
    setType(next);
    setValues(Object.fromEntries((schema.fields[next] ?? []).map((f) => [f.key, initialValue(f, null)])));
    setErrors({});
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const config: Record<string, unknown> = {};
    for (const field of fields) {
      const value = values[field.key] ?? '';
      if (field.kind === 'boolean') {
        if (channel || value === true || field.required) config[field.key] = value === true;
        continue;
      }
      const text = String(value).trim();
      if (text === '') {
        // Empty: a kept secret, a default, or (on an edit) a cleared optional value.
        if (channel && !field.secret && field.nullable && channel.config[field.key] != null)
          config[field.key] = null;
        continue;
      }
      config[field.key] = toConfigValue(field, value);
    }
    const scopeBody =
      scope === 'listed'
        ? { listedOnly: true }
        : scope === 'customer'
          ? { customerId: Number(scopeCustomer) }
          : {};
    const common = { name, enabled, events: events as Schemas['EventKind'][], scope: scopeBody };
    const answer = channel
      ? await api.PATCH('/api/notification-channels/{id}', {
          params: { path: { id: channel.id } },
          body: { ...common, config },
        })
      : await api.POST('/api/notification-channels', {
          body: { ...common, type, config } as Schemas['ChannelCreate'],
        });
    if (answer.data) {
      setErrors({});
      setMessage(null);
      setSaved(true);
      const created = answer.data as Schemas['CreatedChannel'];
      onSaved(answer.data, typeof created.secret === 'string' ? created.secret : undefined);
    } else {
      setErrors(fieldErrors(answer.error));
      setMessage(problemText(answer.error));
    }
  };

  return (
    <form onSubmit={save} noValidate aria-label={channel ? 'Channel settings' : 'New channel'}>
      {saved && channel && <Notice>Saved.</Notice>}
      <FormError message={message} />
      <Field label="Type" error={errors.type}>
        {(props) => (
          <select
            {...props}
            value={type}
            disabled={channel !== null}
            onChange={(e) => changeType(e.currentTarget.value)}
          >
            {schema.types.map((t) => (
              <option key={t} value={t}>
                {typeName(t)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Channel name" error={errors.name}>
        {(props) => (
          <input {...props} required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        )}
      </Field>
      <fieldset>
        <legend>{typeName(type)} settings</legend>
        {fields.map((field) => (
          <ConfigInput
            key={`${type}-${field.key}`}
            field={field}
            value={values[field.key] ?? ''}
            stored={channel?.config[`${field.key}Set`] === true}
            error={errors[`config.${field.key}`] ?? errors[field.key]}
            onChange={(value) => setValues((v) => ({ ...v, [field.key]: value }))}
          />
        ))}
      </fieldset>
      <fieldset>
        <legend>Which events</legend>
        <div class="row">
          {schema.events.map((kind) => (
            <Check
              key={kind}
              label={EVENT_LABELS[kind] ?? kind}
              checked={events.includes(kind)}
              onChange={(on) =>
                setEvents(schema.events.filter((k) => (k === kind ? on : events.includes(k))))
              }
            />
          ))}
        </div>
        {errors.events && <p class="error-text">⚠ {errors.events}</p>}
      </fieldset>
      <fieldset>
        <legend>From which websites</legend>
        {(
          [
            ['all', 'Every website of the organization'],
            ['customer', 'One customer’s websites'],
            ['listed', 'Only the websites that choose this channel'],
          ] as const
        ).map(([value, label]) => (
          <div class="field check" key={value}>
            <input
              type="radio"
              id={`scope-${value}`}
              name="scope"
              checked={scope === value}
              onChange={() => setScope(value)}
            />
            <label for={`scope-${value}`}>{label}</label>
          </div>
        ))}
        {scope === 'customer' && (
          <Field label="Customer" error={errors['scope.customerId']}>
            {(props) => (
              <select
                {...props}
                value={scopeCustomer}
                onChange={(e) => setScopeCustomer(e.currentTarget.value)}
              >
                <option value="">Choose a customer</option>
                {customers.data?.map((c) => (
                  <option key={c.id} value={String(c.id)}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {errors['scope.listedOnly'] && <p class="error-text">⚠ {errors['scope.listedOnly']}</p>}
      </fieldset>
      <Check label="Enabled (sends alerts)" checked={enabled} onChange={setEnabled} error={errors.enabled} />
      <button type="submit" class="primary">
        {channel ? 'Save the channel' : 'Add the channel'}
      </button>
    </form>
  );
}

function ConfigInput({
  field,
  value,
  stored,
  error,
  onChange,
}: {
  field: ConfigField;
  value: string | boolean;
  stored: boolean;
  error: string | undefined;
  onChange: (value: string | boolean) => void;
}) {
  const label = `${fieldLabel(field.key)}${field.required ? '' : ' (optional)'}`;
  if (field.kind === 'boolean')
    return <Check label={label} checked={value === true} onChange={onChange} error={error} />;
  const hint = [
    field.description,
    field.secret ? (stored ? 'One is stored; leave empty to keep it.' : 'Not shown again once saved.') : null,
    field.kind === 'list' ? 'One per line.' : null,
  ]
    .filter(Boolean)
    .map((part) => (/[.!?]$/.test(String(part)) ? part : `${part}.`))
    .join(' ');
  return (
    <Field label={label} error={error} hint={hint || undefined}>
      {(props) =>
        field.kind === 'list' ? (
          <textarea
            {...props}
            rows={3}
            value={String(value)}
            onInput={(e) => onChange(e.currentTarget.value)}
          />
        ) : (
          <input
            {...props}
            type={inputType(field) as 'text'}
            autoComplete={field.secret ? 'new-password' : 'off'}
            required={field.required && !(field.secret && stored)}
            value={String(value)}
            onInput={(e) => onChange(e.currentTarget.value)}
          />
        )
      }
    </Field>
  );
}

function inputType(field: ConfigField): string {
  if (field.secret) return 'password';
  return { number: 'number', url: 'url', email: 'email' }[field.kind as string] ?? 'text';
}

const DELIVERY_STATUS: Record<Delivery['status'], string> = {
  pending: '… Pending',
  succeeded: '✓ Delivered',
  failed: '✕ Failed',
  skipped: '– Skipped',
};

function TestSend({ channel, editor }: { channel: Channel; editor: boolean }) {
  const [state, setState] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!editor) return null;
  const send = async () => {
    setError(null);
    setState('Sending a test…');
    const { data, error: problem } = await api.POST('/api/notification-channels/{id}/test', {
      params: { path: { id: channel.id } },
    });
    if (!data) {
      setState(null);
      setError(problemText(problem));
      return;
    }
    for (let i = 0; i < 60; i++) {
      const { data: delivery } = await api.GET('/api/notification-channels/{id}/deliveries/{deliveryId}', {
        params: { path: { id: channel.id, deliveryId: data.id } },
      });
      if (delivery && delivery.status !== 'pending') {
        const last = delivery.attempts.at(-1);
        setState(
          `Test ${DELIVERY_STATUS[delivery.status].toLowerCase()}${last?.httpStatus ? ` (HTTP ${last.httpStatus})` : ''}${delivery.outcome ? `: ${delivery.outcome}` : ''}`,
        );
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    setState('The test is still pending: see the delivery log.');
  };
  return (
    <div class="actions">
      <button type="button" onClick={() => void send()}>
        Send a test
      </button>
      <p role="status" aria-live="polite">
        {state}
      </p>
      <FormError message={error} />
    </div>
  );
}

function DeliveryLog({ channelId, editor }: { channelId: number; editor: boolean }) {
  const [pages, setPages] = useState(1);
  const log = useLoad(
    async () => {
      const items: Delivery[] = [];
      let cursor: number | undefined;
      let next: number | null = null;
      for (let page = 0; page < pages; page++) {
        const answer = must(
          await api.GET('/api/notification-channels/{id}/deliveries', {
            params: { path: { id: channelId }, query: { limit: 20, ...(cursor ? { cursor } : {}) } },
          }),
        );
        items.push(...answer.items);
        next = answer.nextCursor;
        if (next === null) break;
        cursor = next;
      }
      return { items, more: next !== null };
    },
    [channelId, pages],
    5_000,
  );
  const [message, setMessage] = useState<string | null>(null);
  const redeliver = async (delivery: Delivery) => {
    const { error, response } = await api.POST(
      '/api/notification-channels/{id}/deliveries/{deliveryId}/redeliver',
      { params: { path: { id: channelId, deliveryId: delivery.id } } },
    );
    setMessage(response.ok ? `Delivery ${delivery.id} is sent again.` : problemText(error));
    await log.reload();
  };
  return (
    <>
      <h2>Delivery log</h2>
      <FormError message={log.error} />
      {message && <p role="status">{message}</p>}
      {log.data?.items.length === 0 && <p>Nothing sent yet: send a test to see the first delivery here.</p>}
      {log.data && log.data.items.length > 0 && (
        <table class="stack" id="deliveries">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Result</th>
              <th scope="col">Attempts</th>
              {editor && <th scope="col">Action</th>}
            </tr>
          </thead>
          <tbody>
            {log.data.items.map((d) => {
              const last = d.attempts.at(-1);
              return (
                <tr key={d.id}>
                  <td data-label="When">{new Date(d.createdAt).toLocaleString()}</td>
                  <td data-label="Event">{d.eventType}</td>
                  <td data-label="Result">
                    {DELIVERY_STATUS[d.status]}
                    {last?.httpStatus ? ` (HTTP ${last.httpStatus})` : ''}
                    {d.outcome && <span class="muted"> {d.outcome}</span>}
                    {last?.error && <span class="muted"> {last.error}</span>}
                  </td>
                  <td data-label="Attempts">{d.attempts.length}</td>
                  {editor && (
                    <td data-label="Action">
                      {d.status !== 'pending' && (
                        <button type="button" class="link" onClick={() => void redeliver(d)}>
                          Redeliver <span class="visually-hidden">delivery {d.id}</span>
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {log.data?.more && (
        <button type="button" onClick={() => setPages((p) => p + 1)}>
          Load more
        </button>
      )}
    </>
  );
}
