import { useState } from 'preact/hooks';
import { createPolicyBody, MAX_REPEAT, patchPolicyBody } from '../../../../libs/escalation/policy.schema.js';
import { api } from '../api/client.js';
import { type Policy, policyKeys } from '../api/escalation.js';
import { write } from '../api/query.js';
import { Field, FormError, Notice } from '../ui/form.js';
import { OrderedListEditor } from '../ui/ordered-list-editor.js';
import { useForm } from '../ui/use-form.js';
import { errorsUnder } from '../websites/api-flow-drafts.js';
import type { TargetDirectory } from './policy-words.js';
import { newStep, type StepDraft, StepFields, stepDrafts, stepsBody } from './step-fields.js';

/**
 * A policy's name, its steps in order (each whom it notifies and how long it waits) and how often
 * the steps run. The API names what it refuses at `steps.<i>.<field>`, shown at that step.
 */
export function PolicyForm({
  policy,
  directory,
  onSaved,
}: {
  policy: Policy | null;
  directory: TargetDirectory;
  onSaved: (policy: Policy) => void;
}) {
  const [steps, setSteps] = useState<StepDraft[]>(() => (policy ? stepDrafts(policy) : [newStep()]));
  const form = useForm(
    { name: policy?.name ?? '', repeat: String(policy?.repeat ?? 0) },
    {
      schema: policy ? patchPolicyBody : createPolicyBody,
      body: (v) => ({
        name: v.name,
        steps: stepsBody(steps),
        repeat: v.repeat.trim() === '' ? Number.NaN : Number(v.repeat),
      }),
    },
  );
  const { values, errors } = form;

  const save = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    const answer = policy
      ? await write(
          api.PATCH('/api/escalation-policies/{id}', { params: { path: { id: policy.id } }, body }),
          policyKeys.all,
        )
      : await write(api.POST('/api/escalation-policies', { body }), policyKeys.all);
    if (form.answered(answer) && answer.data) onSaved(answer.data);
  };

  return (
    <form onSubmit={save} noValidate aria-label={policy ? 'Policy settings' : 'New escalation policy'}>
      {form.saved && policy && <Notice>Saved.</Notice>}
      <FormError message={form.message} />
      <Field
        label="Name"
        error={errors.name}
        hint="What it is for, e.g. “Business critical, around the clock”"
      >
        {(props) => <input {...props} required maxLength={200} {...form.bind('name')} />}
      </Field>
      <h3>Steps</h3>
      <p class="hint">
        Each step notifies its targets, then waits for an acknowledgement before the next. A schedule notifies
        whoever is on call then, a person their verified contact methods.
      </p>
      {errors.steps && <p class="error-text">⚠ {errors.steps}</p>}
      <OrderedListEditor items={steps} newItem={newStep} addLabel="Add a step" onChange={setSteps}>
        {(draft, place) => (
          <StepFields
            draft={draft}
            errors={errorsUnder(errors, `steps.${place.index}.`)}
            place={place}
            directory={directory}
            repeats={Number(values.repeat) > 0}
          />
        )}
      </OrderedListEditor>
      <Field
        label="Run the steps again (times)"
        error={errors.repeat}
        hint={`0: once through; at most ${MAX_REPEAT}. Acknowledging or recovering stops it at any step.`}
      >
        {(props) => <input {...props} type="number" min={0} max={MAX_REPEAT} {...form.bind('repeat')} />}
      </Field>
      <div class="actions">
        <button type="submit" class="primary">
          {policy ? 'Save the policy' : 'Create the policy'}
        </button>
      </div>
    </form>
  );
}
