import { Field } from '../ui/form.js';
import { type ItemEditorProps, OrderControls, OrderedListEditor } from '../ui/ordered-list-editor.js';
import { errorsUnder } from './api-flow-drafts.js';
import { ACTIONS, type Action } from './journey-choices.js';
import { type StepDraft, stepDraft } from './journey-drafts.js';
import { ActionFields } from './journey-step-fields.js';
import { MoreOptions, usesMoreOptions } from './journey-step-parts.js';

/** One step: its action, name and timeout, its action's fields; moved, removed. */
function StepEditor({ draft, errors, place }: ItemEditorProps<StepDraft>) {
  const { index, onChange } = place;
  const set = (change: Partial<StepDraft>) => onChange({ ...draft, ...change });
  const label = `Step ${index + 1}`;
  const screenshot = draft.action === 'screenshot';
  return (
    <fieldset class="card journey-step" id={`journey-step-${draft.key}`}>
      <legend>
        {label}: {screenshot ? `Screenshot “${draft.name}”` : draft.name || ACTIONS[draft.action]}
      </legend>
      {errors[''] && <p class="error-text">{errors['']}</p>}
      <div class="row">
        <Field label={`${label} action`} error={errors.action}>
          {(props) => (
            <select
              {...props}
              value={draft.action}
              onChange={(e) => set({ action: e.currentTarget.value as Action })}
            >
              {Object.entries(ACTIONS).map(([action, text]) => (
                <option key={action} value={action}>
                  {text}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label={screenshot ? `${label} screenshot name` : `${label} name (optional)`}
          error={errors.name}
          hint={screenshot ? 'Letters, digits, spaces, _ . or -.' : undefined}
        >
          {(props) => (
            <input {...props} value={draft.name} onInput={(e) => set({ name: e.currentTarget.value })} />
          )}
        </Field>
      </div>
      <ActionFields draft={draft} label={label} errors={errors} set={set} />
      {/* Opened by itself when one of them holds something, so a refusal there is seen. */}
      <details class="step-more" open={usesMoreOptions(draft, errors)}>
        <summary>
          More options <span class="visually-hidden">of step {index + 1}</span>
        </summary>
        <MoreOptions draft={draft} label={label} errors={errors} set={set} />
      </details>
      <OrderControls noun="step" place={place} />
    </fieldset>
  );
}

/** A step's errors by their path under it; the step's own (not a field's) at ''. */
function stepErrors(errors: Record<string, string>, index: number): Record<string, string> {
  const own = errors[`steps.${index}`];
  return { ...errorsUnder(errors, `steps.${index}.`), ...(own ? { '': own } : {}) };
}

/**
 * The steps the API (or the schema) refused, each a button to its first marked field: a journey's
 * steps are many screens long, and the message above the form only says to look.
 */
function RefusedSteps({ steps, errors }: { steps: StepDraft[]; errors: Record<string, string> }) {
  const refused = steps.flatMap((draft, index) =>
    Object.keys(stepErrors(errors, index)).length > 0 ? [{ draft, index }] : [],
  );
  if (refused.length === 0) return null;
  const show = (key: number) => {
    const step = document.getElementById(`journey-step-${key}`);
    const marked = step?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? step;
    marked?.scrollIntoView({ block: 'center' });
    marked?.focus();
  };
  return (
    <p class="error-text">
      Refused at{' '}
      {refused.map(({ draft, index }, at) => (
        <span key={draft.key}>
          {at > 0 && ', '}
          <button type="button" class="link" onClick={() => show(draft.key)}>
            step {index + 1}
          </button>
        </span>
      ))}
      : see the marked fields there.
    </p>
  );
}

/**
 * A journey's steps in order: each added (a new one goes to a URL; its action is chosen in it),
 * moved, removed, with the API's errors at `steps.<i>.<field>` shown at its fields.
 */
export function JourneyStepsEditor({
  steps,
  errors,
  onChange,
}: {
  steps: StepDraft[];
  /** The whole form's errors: a step's are under `steps.<i>.`. */
  errors: Record<string, string>;
  onChange: (steps: StepDraft[]) => void;
}) {
  return (
    <>
      {errors.steps && <p class="error-text">{errors.steps}</p>}
      <RefusedSteps steps={steps} errors={errors} />
      <OrderedListEditor items={steps} newItem={stepDraft} addLabel="Add a step" onChange={onChange}>
        {(draft, place) => (
          <StepEditor draft={draft} errors={stepErrors(errors, place.index)} place={place} />
        )}
      </OrderedListEditor>
    </>
  );
}
