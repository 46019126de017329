import { useEffect, useState } from 'preact/hooks';
import { api, fieldErrors, problemText, type Schemas } from '../api/client.js';
import { write } from '../api/query.js';
import { useCheckConfig, websiteKeys } from '../api/websites.js';
import { Check, Field, FormError, Notice } from '../ui/form.js';
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
  const [config, setConfig] = useState<Config | null>(null);
  const [codes, setCodes] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  // Filled once: a read again later (another form on the page saved) keeps what is being typed here.
  useEffect(() => {
    if (loaded.data && !config) {
      setConfig(loaded.data);
      setCodes(loaded.data.expectedStatusCodes.join(', '));
    }
  }, [loaded.data, config]);
  if (!config) return <FormError message={loaded.error} />;
  const set = <K extends keyof Config>(key: K, value: Config[K]) => setConfig({ ...config, [key]: value });
  const number = (text: string) => (text.trim() === '' ? null : Number(text));

  const save = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const { websiteId: _id, ...fields } = config;
    const { data, error } = await write(
      api.PATCH('/api/websites/{websiteRef}/check-config', {
        params: { path: { websiteRef } },
        body: {
          ...fields,
          expectedStatusCodes: codes
            .split(',')
            .map((c) => c.trim())
            .filter(Boolean),
        },
      }),
      websiteKeys.one(websiteRef),
    );
    if (data) {
      setConfig(data);
      setErrors({});
      setMessage(null);
      setSaved(true);
    } else {
      setErrors(fieldErrors(error));
      setMessage(problemText(error));
    }
  };

  return (
    <form onSubmit={save} noValidate aria-labelledby="checks-title" id="checks">
      <h2 id="checks-title">Checks</h2>
      {saved && <Notice>The checks are saved.</Notice>}
      <FormError message={message} />
      <fieldset>
        <legend>Which checks run</legend>
        {TOGGLES.map(([key, label]) => (
          <Check
            key={key}
            label={label}
            checked={config[key]}
            onChange={(on) => set(key, on)}
            error={errors[key]}
          />
        ))}
      </fieldset>
      <fieldset>
        <legend>Bounds</legend>
        <Field label="Expected status codes" error={errors.expectedStatusCodes} hint="e.g. 200, 2xx, 301">
          {(props) => <input {...props} value={codes} onInput={(e) => setCodes(e.currentTarget.value)} />}
        </Field>
        <Field label="Slow above (ms)" error={errors.responseTimeThresholdMs}>
          {(props) => (
            <input
              {...props}
              type="number"
              min={1}
              value={config.responseTimeThresholdMs}
              onInput={(e) => set('responseTimeThresholdMs', Number(e.currentTarget.value))}
            />
          )}
        </Field>
        <Field label="Keyword" error={errors.keyword}>
          {(props) => (
            <input
              {...props}
              value={config.keyword ?? ''}
              onInput={(e) => set('keyword', e.currentTarget.value || null)}
            />
          )}
        </Field>
        <div class="row">
          <Field label="The keyword must be" error={errors.keywordMode}>
            {(props) => (
              <select
                {...props}
                value={config.keywordMode}
                onChange={(e) => set('keywordMode', e.currentTarget.value as Config['keywordMode'])}
              >
                <option value="present">present</option>
                <option value="absent">absent</option>
              </select>
            )}
          </Field>
          <Check
            label="Case-sensitive"
            checked={config.keywordCaseSensitive}
            onChange={(on) => set('keywordCaseSensitive', on)}
          />
        </div>
        <div class="row">
          <Field label="Smallest page (bytes)" error={errors.minPageSize}>
            {(props) => (
              <input
                {...props}
                type="number"
                min={0}
                value={config.minPageSize ?? ''}
                onInput={(e) => set('minPageSize', number(e.currentTarget.value))}
              />
            )}
          </Field>
          <Field label="Largest page (bytes)" error={errors.maxPageSize}>
            {(props) => (
              <input
                {...props}
                type="number"
                min={0}
                value={config.maxPageSize ?? ''}
                onInput={(e) => set('maxPageSize', number(e.currentTarget.value))}
              />
            )}
          </Field>
        </div>
      </fieldset>
      <AssertionsEditor
        assertions={config.assertions}
        onChange={(assertions) => set('assertions', assertions)}
        errors={errors}
      />
      <button type="submit" class="primary">
        Save the checks
      </button>
    </form>
  );
}
