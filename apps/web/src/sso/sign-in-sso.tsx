import './sso.css';
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, fieldErrors, problemText, type Schemas } from '../api/client.js';
import { nextPath } from '../people/next-path.js';
import { useSession } from '../session.js';
import { Field, FormError, Loading } from '../ui/form.js';

/** How long the typed e-mail rests before its domain's providers are asked for. */
const ASK_AFTER_MS = 300;

/**
 * "Sign in with <provider>" for the e-mail typed: the providers that sign in its domain (the API
 * tells nothing else of them). Each is a link to its start, carrying where to land after.
 */
export function SsoButtons({ email, next }: { email: string; next: string }) {
  const [providers, setProviders] = useState<Schemas['SsoProviderButton'][]>([]);
  const domain = email.includes('@')
    ? email
        .slice(email.lastIndexOf('@') + 1)
        .trim()
        .toLowerCase()
    : '';
  useEffect(() => {
    if (!domain.includes('.')) return setProviders([]);
    let current = true;
    const timer = setTimeout(async () => {
      const { data } = await api.GET('/api/auth/sso/providers', {
        params: { query: { email: `x@${domain}` } },
      });
      if (current) setProviders(data ?? []);
    }, ASK_AFTER_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [domain]);
  if (providers.length === 0) return null;
  return (
    <nav class="sso-buttons" aria-label="Single sign-on">
      {providers.map((provider) => (
        <a key={provider.id} target="_top" class="button primary" href={startHref(provider.id, next)}>
          Sign in with {provider.name}
        </a>
      ))}
    </nav>
  );
}

/** A provider's start (an API page, so `_top`: the app's router leaves the click to the browser). */
const startHref = (providerId: number, next: string) =>
  `/api/auth/sso/${providerId}/start?next=${encodeURIComponent(next)}`;

/**
 * After a refusal another try may get past: the provider the sign-in was with, offered again
 * (its id came back with the refusal; its name is not asked for, so nothing about it is told).
 */
export function SsoRetry({ providerId, next }: { providerId: string | undefined; next: string }) {
  const id = Number(providerId);
  if (!Number.isSafeInteger(id) || id < 1) return null;
  return (
    <p class="sso-retry">
      <a target="_top" class="button primary" href={startHref(id, next)}>
        Sign in with your identity provider again
      </a>
    </p>
  );
}

/**
 * The link step: a provider's e-mail is an existing password account's, so that account's person
 * confirms with its password (and two-factor code) once; then the provider signs them in alone.
 */
export function SsoLinkStep() {
  const { route, query } = useLocation();
  const session = useSession();
  const [pending, setPending] = useState<Schemas['PendingSsoLink'] | null | undefined>(undefined);
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    api.GET('/api/auth/sso/link').then(({ data }) => setPending(data ?? null));
  }, []);
  if (pending === undefined) return <Loading error={null} />;
  if (pending === null)
    return (
      <section class="narrow">
        <h1>Link your account</h1>
        <p>Nothing waits to be linked any more (it took more than 10 minutes, or was done): sign in again.</p>
        <p>
          <a href="/sign-in">Back to signing in</a>
        </p>
      </section>
    );
  const submit = async (event: Event) => {
    event.preventDefault();
    const { data, error } = await api.POST('/api/auth/sso/link', {
      body: { email: pending.email, password, ...(totp ? { totp } : {}) },
    });
    if (data) {
      await session.signedIn();
      route(nextPath(query));
      return;
    }
    if ((error as { code?: string } | undefined)?.code === 'totp-required') {
      setTotp('');
      setMessage(null);
      return;
    }
    setErrors(fieldErrors(error));
    setMessage(problemText(error));
  };
  return (
    <section class="narrow">
      <h1>Link your account to {pending.providerName}</h1>
      <p>
        <strong>{pending.email}</strong> already has a webmon password. To let {pending.providerName} sign you
        in from now on, confirm it is you: enter that password once.
      </p>
      <form onSubmit={submit} noValidate>
        <FormError message={message} />
        <Field label="Password" error={errors.password}>
          {(props) => (
            <input
              {...props}
              type="password"
              autocomplete="current-password"
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          )}
        </Field>
        {totp !== null && (
          <Field label="Two-factor code" error={errors.totp}>
            {(props) => (
              <input
                {...props}
                autocomplete="one-time-code"
                required
                value={totp}
                onInput={(e) => setTotp(e.currentTarget.value)}
              />
            )}
          </Field>
        )}
        <button type="submit" class="primary">
          Link and sign in
        </button>
      </form>
      <p>
        Not you? <a href="/sign-in">Sign in another way</a> and ask your admin.
      </p>
    </section>
  );
}
