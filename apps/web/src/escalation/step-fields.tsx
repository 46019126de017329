import { useState } from 'preact/hooks';
import { MAX_TARGETS_PER_STEP, MAX_WAIT_MINUTES } from '../../../../libs/escalation/policy.schema.js';
import type { Policy, PolicyTarget } from '../api/escalation.js';
import { Field } from '../ui/form.js';
import { type ItemEditorProps, OrderControls } from '../ui/ordered-list-editor.js';
import { type TargetDirectory, targetName, targetOf, targetValue } from './policy-words.js';

/** A step as the form holds it: its targets in order, its wait as typed. */
export interface StepDraft {
  key: number;
  targets: PolicyTarget[];
  wait: string;
}

let nextKey = 0;

export const newStep = (): StepDraft => ({ key: nextKey++, targets: [], wait: '10' });

export const stepDrafts = (policy: Policy): StepDraft[] =>
  policy.steps.map((step) => ({ key: nextKey++, targets: step.targets, wait: String(step.waitMinutes) }));

/** The steps as the API takes them (an empty wait: not a number, for the schema to name). */
export const stepsBody = (drafts: readonly StepDraft[]) =>
  drafts.map((draft) => ({
    targets: draft.targets,
    waitMinutes: draft.wait.trim() === '' ? Number.NaN : Number(draft.wait),
  }));

const GROUPS = [
  { label: 'On-call schedules', list: 'schedules', target: (id: number) => ({ schedule: id }) },
  { label: 'People', list: 'people', target: (id: number) => ({ user: id }) },
  { label: 'Channels', list: 'channels', target: (id: number) => ({ channel: id }) },
] as const;

/** What happens after a step's wait, for its hint. */
function afterWait(index: number, count: number, repeats: boolean): string {
  if (index < count - 1) return `Then step ${index + 2}, unless someone acknowledged.`;
  return repeats
    ? 'Then the steps run again from step 1, unless someone acknowledged.'
    : 'The last step: nothing follows unless the steps run again (below).';
}

/** One step: whom it notifies (schedules' on-call people, people, channels) and how long it waits. */
export function StepFields({
  draft,
  errors,
  place,
  directory,
  repeats,
}: ItemEditorProps<StepDraft> & { directory: TargetDirectory; repeats: boolean }) {
  const [adding, setAdding] = useState('');
  const number = place.index + 1;
  const set = (change: Partial<StepDraft>) => place.onChange({ ...draft, ...change });
  const chosen = new Set(draft.targets.map(targetValue));
  const full = draft.targets.length >= MAX_TARGETS_PER_STEP;
  const listId = `step-${draft.key}-targets`;
  const add = () => {
    const target = targetOf(adding);
    if (target) set({ targets: [...draft.targets, target] });
    setAdding('');
  };
  return (
    <fieldset class="escalation-step">
      <legend>Step {number}</legend>
      <p id={listId}>
        <strong>Notifies</strong>
      </p>
      {draft.targets.length === 0 ? (
        <p class="muted">No one yet: add an on-call schedule, a person or a channel.</p>
      ) : (
        <ul class="targets" aria-labelledby={listId}>
          {draft.targets.map((target, at) => {
            const name = targetName(target, directory);
            // The API names an unknown target at `targets.<at>.<kind>`.
            const error = Object.entries(errors).find(([path]) => path.startsWith(`targets.${at}`))?.[1];
            return (
              <li key={targetValue(target)}>
                {name}{' '}
                <button
                  type="button"
                  class="link"
                  onClick={() => set({ targets: draft.targets.filter((_, i) => i !== at) })}
                >
                  Remove
                  <span class="visually-hidden">
                    {' '}
                    {name} from step {number}
                  </span>
                </button>
                {error && (
                  <small class="error-text">
                    <span aria-hidden="true">⚠ </span>
                    {error}
                  </small>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <div class="row">
        {/* "Choose at least one" shows at the control that adds one, and goes once one is chosen. */}
        <Field
          label={`Add to step ${number}`}
          error={errors.targets}
          hint={full ? `A step notifies at most ${MAX_TARGETS_PER_STEP}.` : undefined}
        >
          {(props) => (
            <select
              {...props}
              value={adding}
              disabled={full}
              onChange={(e) => setAdding(e.currentTarget.value)}
            >
              <option value="">Choose whom to notify…</option>
              {GROUPS.map((group) => (
                <optgroup key={group.list} label={group.label}>
                  {directory[group.list]
                    .filter((one) => !chosen.has(targetValue(group.target(one.id))))
                    .map((one) => (
                      <option key={one.id} value={targetValue(group.target(one.id))}>
                        {targetName(group.target(one.id), directory)}
                      </option>
                    ))}
                </optgroup>
              ))}
            </select>
          )}
        </Field>
        <p>
          <button type="button" disabled={!adding} onClick={add}>
            Add to step {number}
          </button>
        </p>
      </div>
      <Field
        label={`Minutes step ${number} waits for an acknowledgement`}
        error={errors.waitMinutes}
        hint={`${afterWait(place.index, place.count, repeats)} 0: at once; at most ${MAX_WAIT_MINUTES}.`}
      >
        {(props) => (
          <input
            {...props}
            type="number"
            min={0}
            max={MAX_WAIT_MINUTES}
            required
            value={draft.wait}
            onInput={(e) => set({ wait: e.currentTarget.value })}
          />
        )}
      </Field>
      <OrderControls noun="step" place={place} />
    </fieldset>
  );
}
