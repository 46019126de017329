import { Check, Field } from '../ui/form.js';
import {
  type AriaRole,
  BUTTONS,
  LOCATORS,
  type LocatorKind,
  MATCHES,
  type MatchHow,
  type MouseButton,
  ROLES,
} from './journey-choices.js';
import { errorAt, hasLocator, type LocatorDraft, type MatchDraft, type StepDraft } from './journey-drafts.js';
import { Choice } from './monitor-forms.js';

/*
 * The parts of a journey step's fields that several actions share: how it finds its element, what a
 * text must be, checked or not, a text; and the less used fields under "More options".
 */

/** What a locator's one text field is labelled, by how it finds. */
const LOCATOR_TEXT: Record<LocatorKind, string> = {
  role: 'element name',
  label: 'label text',
  text: 'text',
  placeholder: 'placeholder text',
  altText: 'alt text',
  title: 'title text',
  testId: 'test id',
  css: 'CSS selector',
};
export interface FieldsProps {
  draft: StepDraft;
  /** "Step 3": what every control's label starts with, so each is named on its own. */
  label: string;
  /** This step's errors, by their path under it (`locator.text`). */
  errors: Record<string, string>;
  set: (change: Partial<StepDraft>) => void;
}

/** How the step finds its element: by role and name, label, text… or CSS (which of several: its more options). */
export function LocatorFields({ draft, label, errors, set }: FieldsProps) {
  const locator = draft.locator;
  const setLocator = (change: Partial<LocatorDraft>) => set({ locator: { ...locator, ...change } });
  const textPath = { role: 'name', testId: 'id', css: 'selector' }[locator.by as string] ?? 'text';
  return (
    <div class="row">
      <Field label={`${label} finds by`} error={errors['locator.by']}>
        {(props) => (
          <select
            {...props}
            value={locator.by}
            onChange={(e) => setLocator({ by: e.currentTarget.value as LocatorKind })}
          >
            {Object.entries(LOCATORS).map(([by, text]) => (
              <option key={by} value={by}>
                {text}
              </option>
            ))}
          </select>
        )}
      </Field>
      {locator.by === 'role' && (
        <Field label={`${label} role`} error={errors['locator.role']}>
          {(props) => (
            <select
              {...props}
              value={locator.role}
              onChange={(e) => setLocator({ role: e.currentTarget.value as AriaRole })}
            >
              {ROLES.map((role) => (
                <option key={role}>{role}</option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field
        label={`${label} ${LOCATOR_TEXT[locator.by]}${locator.by === 'role' ? ' (optional)' : ''}`}
        error={errorAt(errors, `locator.${textPath}`, 'locator')}
        hint={locator.by === 'css' ? 'The last resort: it breaks when the markup changes.' : undefined}
      >
        {(props) => (
          <input
            {...props}
            spellcheck={false}
            value={locator.text}
            onInput={(e) => setLocator({ text: e.currentTarget.value })}
          />
        )}
      </Field>
    </div>
  );
}

/** What a URL, title, text or value must be: equal to a text, contain it, or match an RE2 pattern. */
export function MatchFields({
  draft,
  label,
  errors,
  set,
  what,
  path,
  optional = false,
}: FieldsProps & { what: string; path: string; optional?: boolean }) {
  const setMatch = (change: Partial<MatchDraft>) => set({ match: { ...draft.match, ...change } });
  return (
    <div class="row">
      <Field label={`${label} ${what} must`}>
        {(props) => (
          <select
            {...props}
            value={draft.match.how}
            onChange={(e) => setMatch({ how: e.currentTarget.value as MatchHow })}
          >
            {Object.entries(MATCHES).map(([how, text]) => (
              <option key={how} value={how}>
                {text}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        label={`${label} expected ${what}${optional ? ' (optional)' : ''}`}
        error={errorAt(errors, path)}
        hint={
          optional ? 'Empty: the attribute is there, whatever its value.' : 'Placeholders are filled first.'
        }
      >
        {(props) => (
          <input
            {...props}
            spellcheck={false}
            value={draft.match.text}
            onInput={(e) => setMatch({ text: e.currentTarget.value })}
          />
        )}
      </Field>
    </div>
  );
}

export function Checked({ draft, label, errors, set }: FieldsProps) {
  return (
    <>
      <Choice
        legend={`${label} ${draft.action === 'check' ? 'leaves it' : 'expects it'}`}
        value={draft.checked ? 'on' : 'off'}
        options={[
          ['on', 'checked'],
          ['off', 'unchecked'],
        ]}
        onChange={(value) => set({ checked: value === 'on' })}
      />
      {errors.checked && <p class="error-text">{errors.checked}</p>}
    </>
  );
}

export function TextField({
  label,
  error,
  value,
  hint,
  onInput,
}: {
  label: string;
  error: string | undefined;
  value: string;
  hint?: string;
  onInput: (value: string) => void;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(props) => (
        <input
          {...props}
          spellcheck={false}
          autocomplete="off"
          value={value}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** Whether a step's less used fields hold anything (or a refusal): its "More options" opens then. */
export function usesMoreOptions(draft: StepDraft, errors: Record<string, string>): boolean {
  return (
    draft.locator.nth !== '' ||
    draft.locator.exact === true ||
    draft.timeoutMs !== '' ||
    draft.button !== undefined ||
    draft.clickCount !== undefined ||
    errorAt(errors, 'locator.nth', 'locator.exact', 'timeoutMs', 'button', 'clickCount') !== undefined
  );
}

/** The step's less used fields: which of several elements, exact text, the mouse button, its timeout. */
export function MoreOptions({ draft, label, errors, set }: FieldsProps) {
  const locator = draft.locator;
  const setLocator = (change: Partial<LocatorDraft>) => set({ locator: { ...locator, ...change } });
  const exactText = hasLocator(draft) && locator.by !== 'testId' && locator.by !== 'css';
  return (
    <div class="row">
      {hasLocator(draft) && (
        <Field
          label={`${label} which one`}
          error={errors['locator.nth']}
          hint="Of several: 0 the first, -1 the last. Empty: just one may match."
        >
          {(props) => (
            <input
              {...props}
              inputMode="numeric"
              value={locator.nth}
              onInput={(e) => setLocator({ nth: e.currentTarget.value })}
            />
          )}
        </Field>
      )}
      {draft.action === 'click' && (
        <>
          <Field label={`${label} button`} error={errors.button}>
            {(p) => (
              <select
                {...p}
                value={draft.button ?? 'left'}
                onChange={(e) => set({ button: e.currentTarget.value as MouseButton })}
              >
                {Object.entries(BUTTONS).map(([button, text]) => (
                  <option key={button} value={button}>
                    {text}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={`${label} clicks`} error={errors.clickCount}>
            {(p) => (
              <select
                {...p}
                value={String(draft.clickCount ?? 1)}
                onChange={(e) => set({ clickCount: Number(e.currentTarget.value) })}
              >
                <option value="1">one</option>
                <option value="2">two (a double click)</option>
                <option value="3">three</option>
              </select>
            )}
          </Field>
        </>
      )}
      <Field label={`${label} timeout (ms)`} error={errors.timeoutMs} hint="Empty: 10,000.">
        {(props) => (
          <input
            {...props}
            type="number"
            inputMode="numeric"
            min={100}
            max={60_000}
            value={draft.timeoutMs}
            onInput={(e) => set({ timeoutMs: e.currentTarget.value })}
          />
        )}
      </Field>
      {exactText && (
        <Check
          label={`${label} matches the exact text`}
          checked={locator.exact ?? false}
          error={errors['locator.exact']}
          onChange={(exact) => setLocator({ exact })}
        />
      )}
    </div>
  );
}
