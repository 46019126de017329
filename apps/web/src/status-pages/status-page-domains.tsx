import { useState } from 'preact/hooks';
import { api, fieldErrors, problemText } from '../api/client.js';
import { write } from '../api/query.js';
import { type StatusPageDomain, statusPageKeys, useStatusPageDomains } from '../api/status-pages.js';
import { canEdit, useSession } from '../session.js';
import { Confirm } from '../ui/confirm.js';
import { useCopy } from '../ui/copy.js';
import { Field, FormError } from '../ui/form.js';

/**
 * A status page's own domains (`status.client.example`): each with whether it is verified, the
 * DNS records that verify it (copyable), verify now and remove; and a field to add one. A domain
 * is served (and gets its certificate) only once verified.
 */
export function StatusPageDomains({ pageId }: { pageId: number }) {
  const { caller } = useSession();
  const editor = canEdit(caller);
  const domains = useStatusPageDomains(pageId);
  const key = [...statusPageKeys.one(pageId), 'domains'];
  const [host, setHost] = useState('');
  const [hostError, setHostError] = useState<string | undefined>();
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);

  const add = async (event: Event) => {
    event.preventDefault();
    setMessage(null);
    const { error, response } = await write(
      api.POST('/api/status-pages/{id}/domains', { params: { path: { id: pageId } }, body: { host } }),
      key,
    );
    if (!response.ok) {
      const named = fieldErrors(error).host;
      setHostError(named);
      if (!named) setMessage(problemText(error));
      return;
    }
    setHost('');
    setHostError(undefined);
  };
  const verify = async (domain: string) => {
    setMessage(null);
    setBusy(domain);
    const { error, response } = await write(
      api.POST('/api/status-pages/{id}/domains/{host}/verify', {
        params: { path: { id: pageId, host: domain } },
      }),
      key,
    );
    setBusy(null);
    if (!response.ok) setMessage(problemText(error));
  };
  const remove = async (domain: string) => {
    setRemoving(null);
    setMessage(null);
    const { error, response } = await write(
      api.DELETE('/api/status-pages/{id}/domains/{host}', { params: { path: { id: pageId, host: domain } } }),
      key,
    );
    if (!response.ok) setMessage(problemText(error));
  };

  return (
    <section aria-labelledby="domains-heading" class="card domains">
      <h2 id="domains-heading">Domains</h2>
      <p class="muted">
        The page at a domain of the customer’s own, over HTTPS. Create one of the DNS records shown, then
        verify: the page is served there (and its certificate issued) only once the domain is verified.
      </p>
      <FormError message={message ?? domains.error} />
      {domains.data?.length === 0 && <p>No domains yet: the page is at its /status address only.</p>}
      <ul class="domain-list">
        {domains.data?.map((domain) => (
          <DomainItem
            key={domain.host}
            domain={domain}
            editor={editor}
            verifying={busy === domain.host}
            onVerify={() => void verify(domain.host)}
            onRemove={() => setRemoving(domain.host)}
          />
        ))}
      </ul>
      {editor && (
        <form onSubmit={(event) => void add(event)} class="domain-add">
          <Field label="Add a domain" error={hostError} hint="A host name such as status.client.example">
            {(props) => (
              <input
                {...props}
                value={host}
                onInput={(event) => setHost(event.currentTarget.value)}
                autocomplete="off"
                spellcheck={false}
                required
              />
            )}
          </Field>
          <button type="submit">Add the domain</button>
        </form>
      )}
      <Confirm
        open={removing !== null}
        title={`Remove ${removing ?? ''}?`}
        confirmLabel="Remove the domain"
        cancelLabel="Keep it"
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      >
        The page stops answering at {removing} at once, and no certificate is issued for it again.
      </Confirm>
    </section>
  );
}

function DomainItem({
  domain,
  editor,
  verifying,
  onVerify,
  onRemove,
}: {
  domain: StatusPageDomain;
  editor: boolean;
  verifying: boolean;
  onVerify: () => void;
  onRemove: () => void;
}) {
  return (
    <li>
      <h3>
        <span class="url">{domain.host}</span>{' '}
        {domain.verified ? <span>✓ Verified</span> : <span class="muted">not verified yet</span>}
      </h3>
      {domain.lastCheck && (
        <p class="muted">
          {domain.lastCheck}
          {domain.checkedAt && ` (checked ${new Date(domain.checkedAt).toLocaleString()})`}
        </p>
      )}
      {!domain.verified && (
        <>
          <p>Create one of these records at the domain’s DNS provider:</p>
          <table class="stack records">
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {domain.records.map((record) => (
                <tr key={record.type}>
                  <td data-label="Type">{record.type}</td>
                  <td data-label="Name">
                    <Copyable text={record.name} label={`${record.type} record's name`} />
                  </td>
                  <td data-label="Value">
                    <Copyable text={record.value} label={`${record.type} record's value`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {editor && (
        <p class="actions">
          <button type="button" onClick={onVerify} disabled={verifying}>
            {verifying ? 'Checking DNS…' : 'Verify now'}
          </button>{' '}
          <button type="button" class="danger" onClick={onRemove}>
            Remove…
          </button>
        </p>
      )}
    </li>
  );
}

/** A value to paste at a DNS provider, with a button that copies it. */
function Copyable({ text, label }: { text: string; label: string }) {
  const { copy, said } = useCopy(text);
  return (
    <span class="copyable">
      <code class="url">{text}</code>{' '}
      <button type="button" class="small" onClick={copy} aria-label={`Copy the ${label}`}>
        Copy
      </button>
      <span role="status" class="muted">
        {said}
      </span>
    </span>
  );
}
