import { useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client.js';
import { Field } from '../ui/form.js';
import { OrderedListEditor } from '../ui/ordered-list-editor.js';
import { useForm } from '../ui/use-form.js';
import {
  type ApiFlowBody,
  errorsUnder,
  type Row,
  type SecretRow,
  type StepDraft,
  secretsOf,
  stepDraft,
  stepOf,
} from './api-flow-drafts.js';
import { StepEditor } from './api-flow-steps.js';
import { CheckTiming, type FormProps, MonitorForm, toNumber } from './monitor-forms.js';
import { NameValueRows } from './name-value-rows.js';

/** An API flow as the API shows it. */
export type ApiFlowMonitor = Schemas['ApiFlowCheck'];

/** A variable's or secret's refusal, of its name or its value, is shown at its name. */
const shownAtName = () => true;

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
      <OrderedListEditor items={steps} newItem={stepDraft} addLabel="Add a step" onChange={setSteps}>
        {(draft, place) => (
          <StepEditor draft={draft} errors={errorsUnder(errors, `steps.${place.index}.`)} place={place} />
        )}
      </OrderedListEditor>
      <fieldset>
        <legend>Variables</legend>
        <p class="hint">Plain values the steps use as {'{{name}}'}, such as a base URL; shown as they are.</p>
        <NameValueRows
          noun="variable"
          rows={variables}
          errors={errors}
          field="variables"
          blank={{ name: '', value: '' }}
          isNameRefusal={shownAtName}
          onChange={setVariables}
        />
      </fieldset>
      <fieldset>
        <legend>Secrets</legend>
        <p class="hint">
          Values the steps use as {'{{secret.NAME}}'}, such as a password: write-only, never shown again,
          blanked in results and alerts.
        </p>
        <NameValueRows<SecretRow>
          noun="secret"
          secret
          rows={secrets}
          errors={errors}
          field="secrets"
          blank={{ name: '', value: '', stored: false, removed: false }}
          isNameRefusal={shownAtName}
          onChange={setSecrets}
        />
      </fieldset>
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
