import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, fieldErrors, parseProblem, problemText } from '../api/client.js';
import { Field, FormError, Notice } from '../ui/form.js';
import { NewPasswordField } from './new-password.js';

/** Without a token: ask for the e-mail. With the e-mailed `?token=…`: choose a new password. */
export function ResetPassword() {
  const { query } = useLocation();
  return query.token ? <SetPassword token={query.token} /> : <RequestReset />;
}

function RequestReset() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const send = async (event: Event) => {
    event.preventDefault();
    // 202 has no JSON body (Koa answers its reason phrase): read it as text, a problem as JSON.
    const { error, response } = await api.POST('/api/auth/password-reset', {
      body: { email },
      parseAs: 'text',
    });
    if (response.status === 202) setSent(true);
    else {
      const problem = parseProblem(error);
      setErrors(fieldErrors(problem));
      setMessage(problemText(problem));
    }
  };
  return (
    <section class="narrow">
      <h1>Reset your password</h1>
      {sent ? (
        <Notice>
          If an account uses {email}, a link to choose a new password is on its way (valid 1 hour).
        </Notice>
      ) : (
        <form onSubmit={send} noValidate>
          <FormError message={message} />
          <Field label="E-mail" error={errors.email}>
            {(props) => (
              <input
                {...props}
                type="email"
                autocomplete="username"
                required
                value={email}
                onInput={(e) => setEmail(e.currentTarget.value)}
              />
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
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const save = async (event: Event) => {
    event.preventDefault();
    const { error, response } = await api.POST('/api/auth/password-reset/confirm', {
      body: { token, password },
    });
    if (response.ok) setDone(true);
    else {
      setErrors(fieldErrors(error));
      setMessage(problemText(error));
    }
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
          <FormError message={message} />
          <NewPasswordField
            label="New password"
            value={password}
            error={errors.password}
            onInput={setPassword}
          />
          <button type="submit" class="primary">
            Save the password
          </button>
        </form>
      )}
    </section>
  );
}
