import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, parseProblem } from '../api/client.js';
import { Field, FormError, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { NewPasswordField } from './new-password.js';

/** Without a token: ask for the e-mail. With the e-mailed `?token=…`: choose a new password. */
export function ResetPassword() {
  const { query } = useLocation();
  return query.token ? <SetPassword token={query.token} /> : <RequestReset />;
}

function RequestReset() {
  const form = useForm({ email: '' }, { body: (values) => values });
  const [sent, setSent] = useState(false);
  const send = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    // 202 has no JSON body (Koa answers its reason phrase): read it as text, a problem as JSON.
    const { error, response } = await api.POST('/api/auth/password-reset', { body, parseAs: 'text' });
    if (form.answered({ error: parseProblem(error), response })) setSent(true);
  };
  return (
    <section class="narrow">
      <h1>Reset your password</h1>
      {sent ? (
        <Notice>
          If an account uses {form.values.email}, a link to choose a new password is on its way (valid 1
          hour).
        </Notice>
      ) : (
        <form onSubmit={send} noValidate>
          <FormError message={form.message} />
          <Field label="E-mail" error={form.errors.email}>
            {(props) => (
              <input {...props} type="email" autocomplete="username" required {...form.bind('email')} />
            )}
          </Field>
          <button type="submit" class="primary">
            Send me a link
          </button>
        </form>
      )}
      <p>
        <a href="/sign-in">Back to sign in</a>
      </p>
    </section>
  );
}

function SetPassword({ token }: { token: string }) {
  const form = useForm({ password: '' }, { body: ({ password }) => ({ token, password }) });
  const [done, setDone] = useState(false);
  const save = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (body && form.answered(await api.POST('/api/auth/password-reset/confirm', { body }))) setDone(true);
  };
  return (
    <section class="narrow">
      <h1>Choose a new password</h1>
      {done ? (
        <Notice>
          Your password is changed and your other sessions are signed out. <a href="/sign-in">Sign in</a>
        </Notice>
      ) : (
        <form onSubmit={save} noValidate>
          <FormError message={form.message} />
          <NewPasswordField label="New password" error={form.errors.password} {...form.bind('password')} />
          <button type="submit" class="primary">
            Save the password
          </button>
        </form>
      )}
    </section>
  );
}
