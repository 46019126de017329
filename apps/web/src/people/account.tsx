import { useEffect, useMemo, useState } from 'preact/hooks';
import { renderSVG } from 'uqr';
import { api, fieldErrors, problemText, type Schemas } from '../api/client.js';
import { peopleKeys, useSessions, useTokens } from '../api/people.js';
import { write } from '../api/query.js';
import { useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { useCopy } from '../ui/copy.js';
import { Check, Field, FormError, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { browserName } from './browser-name.js';
import { ContactMethods } from './contact-methods.js';
import { ChangePassword } from './new-password.js';

/** My account: who I am, my sessions, two-factor and recovery codes, and (admins) the API tokens. */
export function Account() {
  const { caller, mustEnrol } = useSession();
  if (!caller) return null;
  if (caller.kind === 'token')
    return (
      <section>
        <h1>My account</h1>
        <p>
          You use a pasted API token: it has no person, sessions or two-factor. Sign out to end it in this
          tab.
        </p>
        <Tokens />
      </section>
    );
  const { user } = caller;
  return (
    <section>
      <h1>My account</h1>
      {mustEnrol && (
        <p class="banner error" role="alert">
          <span aria-hidden="true">⚠ </span>Your organization requires two-factor sign-in for your role: turn
          it on below to go on.
        </p>
      )}
      <dl>
        <dt>Name</dt>
        <dd>{user.name}</dd>
        <dt>E-mail</dt>
        <dd>{user.email}</dd>
        <dt>Role</dt>
        <dd>{user.role}</dd>
      </dl>
      <TwoFactor enabled={user.twoFactorEnabled} email={user.email} />
      {!mustEnrol && <ChangePassword />}
      {!mustEnrol && <ContactMethods />}
      {!mustEnrol && <Sessions />}
      {!mustEnrol && (user.role === 'admin' || user.role === 'owner') && <Tokens />}
    </section>
  );
}

function Sessions() {
  const sessions = useSessions();
  const end = (handle: string) =>
    write(api.DELETE('/api/me/sessions/{handle}', { params: { path: { handle } } }), peopleKeys.sessions);
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">Where you are signed in</h2>
      <FormError message={sessions.error} />
      <table class="stack">
        <thead>
          <tr>
            <th scope="col">Browser</th>
            <th scope="col">Address</th>
            <th scope="col">Last seen</th>
            <th scope="col">
              <span class="visually-hidden">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.data?.map((session) => (
            <tr key={session.id}>
              <td data-label="Browser" title={session.userAgent}>
                {browserName(session.userAgent)}
              </td>
              <td data-label="Address">{session.address}</td>
              <td data-label="Last seen">{new Date(session.lastSeenAt).toLocaleString()}</td>
              <td>
                {session.current ? (
                  <span>This browser</span>
                ) : (
                  <button type="button" onClick={() => void end(session.id)}>
                    Sign out there
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function TwoFactor({ enabled, email }: { enabled: boolean; email: string }) {
  const session = useSession();
  const [enrolment, setEnrolment] = useState<Schemas['TwoFactorEnrolment'] | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [disabling, setDisabling] = useState(false);

  const start = async () => {
    const { data, error } = await api.POST('/api/me/two-factor');
    if (data) setEnrolment(data);
    else setMessage(problemText(error));
  };
  const confirm = async (event: Event) => {
    event.preventDefault();
    const { data, error } = await api.POST('/api/me/two-factor/confirm', { body: { code } });
    if (data) {
      // The enrolment gate lifted and the caller asked again before the codes show: a person who
      // moves on at once must not be sent back here by the gate.
      await session.signedIn();
      setCodes(data.recoveryCodes);
      setEnrolment(null);
      setCode('');
      setMessage(null);
    } else {
      setErrors(fieldErrors(error));
      setMessage(problemText(error));
    }
  };
  const disable = async () => {
    setDisabling(false);
    const { error, response } = await api.DELETE('/api/me/two-factor', { body: { code } });
    if (response.ok) {
      setCode('');
      setMessage(null);
      await session.refresh();
    } else {
      setErrors(fieldErrors(error));
      setMessage(problemText(error));
    }
  };

  return (
    <section aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      <FormError message={message} />
      {codes && (
        <div>
          <Notice>Two-factor sign-in is on.</Notice>
          <p>
            Keep these recovery codes somewhere safe: each signs you in once without your phone. They are
            shown only now.
          </p>
          <ul class="codes" aria-label="Recovery codes">
            {codes.map((recovery) => (
              <li key={recovery}>{recovery}</li>
            ))}
          </ul>
          <RecoveryCodesActions codes={codes} email={email} />
        </div>
      )}
      {enabled && !codes && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setDisabling(true);
          }}
        >
          <p>
            <span class="status status-up">
              <span aria-hidden="true">✓</span> On
            </span>{' '}
            — signing in asks for a code of your authenticator app.
          </p>
          <Field label="Current code or a recovery code" error={errors.code}>
            {(props) => (
              <input
                {...props}
                autocomplete="one-time-code"
                required
                value={code}
                onInput={(e) => setCode(e.currentTarget.value)}
              />
            )}
          </Field>
          <button type="submit" class="danger">
            Turn two-factor off…
          </button>
          <Confirm
            open={disabling}
            title="Turn two-factor sign-in off?"
            confirmLabel="Turn off"
            onConfirm={() => void disable()}
            onCancel={() => setDisabling(false)}
          >
            Your password alone will sign you in, and your recovery codes stop working.
          </Confirm>
        </form>
      )}
      {!enabled && !enrolment && !codes && (
        <p>
          <span class="status status-unknown">
            <span aria-hidden="true">○</span> Off
          </span>{' '}
          <button type="button" class="primary" onClick={() => void start()}>
            Turn on two-factor
          </button>
        </p>
      )}
      {enrolment && (
        <form onSubmit={confirm}>
          <p>Scan this code with your authenticator app, or enter the secret by hand:</p>
          <img
            class="qr"
            alt="QR code of the two-factor secret"
            src={`data:image/svg+xml,${encodeURIComponent(renderSVG(enrolment.otpauthUrl))}`}
          />
          <p>
            Secret: <code class="secret">{enrolment.secret}</code>
          </p>
          <p>
            Link: <code class="secret">{enrolment.otpauthUrl}</code>
          </p>
          <Field label="Code from the app" error={errors.code} hint="6 digits">
            {(props) => (
              <input
                {...props}
                autocomplete="one-time-code"
                inputMode="numeric"
                required
                value={code}
                onInput={(e) => setCode(e.currentTarget.value)}
              />
            )}
          </Field>
          <button type="submit" class="primary">
            Confirm and turn on
          </button>
        </form>
      )}
    </section>
  );
}

/** The organization's API tokens (admins): create one (shown once), revoke with a confirmation. */
export function Tokens() {
  const tokens = useTokens();
  const form = useForm(
    { name: '', scopes: ['read'] as string[] },
    { body: ({ name, scopes }) => ({ name, scopes: scopes as Schemas['TokenScope'][] }) },
  );
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<Schemas['Token'] | null>(null);

  const create = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    const answer = await write(api.POST('/api/tokens', { body }), peopleKeys.tokens);
    if (!form.answered(answer) || !answer.data) return;
    setCreated(answer.data.token);
    form.reset({ ...form.values, name: '' });
  };
  const revoke = async (token: Schemas['Token']) => {
    setRevoking(null);
    await write(api.DELETE('/api/tokens/{id}', { params: { path: { id: token.id } } }), peopleKeys.tokens);
  };
  const { scopes } = form.values;
  const toggle = (scope: Schemas['TokenScope'], on: boolean) =>
    form.set('scopes', on ? [...scopes, scope] : scopes.filter((s) => s !== scope));
  const active = tokens.data?.filter((token) => !token.revokedAt) ?? [];

  return (
    <section aria-labelledby="tokens-title">
      <h2 id="tokens-title">API tokens</h2>
      <p class="muted">
        For scripts and automation: sent as <code>Authorization: Bearer …</code>.
      </p>
      <FormError message={tokens.error} />
      {tokens.data && active.length === 0 && <p>No tokens yet: create one below for your first script.</p>}
      {active.length > 0 && (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Starts with</th>
              <th scope="col">Scopes</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {active.map((token) => (
              <tr key={token.id}>
                <td data-label="Name">{token.name}</td>
                <td data-label="Starts with">
                  <code>{token.prefix}</code>
                </td>
                <td data-label="Scopes">{token.scopes.join(', ')}</td>
                <td data-label="Last used">
                  {token.lastUsedAt ? new Date(token.lastUsedAt).toLocaleString() : 'never'}
                </td>
                <td>
                  <button type="button" class="danger" onClick={() => setRevoking(token)}>
                    Revoke…
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Confirm
        open={revoking !== null}
        title={`Revoke the token “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke"
        onConfirm={() => revoking && void revoke(revoking)}
        onCancel={() => setRevoking(null)}
      >
        Scripts using it stop working at once. This cannot be undone.
      </Confirm>
      {created && (
        <Notice>
          The new token (shown only now): <code class="secret">{created}</code>
        </Notice>
      )}
      <h3>New token</h3>
      <form onSubmit={create}>
        <FormError message={form.message} />
        <Field label="Token name" error={form.errors.name} hint="What it is for, e.g. “CI deploys”">
          {(props) => <input {...props} required {...form.bind('name')} />}
        </Field>
        <fieldset>
          <legend>Scopes</legend>
          {(['read', 'write', 'admin'] as const).map((scope) => (
            <Check
              key={scope}
              label={scope}
              checked={scopes.includes(scope)}
              onChange={(on) => toggle(scope, on)}
            />
          ))}
          {form.errors.scopes && <p class="error-text">{form.errors.scopes}</p>}
        </fieldset>
        <button type="submit" class="primary">
          Create token
        </button>
      </form>
    </section>
  );
}

/** Copy the recovery codes, or download them as a text file, so they reach a safe place whole. */
function RecoveryCodesActions({ codes, email }: { codes: string[]; email: string }) {
  const text = `webmon recovery codes for ${email} (each works once):\n${codes.join('\n')}\n`;
  const { copy, said: copied } = useCopy(text, {
    copied: 'Copied: paste them into your password manager.',
    refused: 'This browser did not allow copying: select the codes above, or download them.',
  });
  const href = useMemo(() => URL.createObjectURL(new Blob([text], { type: 'text/plain' })), [text]);
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  return (
    <p class="row">
      <button type="button" onClick={copy}>
        Copy the codes
      </button>
      <a class="button" href={href} download="webmon-recovery-codes.txt">
        Download them as a text file
      </a>
      {/* Always there, so screen readers announce the words when they appear. */}
      <span role="status">{copied ?? ''}</span>
    </p>
  );
}
