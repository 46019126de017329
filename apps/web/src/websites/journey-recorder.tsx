import { useState } from 'preact/hooks';
import { api, fieldErrors, type Problem, problemText } from '../api/client.js';
import { Check, Field, FormError } from '../ui/form.js';
import type { Recording } from './journey-options-draft.js';

/**
 * The recorder import box: a test `npx playwright codegen` wrote, pasted and converted by the API
 * (parsed, never run) into steps that fill the editor; the lines that did not convert are listed
 * with their line numbers and why.
 */
export function RecorderImport({
  onConverted,
}: {
  onConverted: (recording: Recording, keep: boolean) => void;
}) {
  const [code, setCode] = useState('');
  const [keep, setKeep] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState<string | null>(null);
  const [result, setResult] = useState<{
    steps: number;
    unconverted: Recording['unconverted'];
    secrets: string[];
  } | null>(null);

  const convert = async () => {
    setBusy(true);
    const { data, error: problem } = await api.POST('/api/browser-steps/from-playwright', { body: { code } });
    setBusy(false);
    if (!data) {
      setError(fieldErrors(problem as Problem | undefined).code);
      setMessage(problemText(problem as Problem | undefined));
      setResult(null);
      return;
    }
    setError(undefined);
    setMessage(null);
    const secrets = Object.keys(data.options.secrets ?? {});
    setResult({ steps: data.steps.length, unconverted: data.unconverted, secrets });
    onConverted(data, keep);
    // A password typed in the recording is a secret now: not left on the page in the pasted test.
    if (secrets.length > 0) setCode('');
  };

  return (
    <details class="recorder">
      <summary>Import a recording from Playwright</summary>
      <p class="hint">
        Record the journey with <code>npx playwright codegen https://your.site</code>, copy the test it writes
        and paste it here. It is read, never run; a password it types becomes a secret.
      </p>
      <Field label="Recorded test" error={error}>
        {(props) => (
          <textarea
            {...props}
            rows={8}
            spellcheck={false}
            autocomplete="off"
            value={code}
            onInput={(e) => setCode(e.currentTarget.value)}
          />
        )}
      </Field>
      <Check label="Keep the steps above and add these after them" checked={keep} onChange={setKeep} />
      <p>
        <button type="button" disabled={busy || code.trim() === ''} onClick={() => void convert()}>
          Convert
        </button>
      </p>
      <FormError message={message} />
      <div role="status">
        {result && (
          <p>
            {result.steps} {result.steps === 1 ? 'step' : 'steps'} converted
            {result.secrets.length === 1 && `; the password it typed is now the secret ${result.secrets[0]}`}
            {result.secrets.length > 1 &&
              `; the passwords it typed are now the secrets ${result.secrets.join(', ')}`}
            {result.unconverted.length > 0
              ? `. ${result.unconverted.length} ${result.unconverted.length === 1 ? 'line' : 'lines'} did not convert:`
              : '.'}
          </p>
        )}
      </div>
      {result && result.unconverted.length > 0 && (
        <ul class="unconverted">
          {result.unconverted.map((line) => (
            <li key={`${line.line}-${line.text}`}>
              <span class="line-no">Line {line.line}:</span> <code>{line.text}</code> — {line.reason}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
