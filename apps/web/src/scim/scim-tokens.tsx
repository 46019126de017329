import { useState } from 'preact/hooks';
import { createScimTokenBody } from '../../../../libs/scim/scim-token.schema.js';
import { api, must, type Schemas } from '../api/client.js';
import { useVisibleCustomers } from '../api/organization.js';
import { useApiQuery, write } from '../api/query.js';
import { ROLE_NAMES, RoleRules, type RuleRow, ruleOfRow } from '../sso/role-rules.js';
import { useIdentityProviders } from '../sso/sso-api.js';
import { Confirm } from '../ui/confirm.js';
import { useCopy } from '../ui/copy.js';
import { Field, FormError, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';

type ScimToken = Schemas['ScimToken'];
const scimKeys = { tokens: ['scim-tokens'] as const };

/** What a rule or the default role gives, in words ("client of Acme"). */
function roleWords(target: { role: string; customerId?: number | null }, customers: Schemas['Customer'][]) {
  if (target.role !== 'client') return target.role;
  const customer = customers.find((candidate) => candidate.id === target.customerId);
  return `client of ${customer?.name ?? `customer ${target.customerId}`}`;
}

/** A text to copy, with its button and what the copy did (announced). */
function Copyable({ label, text }: { label: string; text: string }) {
  const { copy, said } = useCopy(text);
  return (
    <p class="copy-row">
      <code class="secret">{text}</code>{' '}
      <button type="button" onClick={copy}>
        Copy {label}
      </button>{' '}
      <span role="status">{said}</span>
    </p>
  );
}

/**
 * SCIM provisioning (owners and admins): the tokens Entra ID or Okta provision people with, each
 * shown once; the base URL to give them; and each token's role mapping, which decides people's
 * roles from their SCIM groups. Rotating is making a new token, then revoking the old one.
 */
export function ScimTokens() {
  const tokens = useApiQuery(scimKeys.tokens, async () => must(await api.GET('/api/scim-tokens')));
  const customers = useVisibleCustomers().data ?? [];
  const providers = useIdentityProviders().data ?? [];
  const [created, setCreated] = useState<{ token: string; baseUrl: string } | null>(null);
  const [revoking, setRevoking] = useState<ScimToken | null>(null);
  const [rules, setRules] = useState<RuleRow[]>([]);
  const form = useForm(
    { name: '', defaultRole: 'viewer', defaultCustomer: '', identityProviderId: '' },
    {
      schema: createScimTokenBody,
      body: (values) => ({
        name: values.name,
        // With an identity provider, the provider's rules decide.
        roleMapping: values.identityProviderId ? [] : rules.map(ruleOfRow),
        defaultRole: {
          role: values.defaultRole as (typeof ROLE_NAMES)[number],
          ...(values.defaultRole === 'client' && values.defaultCustomer
            ? { customerId: Number(values.defaultCustomer) }
            : {}),
        },
        ...(values.identityProviderId ? { identityProviderId: Number(values.identityProviderId) } : {}),
      }),
    },
  );
  const baseUrl = created?.baseUrl ?? `${location.origin}/scim/v2`;

  const create = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    const answer = await write(api.POST('/api/scim-tokens', { body }), scimKeys.tokens);
    if (!form.answered(answer) || !answer.data) return;
    setCreated({ token: answer.data.token, baseUrl: answer.data.baseUrl });
    form.reset({ ...form.values, name: '' });
    setRules([]);
  };
  const revoke = async (token: ScimToken) => {
    setRevoking(null);
    await write(api.DELETE('/api/scim-tokens/{id}', { params: { path: { id: token.id } } }), scimKeys.tokens);
  };
  const active = tokens.data?.filter((token) => !token.revokedAt) ?? [];

  return (
    <section>
      <p>
        <a href="/settings">← Settings</a>
      </p>
      <h1>SCIM provisioning</h1>
      <p>
        Entra ID, Okta or another SCIM 2.0 client creates, changes and removes your people here: someone
        deactivated there loses access at once (their sessions end and their tokens are revoked). Give the
        client this base URL and a token below.
      </p>
      <Copyable label="the base URL" text={baseUrl} />
      <FormError message={tokens.error} />
      {created && (
        <>
          <Notice>
            The new token, shown only now: paste it into the client as its secret token (Entra ID) or API
            token (Okta).
          </Notice>
          <Copyable label="the token" text={created.token} />
        </>
      )}
      {tokens.data && active.length === 0 && <p>No SCIM tokens yet: make one below.</p>}
      {active.length > 0 && (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Starts with</th>
              <th scope="col">Role mapping</th>
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
                <td data-label="Role mapping">
                  <ul class="values">
                    {token.roleMapping.map((rule, index) => (
                      <li key={index}>
                        {'group' in rule ? `group ${rule.group}` : `claim ${rule.claim}`} →{' '}
                        {roleWords(rule, customers)}
                      </li>
                    ))}
                    <li>anyone else → {roleWords(token.defaultRole, customers)}</li>
                  </ul>
                </td>
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
        title={`Revoke the SCIM token “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke"
        onConfirm={() => revoking && void revoke(revoking)}
        onCancel={() => setRevoking(null)}
      >
        Its client can no longer provision anyone. To rotate a token, make the new one and give it to the
        client first.
      </Confirm>
      <h2>New SCIM token</h2>
      <form class="card" onSubmit={create} noValidate aria-label="New SCIM token">
        <FormError message={form.message} />
        <Field
          label="Token name"
          error={form.errors.name}
          hint="Which client provisions with it, e.g. “Entra ID”"
        >
          {(props) => <input {...props} required {...form.bind('name')} />}
        </Field>
        {providers.length > 0 && (
          <Field
            label="Identity provider"
            error={form.errors.identityProviderId}
            hint="The people it makes are linked to this provider, so they sign in as the same person"
          >
            {(props) => (
              <select {...props} {...form.bind('identityProviderId')}>
                <option value="">None</option>
                {providers.map((provider) => (
                  <option key={provider.id} value={String(provider.id)}>
                    {provider.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        {form.values.identityProviderId ? (
          <p>
            At each change of a person’s SCIM groups, the identity provider’s role mapping decides (edit it on
            the provider’s page). Only an owner’s token may give the owner role.
          </p>
        ) : (
          <RoleRules
            rows={rules}
            onChange={setRules}
            customers={customers}
            errors={form.errors}
            intro="Each change of a person’s SCIM groups gives them the highest role their groups map to, else the default role. Group rules only (SCIM sends no claims); only an owner’s token may give the owner role."
          />
        )}
        <Field
          label="Default role"
          error={form.errors['defaultRole.role']}
          hint="Every new person, until their groups say more"
        >
          {(props) => (
            <select {...props} {...form.bind('defaultRole', 'defaultRole.role')}>
              {ROLE_NAMES.map((role) => (
                <option key={role} value={role}>
                  {role === 'client' ? 'client of a customer' : role}
                </option>
              ))}
            </select>
          )}
        </Field>
        {form.values.defaultRole === 'client' && (
          <Field label="Default role’s customer" error={form.errors['defaultRole.customerId']}>
            {(props) => (
              <select {...props} {...form.bind('defaultCustomer', 'defaultRole.customerId')}>
                <option value="">Choose a customer</option>
                {customers.map((customer) => (
                  <option key={customer.id} value={String(customer.id)}>
                    {customer.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <button type="submit" class="primary">
          Make the token
        </button>
      </form>
    </section>
  );
}
