import { Field } from '../ui/form.js';
import type { SecretRow } from './api-flow-drafts.js';
import { DEVICES, type Device } from './journey-choices.js';
import { errorAt } from './journey-drafts.js';
import type { CookieDraft, OptionsDraft } from './journey-options-draft.js';
import { Choice } from './monitor-forms.js';
import { NameValueRows } from './name-value-rows.js';

/** The API's refusals of a row's name (its own words); its other refusals are of the value. */
const isNameRefusal = (error: string) => /header name|the browser sets|Must be a name/.test(error);

function CookieRows({
  cookies,
  errors,
  onChange,
}: {
  cookies: CookieDraft[];
  errors: Record<string, string>;
  onChange: (cookies: CookieDraft[]) => void;
}) {
  const update = (at: number, change: Partial<CookieDraft>) =>
    onChange(cookies.map((cookie, i) => (i === at ? { ...cookie, ...change } : cookie)));
  const input = (at: number, key: 'name' | 'value' | 'scope', label: string, error: string | undefined) => (
    <Field label={`Cookie ${at + 1} ${label}`} error={error}>
      {(props) => (
        <input
          {...props}
          spellcheck={false}
          autocomplete="off"
          value={cookies[at]?.[key] ?? ''}
          onInput={(e) => update(at, { [key]: e.currentTarget.value })}
        />
      )}
    </Field>
  );
  return (
    <>
      {cookies.map((_, at) => {
        const error = (...paths: string[]) =>
          errorAt(errors, ...paths.map((path) => `cookies.${at}.${path}`));
        return (
          <div class="row" key={at}>
            {input(at, 'name', 'name', error('name'))}
            {input(at, 'value', 'value', error('value'))}
            {input(
              at,
              'scope',
              'for (a URL or a domain)',
              errors[`cookies.${at}`] ?? error('url', 'domain', 'path'),
            )}
            <button type="button" class="link" onClick={() => onChange(cookies.filter((_, i) => i !== at))}>
              Remove <span class="visually-hidden">cookie {at + 1}</span>
            </button>
          </div>
        );
      })}
      {errors.cookies && <p class="error-text">{errors.cookies}</p>}
      <p>
        <button
          type="button"
          onClick={() => onChange([...cookies, { name: '', value: '', scope: '', kept: {} }])}
        >
          Add a cookie
        </button>
      </p>
    </>
  );
}

/**
 * The browser a journey runs in (device, viewport, locale, time zone), what every request carries
 * (headers, basic auth, cookies), its variables and its write-only secrets.
 */
export function JourneyOptionsFields({
  options,
  errors,
  onChange,
}: {
  options: OptionsDraft;
  errors: Record<string, string>;
  onChange: (options: OptionsDraft) => void;
}) {
  const set = (change: Partial<OptionsDraft>) => onChange({ ...options, ...change });
  const text = (key: 'width' | 'height' | 'locale' | 'timezone' | 'basicUser' | 'basicSecret') => ({
    value: options[key],
    onInput: (e: Event) => set({ [key]: (e.currentTarget as HTMLInputElement).value }),
  });
  const sentWithEach =
    options.headers.length + options.cookies.length > 0 ||
    options.basicUser !== '' ||
    Object.keys(errors).some((path) => /^(extraHeaders|basicAuth|cookies)\b/.test(path));
  return (
    <>
      <fieldset>
        <legend>Variables</legend>
        <p class="hint">Plain values the steps use as {'{{name}}'}, such as a base URL; shown as they are.</p>
        <NameValueRows
          noun="variable"
          rows={options.variables}
          errors={errors}
          isNameRefusal={isNameRefusal}
          field="variables"
          blank={{ name: '', value: '' }}
          onChange={(variables) => set({ variables })}
        />
      </fieldset>
      <fieldset>
        <legend>Secrets</legend>
        <p class="hint">
          Values the steps use as {'{{secret.NAME}}'}, such as a password: write-only (never shown again) and
          masked in what a run keeps, its trace and alerts.
        </p>
        <NameValueRows<SecretRow>
          noun="secret"
          secret
          rows={options.secrets}
          errors={errors}
          isNameRefusal={isNameRefusal}
          field="secrets"
          blank={{ name: '', value: '', stored: false, removed: false }}
          onChange={(secrets) => set({ secrets })}
        />
      </fieldset>
      <fieldset>
        <legend>The browser</legend>
        <Choice<Device>
          legend="Device"
          value={options.device}
          options={Object.entries(DEVICES) as Array<[Device, string]>}
          onChange={(device) => set({ device })}
        />
        <div class="row">
          <Field label="Viewport width (px, optional)" error={errors['viewport.width'] ?? errors.viewport}>
            {(props) => <input {...props} inputMode="numeric" {...text('width')} />}
          </Field>
          <Field
            label="Viewport height (px, optional)"
            error={errors['viewport.height']}
            hint="Empty: the device’s."
          >
            {(props) => <input {...props} inputMode="numeric" {...text('height')} />}
          </Field>
        </div>
        <div class="row">
          <Field label="Locale (optional)" error={errors.locale} hint="Such as en-GB or de-DE.">
            {(props) => <input {...props} spellcheck={false} {...text('locale')} />}
          </Field>
          <Field label="Time zone (optional)" error={errors.timezone} hint="Such as Europe/Berlin.">
            {(props) => <input {...props} spellcheck={false} {...text('timezone')} />}
          </Field>
        </div>
      </fieldset>
      <details class="journey-more" open={sentWithEach}>
        <summary>Headers, basic auth and cookies sent with every request</summary>
        <fieldset>
          <legend>Headers</legend>
          <NameValueRows
            noun="header"
            rows={options.headers}
            errors={errors}
            isNameRefusal={isNameRefusal}
            field="extraHeaders"
            blank={{ name: '', value: '' }}
            onChange={(headers) => set({ headers })}
          />
        </fieldset>
        <fieldset>
          <legend>HTTP basic auth</legend>
          {errors.basicAuth && <p class="error-text">{errors.basicAuth}</p>}
          <div class="row">
            <Field label="Basic auth user name" error={errors['basicAuth.username']} hint="Empty: none.">
              {(props) => <input {...props} autocomplete="off" {...text('basicUser')} />}
            </Field>
            <Field
              label="Basic auth password secret"
              error={errors['basicAuth.password']}
              hint="The name of one of the secrets above, such as SITE_PASSWORD."
            >
              {(props) => <input {...props} spellcheck={false} autocomplete="off" {...text('basicSecret')} />}
            </Field>
          </div>
        </fieldset>
        <fieldset>
          <legend>Cookies</legend>
          <p class="hint">
            Set before the first step, for a URL (https://shop.example/) or a domain (.shop.example).
          </p>
          <CookieRows cookies={options.cookies} errors={errors} onChange={(cookies) => set({ cookies })} />
        </fieldset>
      </details>
    </>
  );
}
