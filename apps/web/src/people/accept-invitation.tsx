import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, fieldErrors, pastedToken, problemText } from '../api/client.js';
import { useSession } from '../session.js';
import { Field, FormError } from '../ui/form.js';
import { NewPasswordField } from './new-password.js';

/** The e-mailed link `/accept-invitation?token=…`: choose a name and a password, then signed in. */
export function AcceptInvitation() {
  const { query, route } = useLocation();
  const session = useSession();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const token = query.token ?? '';

  const accept = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const { data, error } = await api.POST('/api/auth/accept-invitation', {
      body: { token, name, password },
    });
    setBusy(false);
    if (data) {
      pastedToken.clear();
      await session.signedIn();
      route('/');
      return;
    }
    setErrors(fieldErrors(error));
    setMessage(problemText(error));
  };

  if (!token)
    return (
      <section class="narrow">
        <h1>Accept an invitation</h1>
        <p>This page opens from the link in your invitation e-mail. Ask whoever invited you for a new one.</p>
      </section>
    );
  return (
    <section class="narrow">
      <h1>Accept your invitation</h1>
      <p>Choose the name others see and a password.</p>
      <form onSubmit={accept} noValidate>
        <FormError message={message} />
        <Field label="Your name" error={errors.name}>
          {(props) => (
            <input
              {...props}
              autocomplete="name"
              required
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          )}
        </Field>
        <NewPasswordField label="Password" value={password} error={errors.password} onInput={setPassword} />
        {errors.token && <FormError message={`The link: ${errors.token}`} />}
        <button type="submit" class="primary" disabled={busy}>
          Create my account
        </button>
      </form>
    </section>
  );
}
