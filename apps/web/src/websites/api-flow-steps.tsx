import { Check, Field } from '../ui/form.js';
import { type ItemEditorProps, OrderControls } from '../ui/ordered-list-editor.js';
import {
  type ExtractSource,
  HEADER_NAME_REFUSAL,
  METHODS,
  type Method,
  SOURCES,
  type StepDraft,
} from './api-flow-drafts.js';
import { AssertionsEditor } from './assertions-editor.js';

/** One step: its request, what its answer must be, the values kept from it; moved, removed. */
export function StepEditor({ draft, errors, place }: ItemEditorProps<StepDraft>) {
  const { index, onChange } = place;
  const set = (change: Partial<StepDraft>) => onChange({ ...draft, ...change });
  const label = `Step ${index + 1}`;
  const setHeader = (at: number, change: Partial<{ name: string; value: string }>) =>
    set({ headers: draft.headers.map((h, i) => (i === at ? { ...h, ...change } : h)) });
  const setExtract = (at: number, change: Partial<StepDraft['extract'][number]>) =>
    set({ extract: draft.extract.map((e, i) => (i === at ? { ...e, ...change } : e)) });
  return (
    <fieldset class="card api-flow-step">
      <legend>
        {label}
        {draft.name ? `: ${draft.name}` : ''}
      </legend>
      <div class="row">
        <Field label={`${label} name`} error={errors.name} hint="As a failure names it: “Sign in”.">
          {(props) => (
            <input {...props} value={draft.name} onInput={(e) => set({ name: e.currentTarget.value })} />
          )}
        </Field>
        <Field label={`${label} method`} error={errors['request.method']}>
          {(props) => (
            <select
              {...props}
              value={draft.method}
              onChange={(e) => set({ method: e.currentTarget.value as Method })}
            >
              {METHODS.map((method) => (
                <option key={method}>{method}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Field
        label={`${label} URL`}
        error={errors['request.url']}
        hint="Values as {{name}} (a variable, or one an earlier step extracts), secrets as {{secret.NAME}}."
      >
        {(props) => (
          <input
            {...props}
            spellcheck={false}
            autocomplete="off"
            placeholder="https://api.example.com/login"
            value={draft.url}
            onInput={(e) => set({ url: e.currentTarget.value })}
          />
        )}
      </Field>
      {draft.headers.map((header, at) => {
        // The API names the header for a refused name and a refused value alike: shown where the fault is.
        const error = errors[`request.headers.${header.name}`];
        const nameRefused = error !== undefined && HEADER_NAME_REFUSAL.test(error);
        return (
          <div class="row header-row" key={at}>
            <Field label={`${label} header ${at + 1} name`} error={nameRefused ? error : undefined}>
              {(props) => (
                <input
                  {...props}
                  value={header.name}
                  onInput={(e) => setHeader(at, { name: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field
              label={`${label} header ${at + 1} value`}
              error={nameRefused ? undefined : error}
              hint="A credential (Authorization, a token, a key) only as {{secret.NAME}} or {{name}}."
            >
              {(props) => (
                <input
                  {...props}
                  autocomplete="off"
                  spellcheck={false}
                  value={header.value}
                  onInput={(e) => setHeader(at, { value: e.currentTarget.value })}
                />
              )}
            </Field>
            <button
              type="button"
              class="link"
              onClick={() => set({ headers: draft.headers.filter((_, i) => i !== at) })}
            >
              Remove <span class="visually-hidden">{`header ${at + 1} of step ${index + 1}`}</span>
            </button>
          </div>
        );
      })}
      {errors['request.headers'] && <p class="error-text">{errors['request.headers']}</p>}
      <p>
        <button type="button" onClick={() => set({ headers: [...draft.headers, { name: '', value: '' }] })}>
          Add a header to step {index + 1}
        </button>
      </p>
      <Field
        label={`${label} body (optional)`}
        error={errors['request.body']}
        hint="Sent as written: give its Content-Type."
      >
        {(props) => (
          <textarea
            {...props}
            rows={3}
            spellcheck={false}
            value={draft.body}
            onInput={(e) => set({ body: e.currentTarget.value })}
          />
        )}
      </Field>
      <div class="row">
        <Field
          label={`${label} expected status`}
          error={errors.expectedStatusCodes}
          hint="Codes or ranges: 200-299, 304."
        >
          {(props) => (
            <input
              {...props}
              value={draft.statuses}
              onInput={(e) => set({ statuses: e.currentTarget.value })}
            />
          )}
        </Field>
        <Check
          label={`${label} follows redirects`}
          checked={draft.followRedirects}
          onChange={(followRedirects) => set({ followRedirects })}
        />
      </div>
      <AssertionsEditor
        assertions={draft.assertions}
        errors={errors}
        onChange={(assertions) => set({ assertions })}
      />
      <fieldset class="extractions">
        <legend>Values kept for the steps after</legend>
        {draft.extract.map((extraction, at) => {
          const source = SOURCES.find(([from]) => from === extraction.from) ?? SOURCES[0];
          const error = (field: string) => errors[`extract.${at}.${field}`];
          return (
            <div class="row" key={at}>
              <Field
                label={`Value ${at + 1} name`}
                error={error('name')}
                hint={`Used as {{${extraction.name || 'name'}}}.`}
              >
                {(props) => (
                  <input
                    {...props}
                    value={extraction.name}
                    onInput={(e) => setExtract(at, { name: e.currentTarget.value })}
                  />
                )}
              </Field>
              <Field label={`Value ${at + 1} from`} error={error('from')}>
                {(props) => (
                  <select
                    {...props}
                    value={extraction.from}
                    onChange={(e) => setExtract(at, { from: e.currentTarget.value as ExtractSource })}
                  >
                    {SOURCES.map(([from, text]) => (
                      <option key={from} value={from}>
                        {text}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field
                label={`Value ${at + 1} ${extraction.from === 'jsonBody' ? 'JSON path' : extraction.from === 'header' ? 'header' : 'pattern'}`}
                error={error('path') ?? error('header') ?? error('pattern')}
              >
                {(props) => (
                  <input
                    {...props}
                    spellcheck={false}
                    placeholder={source[2]}
                    value={extraction.target}
                    onInput={(e) => setExtract(at, { target: e.currentTarget.value })}
                  />
                )}
              </Field>
              <button
                type="button"
                class="link"
                onClick={() => set({ extract: draft.extract.filter((_, i) => i !== at) })}
              >
                Remove <span class="visually-hidden">{`value ${at + 1} of step ${index + 1}`}</span>
              </button>
            </div>
          );
        })}
        <p>
          <button
            type="button"
            onClick={() => set({ extract: [...draft.extract, { name: '', from: 'jsonBody', target: '' }] })}
          >
            Keep a value of step {index + 1}
          </button>
        </p>
      </fieldset>
      <OrderControls noun="step" place={place} />
    </fieldset>
  );
}
