import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { openApiSchemas } from '../api/openapi.js';
import { Field, FormError, Notice } from '../ui/form.js';
import { type Bound, useForm } from '../ui/use-form.js';

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
export function NewPasswordField({
  label,
  error,
  ...bound
}: Bound & { label: string; error: string | undefined }) {
  const hint = usePasswordRule();
  return (
    <Field label={label} error={error} hint={hint}>
      {(field) => (
        <input {...field} type="password" autocomplete="new-password" required minLength={12} {...bound} />
      )}
    </Field>
  );
}

/** The signed-in person changes their password; every other session of theirs ends. */
export function ChangePassword() {
  const blank = { current: '', next: '' };
  const form = useForm(blank, {
    body: ({ current, next }) => ({ currentPassword: current, newPassword: next }),
  });
  const [done, setDone] = useState(false);
  const save = async (event: Event) => {
    event.preventDefault();
    setDone(false);
    const body = form.check();
    if (!body || !form.answered(await api.POST('/api/me/password', { body }))) return;
    setDone(true);
    form.reset(blank);
  };
  return (
    <section aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      {done && <Notice>Your password is changed; your other sessions are signed out.</Notice>}
      <form onSubmit={save} noValidate>
        <FormError message={form.message} />
        <Field label="Current password" error={form.errors.currentPassword}>
          {(field) => (
            <input
              {...field}
              type="password"
              autocomplete="current-password"
              required
              {...form.bind('current', 'currentPassword')}
            />
          )}
        </Field>
        <NewPasswordField
          label="New password"
          error={form.errors.newPassword}
          {...form.bind('next', 'newPassword')}
        />
        <button type="submit">Change the password</button>
      </form>
    </section>
  );
}
