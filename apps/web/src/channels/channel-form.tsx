import type { EventKind } from '../../../../libs/events/event-kinds.js';
import { channelFields, patchChannelBody } from '../../../../libs/notifications/channel-fields.schema.js';
import { type Channel, channelKeys } from '../api/channels.js';
import { api, type Schemas } from '../api/client.js';
import { useVisibleCustomers } from '../api/organization.js';
import { write } from '../api/query.js';
import { CustomerOptions } from '../customers/customer-options.js';
import { Check, Field, FormError, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { type ChannelSchema, type ConfigField, fieldLabel, typeName } from './channel-schema.js';
import { EVENT_LABELS } from './event-labels.js';
import { TemplateEditor } from './template-editor.js';

const SCOPES = [
  ['all', 'Every website of the organization'],
  ['customer', 'One customer’s websites'],
  ['listed', 'Only the websites that choose this channel'],
] as const;

/** The form's controls: the channel's own, and each setting of its type as `config.<key>` (its path in the body). */
type Values = {
  type: string;
  name: string;
  enabled: boolean;
  events: string[];
  scope: (typeof SCOPES)[number][0];
  scopeCustomer: string;
  template: string;
  grouped: boolean;
  groupWindow: string;
  groupBy: 'customer' | 'organization';
} & Record<`config.${string}`, string | boolean>;

function initialValue(field: ConfigField, channel: Channel | null): string | boolean {
  const value = channel?.config[field.key];
  if (field.kind === 'boolean') return value === true;
  if (field.secret || value === undefined || value === null) return '';
  return Array.isArray(value) ? value.join('\n') : String(value);
}

function configValues(fields: ConfigField[], channel: Channel | null) {
  return Object.fromEntries(fields.map((f) => [`config.${f.key}`, initialValue(f, channel)]));
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

/** The settings sent: an empty control is a kept secret, a default, or (on an edit) a cleared optional value. */
function configBody(fields: ConfigField[], values: Values, channel: Channel | null) {
  const config: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[`config.${field.key}`] ?? '';
    if (field.kind === 'boolean') {
      if (channel || value === true || field.required) config[field.key] = value === true;
      continue;
    }
    if (String(value).trim() === '') {
      if (channel && !field.secret && field.nullable && channel.config[field.key] != null)
        config[field.key] = null;
      continue;
    }
    config[field.key] = toConfigValue(field, value);
  }
  return config;
}

/** The form's controls outside the connector's settings, by the API's paths. */
const SHOWN_PATHS = new Set([
  'type',
  'name',
  'events',
  'scope.listedOnly',
  'template',
  'grouping.windowSeconds',
  'grouping.by',
  'enabled',
]);

/** A setting's error, or its list's first refused line ("config.to.1": the second line). */
function configError(errors: Record<string, string>, key: string): string | undefined {
  const own = errors[`config.${key}`] ?? errors[key];
  if (own) return own;
  const item = Object.keys(errors).find((path) => path.startsWith(`config.${key}.`));
  if (!item) return undefined;
  const line = Number(item.slice(`config.${key}.`.length).split('.')[0]);
  return Number.isInteger(line) ? `line ${line + 1}: ${errors[item]}` : errors[item];
}

export function ChannelForm({
  channel,
  schema,
  onSaved,
}: {
  channel: Channel | null;
  schema: ChannelSchema;
  onSaved: (channel: Channel, secret: string | undefined) => void;
}) {
  const customers = useVisibleCustomers();
  const form = useForm<Values, Schemas['ChannelCreate']>(
    () => {
      const type = channel?.type ?? 'slack';
      return {
        type,
        name: channel?.name ?? '',
        enabled: channel?.enabled ?? true,
        events: channel?.events ?? schema.events,
        scope: channel?.scope.listedOnly
          ? 'listed'
          : channel?.scope.customerId !== undefined
            ? 'customer'
            : 'all',
        scopeCustomer: String(channel?.scope.customerId ?? ''),
        template: channel?.template ?? '',
        grouped: Boolean(channel?.grouping),
        groupWindow: String(channel?.grouping?.windowSeconds ?? 60),
        groupBy: channel?.grouping?.by ?? 'customer',
        ...configValues(schema.fields[type] ?? [], channel),
      };
    },
    {
      // The API's own schemas: a new channel's shared fields (its config is its connector's, which
      // the API checks), or the whole PATCH body (which names no type).
      schema: channel ? patchChannelBody : channelFields,
      // What the API refuses is shown at its control; anything else is named above the form.
      shows: (path, values) => {
        const [top = '', key = ''] = path.split('.');
        if (top === 'config') return (schema.fields[values.type] ?? []).some((field) => field.key === key);
        if (path === 'scope.customerId') return values.scope === 'customer';
        return SHOWN_PATHS.has(path);
      },
      body: (values) =>
        ({
          ...(channel ? {} : { type: values.type }),
          name: values.name,
          enabled: values.enabled,
          events: values.events as Schemas['EventKind'][],
          scope:
            values.scope === 'listed'
              ? { listedOnly: true }
              : values.scope === 'customer'
                ? { customerId: Number(values.scopeCustomer) }
                : {},
          config: configBody(schema.fields[values.type] ?? [], values, channel),
          // Empty is none: the default message.
          template: values.template.trim() === '' ? null : values.template,
          grouping: values.grouped ? { windowSeconds: Number(values.groupWindow), by: values.groupBy } : null,
        }) as Schemas['ChannelCreate'],
    },
  );
  const { values, errors } = form;
  const fields = schema.fields[values.type] ?? [];

  // Another type has other settings: they start empty, the rest of the form stays.
  const changeType = (type: string) => {
    const kept = Object.entries(values).filter(([key]) => !key.startsWith('config.'));
    form.reset({
      ...(Object.fromEntries(kept) as Values),
      type,
      ...configValues(schema.fields[type] ?? [], null),
    });
  };

  const save = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    const { type: _, ...change } = body;
    const answer = channel
      ? await write(
          api.PATCH('/api/notification-channels/{id}', {
            params: { path: { id: channel.id } },
            body: change,
          }),
          channelKeys.all,
        )
      : await write(api.POST('/api/notification-channels', { body }), channelKeys.all);
    if (!form.answered(answer) || !answer.data) return;
    const created = answer.data as Schemas['CreatedChannel'];
    onSaved(answer.data, typeof created.secret === 'string' ? created.secret : undefined);
  };

  return (
    <form onSubmit={save} noValidate aria-label={channel ? 'Channel settings' : 'New channel'}>
      {form.saved && channel && <Notice>Saved.</Notice>}
      <FormError message={form.message} />
      <Field label="Type" error={errors.type}>
        {(props) => (
          <select
            {...props}
            value={values.type}
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
        {(props) => <input {...props} required {...form.bind('name')} />}
      </Field>
      <fieldset>
        <legend>{typeName(values.type)} settings</legend>
        {fields.map((field) => (
          <ConfigInput
            key={`${values.type}-${field.key}`}
            field={field}
            value={values[`config.${field.key}`] ?? ''}
            stored={channel?.config[`${field.key}Set`] === true}
            error={configError(errors, field.key)}
            onChange={(value) => form.set(`config.${field.key}`, value)}
          />
        ))}
      </fieldset>
      <fieldset>
        <legend>Which events</legend>
        <div class="row">
          {schema.events.map((kind) => (
            <Check
              key={kind}
              label={EVENT_LABELS[kind as EventKind] ?? kind}
              checked={values.events.includes(kind)}
              onChange={(on) =>
                form.set(
                  'events',
                  schema.events.filter((k) => (k === kind ? on : values.events.includes(k))),
                )
              }
            />
          ))}
        </div>
        {errors.events && <p class="error-text">⚠ {errors.events}</p>}
      </fieldset>
      <fieldset>
        <legend>From which websites</legend>
        {SCOPES.map(([value, label]) => (
          <div class="field check" key={value}>
            <input
              type="radio"
              id={`scope-${value}`}
              name="scope"
              checked={values.scope === value}
              onChange={() => form.set('scope', value)}
            />
            <label for={`scope-${value}`}>{label}</label>
          </div>
        ))}
        {values.scope === 'customer' && (
          <Field
            label="Customer"
            // None chosen is sent as 0, which the schema refuses as too small: say what is missing.
            error={
              values.scopeCustomer || !errors['scope.customerId'] ? errors['scope.customerId'] : 'Required'
            }
          >
            {(props) => (
              <select {...props} {...form.bind('scopeCustomer', 'scope.customerId')}>
                <CustomerOptions customers={customers.data} />
              </select>
            )}
          </Field>
        )}
        {errors['scope.listedOnly'] && <p class="error-text">⚠ {errors['scope.listedOnly']}</p>}
      </fieldset>
      <TemplateEditor
        type={values.type}
        value={values.template}
        error={errors.template}
        events={schema.events}
        onChange={(template) => form.set('template', template)}
      />
      <fieldset>
        <legend>Grouping</legend>
        <Check
          label="Group a burst of failures into one message"
          checked={values.grouped}
          onChange={(on) => form.set('grouped', on)}
        />
        {values.grouped && (
          <>
            <Field
              label="Window (seconds)"
              hint="Failures within this many seconds of the first go out as one message listing them (5–900)"
              error={errors['grouping.windowSeconds']}
            >
              {(props) => (
                <input
                  {...props}
                  type="number"
                  min={5}
                  max={900}
                  required
                  {...form.bind('groupWindow', 'grouping.windowSeconds')}
                />
              )}
            </Field>
            <Field label="One message per" error={errors['grouping.by']}>
              {(props) => (
                <select
                  {...props}
                  value={values.groupBy}
                  onChange={(e) => form.set('groupBy', e.currentTarget.value as Values['groupBy'])}
                >
                  <option value="customer">customer</option>
                  <option value="organization">organization (all customers together)</option>
                </select>
              )}
            </Field>
          </>
        )}
      </fieldset>
      <Check
        label="Enabled (sends alerts)"
        checked={values.enabled}
        onChange={(on) => form.set('enabled', on)}
        error={errors.enabled}
      />
      <button type="submit" class="primary">
        {channel ? 'Save the channel' : 'Add the channel'}
      </button>
    </form>
  );
}

/** A hint's part ending as a sentence does. */
const sentence = (part: string) => (/[.!?]$/.test(part) ? part : `${part}.`);

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
  // The API's words say what `null` means; here that is an empty control.
  const description = field.description?.replace(/; null: /g, '; empty: ');
  if (field.kind === 'boolean')
    return (
      <Check
        label={label}
        checked={value === true}
        onChange={onChange}
        error={error}
        hint={description ? sentence(description) : undefined}
      />
    );
  const hint = [
    description,
    field.secret ? (stored ? 'One is stored; leave empty to keep it.' : 'Not shown again once saved.') : null,
    field.kind === 'list' ? 'One per line.' : null,
  ]
    .filter((part): part is string => Boolean(part))
    .map(sentence)
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
