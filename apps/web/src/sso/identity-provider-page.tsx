import './sso.css';
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, problemText, type Schemas } from '../api/client.js';
import { invalidate } from '../api/query.js';
import { Confirm } from '../ui/confirm.js';
import { useCopy } from '../ui/copy.js';
import { FormError, Loading } from '../ui/form.js';
import { ProviderForm } from './provider-form.js';
import { type IdentityProvider, providerKeys, useIdentityProvider, useServiceProvider } from './sso-api.js';

/** An identity provider (`/identity-providers/new`: a new one): its form, our side to register there, a connection test. */
export function IdentityProviderPage() {
  const { params } = useRoute();
  const { route } = useLocation();
  const provider = useIdentityProvider(params.id === 'new' ? null : Number(params.id));
  if (provider.notFound)
    return (
      <section>
        <h1>Identity provider not found</h1>
        <p>
          <a href="/identity-providers">Back to the identity providers</a>
        </p>
      </section>
    );
  if (provider.data === undefined) return <Loading error={provider.error} />;
  const p = provider.data;
  return (
    <section>
      <p>
        <a href="/identity-providers">← Identity providers</a>
      </p>
      <h1>{p ? p.name : 'Add an identity provider'}</h1>
      {p && <ServiceProvider provider={p} />}
      {p && <ConnectionTest provider={p} />}
      <h2>Settings</h2>
      <ProviderForm
        key={p?.id ?? 'new'}
        provider={p}
        onSaved={(saved) => {
          if (!p) route(`/identity-providers/${saved.id}`);
        }}
      />
      {p && <DeleteProvider provider={p} onDeleted={() => route('/identity-providers')} />}
    </section>
  );
}

function CopyRow({ label, value }: { label: string; value: string }) {
  const { copy, said } = useCopy(value);
  return (
    <div class="copy-row">
      <dt>{label}</dt>
      <dd>
        <code>{value}</code>{' '}
        <button type="button" class="link" onClick={copy} aria-label={`Copy the ${label.toLowerCase()}`}>
          Copy
        </button>
        <span role="status">{said}</span>
      </dd>
    </div>
  );
}

/** What the provider's admin registers: our redirect URL (OIDC), or ACS, entity id and metadata (SAML). */
function ServiceProvider({ provider }: { provider: IdentityProvider }) {
  const sp = useServiceProvider(provider.id);
  if (!sp.data) return <Loading error={sp.error} />;
  const { data } = sp;
  return (
    <section aria-labelledby="sp-heading" class="card">
      <h2 id="sp-heading">Register webmon at the provider</h2>
      <dl class="copy-list">
        {data.redirectUrl && <CopyRow label="Redirect URL" value={data.redirectUrl} />}
        {data.acsUrl && <CopyRow label="ACS URL" value={data.acsUrl} />}
        {data.entityId && <CopyRow label="Entity id" value={data.entityId} />}
        {data.metadataUrl && <CopyRow label="Metadata URL" value={data.metadataUrl} />}
        <CopyRow label="Sign-in link" value={data.signInUrl} />
      </dl>
      {data.metadataXml && (
        <details>
          <summary>Our SAML metadata</summary>
          <pre class="metadata">{data.metadataXml}</pre>
        </details>
      )}
    </section>
  );
}

/** Tests the connection now and shows each check with what was found or what is wrong. */
function ConnectionTest({ provider }: { provider: IdentityProvider }) {
  const [result, setResult] = useState<Schemas['IdentityProviderTest'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setError(null);
    const answer = await api.POST('/api/identity-providers/{id}/test', {
      params: { path: { id: provider.id } },
    });
    setBusy(false);
    if (answer.data) setResult(answer.data);
    else setError(problemText(answer.error));
  };
  return (
    <section aria-labelledby="test-heading">
      <h2 id="test-heading">Connection</h2>
      <FormError message={error} />
      <button type="button" onClick={() => void run()} disabled={busy}>
        {busy ? 'Testing…' : 'Test the connection'}
      </button>
      {result && (
        <div role="status" class={result.ok ? 'test-result ok' : 'test-result failed'}>
          <p>{result.ok ? 'The provider answers as it should.' : 'Something is wrong:'}</p>
          <ul>
            {result.checks.map((check, index) => (
              <li key={index}>
                <strong>
                  {check.ok ? '✓' : '✗'} {check.name}
                </strong>
                : {check.detail}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function DeleteProvider({ provider, onDeleted }: { provider: IdentityProvider; onDeleted: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setConfirming(false);
    const answer = await api.DELETE('/api/identity-providers/{id}', {
      params: { path: { id: provider.id } },
    });
    if (!answer.response.ok) return setError(problemText(answer.error));
    await invalidate(providerKeys.all);
    onDeleted();
  };
  return (
    <section aria-labelledby="delete-heading">
      <h2 id="delete-heading">Remove</h2>
      <FormError message={error} />
      <button type="button" class="danger" onClick={() => setConfirming(true)}>
        Remove the provider…
      </button>
      <Confirm
        open={confirming}
        title={`Remove ${provider.name}?`}
        confirmLabel="Remove the provider"
        cancelLabel="Keep it"
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      >
        Its people keep their accounts, but can no longer sign in with it.
      </Confirm>
    </section>
  );
}
