import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, pastedToken } from '../api/client.js';
import { useSession } from '../session.js';
import { Field, FormError } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { NewPasswordField } from './new-password.js';

/** The e-mailed link `/accept-invitation?token=…`: choose a name and a password, then signed in. */
export function AcceptInvitation() {
  const { query, route } = useLocation();
  const session = useSession();
  const token = query.token ?? '';
  const form = useForm(
    { name: '', password: '' },
    { body: ({ name, password }) => ({ token, name, password }) },
  );
  const [busy, setBusy] = useState(false);

  const accept = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    setBusy(true);
    const answer = await api.POST('/api/auth/accept-invitation', { body });
    setBusy(false);
    if (!form.answered(answer)) return;
    pastedToken.clear();
    await session.signedIn();
    route('/');
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
        <FormError message={form.message} />
        <Field label="Your name" error={form.errors.name}>
          {(props) => <input {...props} autocomplete="name" required {...form.bind('name')} />}
        </Field>
        <NewPasswordField label="Password" error={form.errors.password} {...form.bind('password')} />
        {form.errors.token && <FormError message={`The link: ${form.errors.token}`} />}
        <button type="submit" class="primary" disabled={busy}>
          Create my account
        </button>
      </form>
    </section>
  );
}
