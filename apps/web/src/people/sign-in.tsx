import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, fieldErrors, pastedToken, problemText } from '../api/client.js';
import { useSession } from '../session.js';
import { offersRetry, refusalSentence } from '../sso/refusals.js';
import { SsoButtons, SsoLinkStep, SsoRetry } from '../sso/sign-in-sso.js';
import { Field, FormError } from '../ui/form.js';
import { nextPath, serverPagePath } from './next-path.js';

export function SignIn() {
  const { query } = useLocation();
  // A provider's sign-in waits for this account's password (single sign-on's link step).
  return query['sso-link'] ? <SsoLinkStep /> : <PasswordSignIn />;
}

function PasswordSignIn() {
  const { route, query } = useLocation();
  const session = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Single sign-on came back refused: why, and whom to ask.
  const [message, setMessage] = useState<string | null>(() => refusalSentence(query['sso-error']));
  const [prompt, setPrompt] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [token, setToken] = useState('');
  const [tokenError, setTokenError] = useState<string | null>(null);

  const signIn = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const { data, error, response } = await api.POST('/api/auth/login', {
      // An empty code field is not sent: the API then says whether one is needed.
      body: { email, password, ...(totp ? { totp } : {}) },
    });
    setBusy(false);
    if (data) {
      pastedToken.clear();
      await session.signedIn();
      const next = nextPath(query);
      // The app's router has no such page: the browser loads it, with the new session cookie.
      const serverPage = serverPagePath(next, location.origin);
      if (serverPage) location.assign(serverPage);
      else route(next);
      return;
    }
    const code = (error as { code?: string } | undefined)?.code;
    if (code === 'totp-required') {
      setTotp('');
      setErrors({});
      // A step of signing in, not a mistake: said as a prompt, not as an error.
      setMessage(null);
      setPrompt('Enter the code of your authenticator app (or a recovery code).');
      return;
    }
    setErrors(fieldErrors(error));
    const reason = (error as { reason?: string } | undefined)?.reason;
    // Locked: the API's words say how to still get in; a code is one way, so its field is offered.
    if ((reason === 'account-locked' || reason === 'failed-sign-ins-everywhere') && totp === null)
      setTotp('');
    setMessage(
      response.status === 429 && !reason
        ? `Too many tries: wait ${response.headers.get('Retry-After') ?? 'a few'} seconds.`
        : problemText(error),
    );
  };

  const useToken = async (event: Event) => {
    event.preventDefault();
    pastedToken.set(token.trim());
    // The API says whose token it is (its organization and scopes), or that it takes none such.
    const caller = await session.signedIn().catch(() => undefined);
    if (!caller) {
      pastedToken.clear();
      setTokenError(
        caller === null
          ? 'This token was not accepted (revoked, expired or mistyped).'
          : 'The API did not answer; try again.',
      );
      return;
    }
    // A pasted token is no cookie: a page the server draws would not know it; the app's overview does.
    const next = nextPath(query);
    route(serverPagePath(next, location.origin) ? '/' : next);
  };

  return (
    <section class="narrow">
      <h1>Sign in</h1>
      <form onSubmit={signIn} noValidate>
        <FormError message={message} />
        {message !== null &&
          message === refusalSentence(query['sso-error']) &&
          offersRetry(query['sso-error']) && (
            <SsoRetry providerId={query['sso-provider']} next={nextPath(query)} />
          )}
        {prompt && !message && <p role="status">{prompt}</p>}
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
          <Field
            label="Two-factor code"
            error={errors.totp}
            hint="6 digits from your app, or a recovery code (if you turned two-factor sign-in on)"
          >
            {(props) => (
              <input
                {...props}
                autocomplete="one-time-code"
                inputMode="numeric"
                required
                autofocus
                value={totp}
                onInput={(e) => setTotp(e.currentTarget.value)}
              />
            )}
          </Field>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Sign in
        </button>
      </form>
      <SsoButtons email={email} next={nextPath(query)} />
      <p>
        <a href="/reset-password">Forgot your password?</a>
      </p>
      <details class="token-sign-in">
        <summary>Use an API token instead (automation accounts)</summary>
        <form onSubmit={useToken}>
          <FormError message={tokenError} />
          <Field label="API token" hint="Kept in this tab only, sent as a bearer token.">
            {(props) => (
              <input
                {...props}
                type="password"
                autocomplete="off"
                required
                value={token}
                onInput={(e) => setToken(e.currentTarget.value)}
              />
            )}
          </Field>
          <button type="submit">Use token</button>
        </form>
      </details>
    </section>
  );
}
