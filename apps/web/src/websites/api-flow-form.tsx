import { useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client.js';
import { Check, Field } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import {
  type ApiFlowBody,
  errorsUnder,
  type Row,
  SEALED,
  type SecretRow,
  type StepDraft,
  secretsOf,
  stepDraft,
  stepOf,
} from './api-flow-drafts.js';
import { StepEditor } from './api-flow-steps.js';
import { CheckTiming, type FormProps, MonitorForm, toNumber } from './monitor-forms.js';

/** An API flow as the API shows it. */
export type ApiFlowMonitor = Schemas['ApiFlowCheck'];

/** Name and value rows: variables (plain) or secrets (write-only). */
function Rows<R extends Row>({
  legend,
  hint,
  rows,
  secret,
  errors,
  field,
  blank,
  onChange,
}: {
  legend: string;
  hint: string;
  rows: R[];
  secret: boolean;
  errors: Record<string, string>;
  field: string;
  blank: R;
  onChange: (rows: R[]) => void;
}) {
  const update = (at: number, change: Partial<R>) =>
    onChange(rows.map((row, i) => (i === at ? { ...row, ...change } : row)));
  const noun = secret ? 'secret' : 'variable';
  const Noun = secret ? 'Secret' : 'Variable';
  return (
    <fieldset>
      <legend>{legend}</legend>
      <p class="hint">{hint}</p>
      {rows.map((row, at) => {
        const stored = 'stored' in row && row.stored === true;
        return (
          <div class="row" key={at}>
            <Field label={`${Noun} ${at + 1} name`} error={errors[`${field}.${row.name}`]}>
              {(props) => (
                <input
                  {...props}
                  spellcheck={false}
                  value={row.name}
                  readOnly={stored}
                  onInput={(e) => update(at, { name: e.currentTarget.value } as Partial<R>)}
                />
              )}
            </Field>
            <Field
              label={`${Noun} ${at + 1} value`}
              hint={stored ? 'Set: never shown. Type a value to replace it.' : undefined}
            >
              {(props) => {
                const value = {
                  ...props,
                  autocomplete: 'off',
                  spellcheck: false,
                  // A stored secret's value never comes back: what it shows instead, as the API does.
                  placeholder: stored ? SEALED : undefined,
                  value: row.value,
                  disabled: 'removed' in row && row.removed === true,
                  onInput: (e: Event) =>
                    update(at, { value: (e.currentTarget as HTMLInputElement).value } as Partial<R>),
                };
                return secret ? <input {...value} type="password" /> : <input {...value} />;
              }}
            </Field>
            {stored ? (
              <Check
                label={`Remove ${row.name}`}
                checked={'removed' in row && row.removed === true}
                onChange={(removed) => update(at, { removed } as unknown as Partial<R>)}
              />
            ) : (
              <button type="button" class="link" onClick={() => onChange(rows.filter((_, i) => i !== at))}>
                Remove <span class="visually-hidden">{`${noun} ${at + 1}`}</span>
              </button>
            )}
          </div>
        );
      })}
      {errors[field] && <p class="error-text">{errors[field]}</p>}
      <button type="button" onClick={() => onChange([...rows, { ...blank }])}>
        Add a {noun}
      </button>
    </fieldset>
  );
}

/**
 * An API flow: its steps (added, moved, removed, each with its request, expected statuses,
 * assertions and values kept), its variables and write-only secrets. The API checks it and names
 * what it refuses at `steps.<i>.<field>`, shown at that field.
 */
export function ApiFlowForm({ websiteRef, onDone, flow }: FormProps & { flow: ApiFlowMonitor | null }) {
  const [steps, setSteps] = useState<StepDraft[]>(() =>
    (flow?.steps ?? [undefined]).map((step) => stepDraft(step)),
  );
  const [variables, setVariables] = useState<Row[]>(() =>
    Object.entries(flow?.variables ?? {}).map(([name, value]) => ({ name, value })),
  );
  const [secrets, setSecrets] = useState<SecretRow[]>(() =>
    Object.keys(flow?.secrets ?? {}).map((name) => ({ name, value: '', stored: true, removed: false })),
  );
  const form = useForm<{ name: string; interval: string; timeout: string }, ApiFlowBody>(
    {
      name: flow?.name ?? '',
      interval: String(flow?.intervalSeconds ?? 300),
      timeout: String(flow?.timeoutSeconds ?? 30),
    },
    {
      // The client certificate has no control here: its refusal is named above the form.
      shows: (path) => path !== '' && !path.startsWith('clientCertificate'),
      body: (v) => ({
        steps: steps.map(stepOf),
        variables: Object.fromEntries(
          variables.filter((row) => row.name.trim()).map((row) => [row.name.trim(), row.value]),
        ),
        secrets: secretsOf(secrets),
        intervalSeconds: Number(toNumber(v.interval, 300)),
        timeoutSeconds: Number(toNumber(v.timeout, 30)),
        ...(v.name.trim() ? { name: v.name } : {}),
      }),
    },
  );
  const { errors } = form;

  const save = async () => {
    const body = form.check();
    if (!body) return;
    const answer = flow
      ? await api.PATCH('/api/monitors/{id}', { params: { path: { id: flow.id } }, body })
      : await api.POST('/api/websites/{websiteRef}/monitors', {
          params: { path: { websiteRef } },
          // The generated type requires the client certificate (it has a default): the API fills it.
          body: { ...body, kind: 'api-flow' } as Schemas['ApiFlowCheckCreate'],
        });
    if (form.answered(answer) && answer.data) onDone(answer.data);
  };
  const move = (at: number, by: -1 | 1) =>
    setSteps((all) => {
      const next = [...all];
      const [moved] = next.splice(at, 1);
      if (moved) next.splice(at + by, 0, moved);
      return next;
    });

  return (
    <MonitorForm
      title={flow ? `Edit “${flow.name}”` : 'New API flow'}
      submit={flow ? 'Save the API flow' : 'Add the API flow'}
      message={form.message}
      onSubmit={save}
      onCancel={() => onDone(null)}
    >
      <p class="hint">
        Requests made in order, cookies shared between them; the first step that fails stops the flow and is
        named in the incident with its request and answer.
      </p>
      {errors.steps && <p class="error-text">{errors.steps}</p>}
      {/* Each step a group its legend numbers: no list markers beside them, the phone's width kept. */}
      {steps.map((draft, index) => (
        <StepEditor
          key={draft.key}
          draft={draft}
          index={index}
          count={steps.length}
          errors={errorsUnder(errors, `steps.${index}.`)}
          onChange={(changed) => setSteps((all) => all.map((d, i) => (i === index ? changed : d)))}
          onMove={(by) => move(index, by)}
          onRemove={() => setSteps((all) => all.filter((_, i) => i !== index))}
        />
      ))}
      <p>
        <button type="button" onClick={() => setSteps((all) => [...all, stepDraft()])}>
          Add a step
        </button>
      </p>
      <Rows
        legend="Variables"
        hint="Plain values the steps use as {{name}}, such as a base URL; shown as they are."
        rows={variables}
        secret={false}
        errors={errors}
        field="variables"
        blank={{ name: '', value: '' }}
        onChange={setVariables}
      />
      <Rows
        legend="Secrets"
        hint="Values the steps use as {{secret.NAME}}, such as a password: write-only, never shown again, blanked in results and alerts."
        rows={secrets}
        secret
        errors={errors}
        field="secrets"
        blank={{ name: '', value: '', stored: false, removed: false }}
        onChange={setSecrets}
      />
      <CheckTiming
        errors={errors}
        interval={form.bind('interval', 'intervalSeconds')}
        timeout={form.bind('timeout', 'timeoutSeconds')}
      />
      <Field label="Name (optional)" error={errors.name} hint="Empty: named after its steps.">
        {(props) => <input {...props} {...form.bind('name')} />}
      </Field>
    </MonitorForm>
  );
}
