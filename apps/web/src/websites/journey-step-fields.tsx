import { useState } from 'preact/hooks';
import { Check, Field } from '../ui/form.js';
import {
  ASSERTIONS,
  type AssertionKind,
  type CountOperator,
  type ElementState,
  OPERATORS,
  STATES,
  WAITS,
  type WaitKind,
} from './journey-choices.js';
import { errorAt, hasLocator } from './journey-drafts.js';
import { Checked, type FieldsProps, LocatorFields, MatchFields, TextField } from './journey-step-parts.js';

/** Read in full, so the file a step uploads is kept with the journey (the API bounds its size). */
const MAX_FILE_BYTES = 256 * 1024;
/** A fixture file the step uploads, read from this computer and kept with the journey. */
function FileField({ draft, label, errors, set }: FieldsProps) {
  const [problem, setProblem] = useState<string | null>(null);
  const choose = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setProblem(`${file.name} is ${Math.ceil(file.size / 1024)} KiB: a step’s file is 256 KiB at most.`);
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      // A data URL: "data:<type>;base64,<content>".
      const content = String(reader.result).replace(/^[^,]*,/, '');
      setProblem(null);
      set({
        file: { name: file.name, mimeType: file.type || 'application/octet-stream', contentBase64: content },
      });
    };
    reader.readAsDataURL(file);
  };
  return (
    <Field
      label={`${label} file`}
      error={problem ?? errorAt(errors, 'file')}
      hint={draft.file ? `Chosen: ${draft.file.name} (${draft.file.mimeType}).` : 'At most 256 KiB.'}
    >
      {(props) => <input {...props} type="file" onChange={(e) => choose(e.currentTarget)} />}
    </Field>
  );
}

