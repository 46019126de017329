import { useRef, useState } from 'preact/hooks';
import { api, type Schemas } from '../api/client.js';
import { write } from '../api/query.js';
import { useCheckConfig, websiteKeys } from '../api/websites.js';
import { Check, Field, FormError, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { AssertionsEditor } from './assertions-editor.js';

type Config = Schemas['CheckConfig'];
type Toggle = keyof Pick<
  Config,
  | 'checkStatusEnabled'
  | 'checkResponseTimeEnabled'
  | 'checkKeywordEnabled'
  | 'checkSizeEnabled'
  | 'checkSslEnabled'
  | 'checkHttpsRedirectEnabled'
  | 'checkDomainExpiryEnabled'
>;

const TOGGLES: Array<[Toggle, string]> = [
  ['checkStatusEnabled', 'Status code check'],
  ['checkResponseTimeEnabled', 'Response time check'],
  ['checkKeywordEnabled', 'Keyword check'],
  ['checkSizeEnabled', 'Page size check'],
  ['checkSslEnabled', 'TLS certificate check'],
  ['checkHttpsRedirectEnabled', 'HTTPS redirect check'],
  ['checkDomainExpiryEnabled', 'Domain expiry check'],
];

/** The seven checks of one website, their bounds, and the assertions on its answer. */
export function CheckConfigForm({ websiteRef }: { websiteRef: string }) {
  const loaded = useCheckConfig(websiteRef);
  // Filled once: a read again later (another form on the page saved) keeps what is being typed here.
  const first = useRef<Config | undefined>(undefined);
  first.current ??= loaded.data;
  if (!first.current) return <FormError message={loaded.error} />;
  return <CheckConfigFields websiteRef={websiteRef} config={first.current} />;
}

/** A number field's text as the API takes it: empty is null (no bound). */
const bound = (text: string) => (text.trim() === '' ? null : Number(text));

function CheckConfigFields({ websiteRef, config }: { websiteRef: string; config: Config }) {
  const [assertions, setAssertions] = useState(config.assertions);
  const form = useForm(
    {
      ...(Object.fromEntries(TOGGLES.map(([key]) => [key, config[key]])) as Record<Toggle, boolean>),
      codes: config.expectedStatusCodes.join(', '),
      responseTimeThresholdMs: String(config.responseTimeThresholdMs),
      keyword: config.keyword ?? '',
      keywordMode: config.keywordMode as string,
      keywordCaseSensitive: config.keywordCaseSensitive,
      minPageSize: String(config.minPageSize ?? ''),
      maxPageSize: String(config.maxPageSize ?? ''),
    },
    {
      body: (v) => ({
        ...Object.fromEntries(TOGGLES.map(([key]) => [key, v[key]])),
        expectedStatusCodes: v.codes
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean),
        responseTimeThresholdMs: Number(v.responseTimeThresholdMs),
        keyword: v.keyword || null,
        keywordMode: v.keywordMode as Config['keywordMode'],
        keywordCaseSensitive: v.keywordCaseSensitive,
        minPageSize: bound(v.minPageSize),
        maxPageSize: bound(v.maxPageSize),
        assertions,
      }),
    },
  );
  const { values, errors } = form;

  const save = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    form.answered(
      await write(
        api.PATCH('/api/websites/{websiteRef}/check-config', { params: { path: { websiteRef } }, body }),
        websiteKeys.one(websiteRef),
      ),
    );
  };

  return (
    <form onSubmit={save} noValidate aria-labelledby="checks-title" id="checks">
      <h2 id="checks-title">Checks</h2>
      {form.saved && <Notice>The checks are saved.</Notice>}
      <FormError message={form.message} />
      <fieldset>
        <legend>Which checks run</legend>
        {TOGGLES.map(([key, label]) => (
          <Check
            key={key}
            label={label}
            checked={values[key]}
            onChange={(on) => form.set(key, on)}
            error={errors[key]}
          />
        ))}
      </fieldset>
      <fieldset>
        <legend>Bounds</legend>
        <Field label="Expected status codes" error={errors.expectedStatusCodes} hint="e.g. 200, 2xx, 301">
          {(props) => <input {...props} {...form.bind('codes', 'expectedStatusCodes')} />}
        </Field>
        <Field label="Slow above (ms)" error={errors.responseTimeThresholdMs}>
          {(props) => <input {...props} type="number" min={1} {...form.bind('responseTimeThresholdMs')} />}
        </Field>
        <Field label="Keyword" error={errors.keyword}>
          {(props) => <input {...props} {...form.bind('keyword')} />}
        </Field>
        <div class="row">
          <Field label="The keyword must be" error={errors.keywordMode}>
            {(props) => (
              <select {...props} {...form.bind('keywordMode')}>
                <option value="present">present</option>
                <option value="absent">absent</option>
              </select>
            )}
          </Field>
          <Check
            label="Case-sensitive"
            checked={values.keywordCaseSensitive}
            onChange={(on) => form.set('keywordCaseSensitive', on)}
          />
        </div>
        <div class="row">
          <Field label="Smallest page (bytes)" error={errors.minPageSize}>
            {(props) => <input {...props} type="number" min={0} {...form.bind('minPageSize')} />}
          </Field>
          <Field label="Largest page (bytes)" error={errors.maxPageSize}>
            {(props) => <input {...props} type="number" min={0} {...form.bind('maxPageSize')} />}
          </Field>
        </div>
      </fieldset>
      <AssertionsEditor assertions={assertions} onChange={setAssertions} errors={errors} />
      <button type="submit" class="primary">
        Save the checks
      </button>
    </form>
  );
}
