import { useEffect, useState } from 'preact/hooks';
import { api, fieldErrors, problemText } from '../api/client.js';
import { openApiSchemas } from '../api/openapi.js';
import { Field, FormError, Notice } from '../ui/form.js';

/** Shown until the API's own words arrive (and if they do not). */
const FALLBACK_RULE = 'At least 12 characters, not an easily guessed one.';

/** The password rule as the API states it: the `NewPassword` schema's description in /openapi.json. */
function usePasswordRule(): string {
  const [text, setText] = useState(FALLBACK_RULE);
  useEffect(() => {
    void openApiSchemas<{ description?: string }>().then((schemas) =>
      setText(schemas.NewPassword?.description ?? FALLBACK_RULE),
    );
  }, []);
  return text;
}

/** A field where a person chooses a password: the rule as its hint, the API's reason as its error. */
export function NewPasswordField(props: {
  label: string;
  value: string;
  error: string | undefined;
  onInput: (value: string) => void;
}) {
  const hint = usePasswordRule();
  return (
    <Field label={props.label} error={props.error} hint={hint}>
      {(field) => (
        <input
          {...field}
          type="password"
          autocomplete="new-password"
          required
          minLength={12}
          value={props.value}
          onInput={(e) => props.onInput(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** The signed-in person changes their password; every other session of theirs ends. */
export function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const save = async (event: Event) => {
    event.preventDefault();
    const { error, response } = await api.POST('/api/me/password', {
      body: { currentPassword: current, newPassword: next },
    });
    if (response.ok) {
      setDone(true);
      setCurrent('');
      setNext('');
      setErrors({});
      setMessage(null);
      return;
    }
    setDone(false);
    setErrors(fieldErrors(error));
    setMessage(problemText(error));
  };
  return (
    <section aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      {done && <Notice>Your password is changed; your other sessions are signed out.</Notice>}
      <form onSubmit={save} noValidate>
        <FormError message={message} />
        <Field label="Current password" error={errors.currentPassword}>
          {(field) => (
            <input
              {...field}
              type="password"
              autocomplete="current-password"
              required
              value={current}
              onInput={(e) => setCurrent(e.currentTarget.value)}
            />
          )}
        </Field>
        <NewPasswordField label="New password" value={next} error={errors.newPassword} onInput={setNext} />
        <button type="submit">Change the password</button>
      </form>
    </section>
  );
}