/** What waitFor waits for, and its fields. */
function WaitFields(props: FieldsProps) {
  const { draft, label, errors, set } = props;
  return (
    <>
      <Field label={`${label} waits for`} error={errors.until}>
        {(p) => (
          <select
            {...p}
            value={draft.until}
            onChange={(e) => set({ until: e.currentTarget.value as WaitKind })}
          >
            {Object.entries(WAITS).map(([until, text]) => (
              <option key={until} value={until}>
                {text}
              </option>
            ))}
          </select>
        )}
      </Field>
      {draft.until === 'element' && <LocatorFields {...props} />}
      {draft.until === 'element' && (
        <Field label={`${label} until it is`} error={errors.state}>
          {(p) => (
            <select
              {...p}
              value={draft.state}
              onChange={(e) => set({ state: e.currentTarget.value as ElementState })}
            >
              {Object.entries(STATES).map(([state, text]) => (
                <option key={state} value={state}>
                  {text}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {draft.until === 'text' && (
        <div class="row">
          <TextField
            label={`${label} text`}
            error={errors.text}
            value={draft.text}
            onInput={(text) => set({ text })}
          />
          <Check
            label={`${label} exact text`}
            checked={draft.exact ?? false}
            error={errors.exact}
            onChange={(exact) => set({ exact })}
          />
        </div>
      )}
      {draft.until === 'url' && <MatchFields {...props} what="URL" path="url" />}
    </>
  );
}

/** What expect holds the page to, and its fields. */
function ExpectFields(props: FieldsProps) {
  const { draft, label, errors, set } = props;
  const matched: Partial<Record<AssertionKind, string>> = {
    text: 'text',
    value: 'value',
    url: 'URL',
    title: 'title',
  };
  const what = matched[draft.that];
  return (
    <>
      <Field label={`${label} expects`} error={errors.that}>
        {(p) => (
          <select
            {...p}
            value={draft.that}
            onChange={(e) => set({ that: e.currentTarget.value as AssertionKind })}
          >
            {Object.entries(ASSERTIONS).map(([that, text]) => (
              <option key={that} value={that}>
                {text}
              </option>
            ))}
          </select>
        )}
      </Field>
      {hasLocator(draft) && <LocatorFields {...props} />}
      {what && <MatchFields {...props} what={what} path={draft.that} />}
      {draft.that === 'checked' && <Checked {...props} />}
      {draft.that === 'count' && (
        <div class="row">
          <Field label={`${label} count is`} error={errors.op}>
            {(p) => (
              <select
                {...p}
                value={draft.op}
                onChange={(e) => set({ op: e.currentTarget.value as CountOperator })}
              >
                {Object.entries(OPERATORS).map(([op, text]) => (
                  <option key={op} value={op}>
                    {text}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={`${label} count`} error={errors.count}>
            {(p) => (
              <input
                {...p}
                type="number"
                inputMode="numeric"
                min={0}
                value={draft.count}
                onInput={(e) => set({ count: e.currentTarget.value })}
              />
            )}
          </Field>
        </div>
      )}
      {draft.that === 'attribute' && (
        <>
          <TextField
            label={`${label} attribute`}
            error={errors.attribute}
            value={draft.attribute}
            hint="Such as href or aria-expanded."
            onInput={(attribute) => set({ attribute })}
          />
          <MatchFields {...props} what="attribute value" path="value" optional />
        </>
      )}
    </>
  );
}

/** The fields of the step's action (its name, timeout and moves are the step editor's). */
export function ActionFields(props: FieldsProps) {
  const { draft, label, errors, set } = props;
  switch (draft.action) {
    case 'goto':
      return (
        <TextField
          label={`${label} URL`}
          error={errors.url}
          value={draft.url}
          hint="http(s); variables as {{name}}, such as {{base}}/sign-in."
          onInput={(url) => set({ url })}
        />
      );
    case 'click':
      return <LocatorFields {...props} />;
    case 'fill':
      return (
        <>
          <LocatorFields {...props} />
          <TextField
            label={`${label} value`}
            error={errors.value}
            value={draft.value}
            hint="Replaces what the field holds. A password as {{secret.NAME}}."
            onInput={(value) => set({ value })}
          />
        </>
      );
    case 'select':
      return (
        <>
          <LocatorFields {...props} />
          <Check
            label={`${label} chooses several`}
            checked={draft.several}
            onChange={(several) => set({ several })}
          />
          <Field
            label={`${label} ${draft.several ? 'options' : 'option'}`}
            error={errorAt(errors, 'value', 'values')}
            hint={draft.several ? 'One a line, by value or label.' : 'By its value or its label.'}
          >
            {(p) =>
              draft.several ? (
                <textarea
                  {...p}
                  rows={3}
                  value={draft.value}
                  onInput={(e) => set({ value: e.currentTarget.value })}
                />
              ) : (
                <input {...p} value={draft.value} onInput={(e) => set({ value: e.currentTarget.value })} />
              )
            }
          </Field>
        </>
      );
    case 'check':
      return (
        <>
          <LocatorFields {...props} />
          <Checked {...props} />
        </>
      );
    case 'press':
      return (
        <>
          <Check
            label={`${label} presses on an element`}
            checked={draft.onElement}
            onChange={(onElement) => set({ onElement })}
          />
          {draft.onElement && <LocatorFields {...props} />}
          <TextField
            label={`${label} key`}
            error={errors.key}
            value={draft.chord}
            hint="A key or a chord: Enter, Tab, ArrowDown, Control+A."
            onInput={(chord) => set({ chord })}
          />
        </>
      );
    case 'hover':
      return <LocatorFields {...props} />;
    case 'upload':
      return (
        <>
          <LocatorFields {...props} />
          <FileField {...props} />
        </>
      );
    case 'waitFor':
      return <WaitFields {...props} />;
    case 'expect':
      return <ExpectFields {...props} />;
    case 'screenshot':
      return (
        <Check
          label={`${label} takes the whole page`}
          checked={draft.fullPage}
          error={errors.fullPage}
          onChange={(fullPage) => set({ fullPage })}
        />
      );
  }
}
