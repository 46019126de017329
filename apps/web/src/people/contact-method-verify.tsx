import { useEffect, useRef, useState } from 'preact/hooks';
import { verifyContactMethodBody } from '../../../../libs/contact-methods/contact-method.schema.js';
import { api, problemText } from '../api/client.js';
import { type ContactMethod, contactMethodKeys } from '../api/contact-methods.js';
import { write } from '../api/query.js';
import { Field, FormError, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';

/** When a refused resend may be asked again, from its Retry-After (seconds). */
function retryWords(response: Response): string {
  const seconds = Number(response.headers.get('Retry-After'));
  if (!Number.isFinite(seconds) || seconds <= 0) return 'Try again later.';
  const at = new Date(Date.now() + seconds * 1000).toLocaleTimeString();
  const wait = seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
  return `You can ask again in ${wait} (at ${at}).`;
}

/** The code sent to a new method, entered; or a new one asked for (one a minute, five an hour). */
export function VerifyMethod({ method, justAdded }: { method: ContactMethod; justAdded: boolean }) {
  const form = useForm(
    { code: '' },
    { schema: verifyContactMethodBody, body: ({ code }) => ({ code: code.trim() }) },
  );
  const codeInput = useRef<HTMLInputElement>(null);
  // Just added: the code is what comes next, asked for where the person is.
  useEffect(() => {
    if (justAdded) codeInput.current?.focus();
  }, [justAdded]);
  const [resent, setResent] = useState<{ ok: boolean; words: string } | null>(null);
  const path = { params: { path: { id: method.id } } };
  const verify = async (event: Event) => {
    event.preventDefault();
    setResent(null);
    const body = form.check();
    if (!body) return;
    form.answered(
      await write(api.POST('/api/me/contact-methods/{id}/verify', { ...path, body }), contactMethodKeys.mine),
    );
  };
  const resend = async () => {
    const { error, response } = await write(
      api.POST('/api/me/contact-methods/{id}/resend', path),
      contactMethodKeys.mine,
    );
    if (response.ok) return setResent({ ok: true, words: `A new code is on its way to ${method.address}.` });
    setResent({
      ok: false,
      words: response.status === 429 ? `${problemText(error)}. ${retryWords(response)}` : problemText(error),
    });
  };
  const expiresAt = method.codeExpiresAt ? Date.parse(method.codeExpiresAt) : null;
  const expires = expiresAt ? new Date(expiresAt).toLocaleTimeString() : null;
  const hint =
    expiresAt === null || expiresAt < Date.now()
      ? '6 digits. No code is valid now: send a new one.'
      : `6 digits, valid until ${expires}`;
  return (
    <form onSubmit={verify} noValidate aria-label={`Verify ${method.address}`}>
      {justAdded && !resent && (
        <Notice>
          A code was sent to {method.address}: enter it here{expires ? ` before ${expires}` : ''}.
        </Notice>
      )}
      {resent?.ok && <Notice>{resent.words}</Notice>}
      <FormError message={resent && !resent.ok ? resent.words : form.message} />
      <Field label={`Code sent to ${method.address}`} error={form.errors.code} hint={hint}>
        {(props) => (
          <input
            {...props}
            autocomplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            ref={codeInput}
            required
            {...form.bind('code')}
          />
        )}
      </Field>
      <div class="actions">
        <button type="submit" class="primary">
          Verify
        </button>
        <button type="button" onClick={() => void resend()}>
          Send a new code
        </button>
      </div>
    </form>
  );
}
