import { useState } from 'preact/hooks';
import {
  createIdentityProviderBody,
  patchIdentityProviderBody,
} from '../../../../libs/sso/identity-provider.schema.js';
import { api, type Schemas } from '../api/client.js';
import { useVisibleCustomers } from '../api/organization.js';
import { write } from '../api/query.js';
import { Check, Field, FormError, Notice } from '../ui/form.js';
import { useForm } from '../ui/use-form.js';
import { ROLE_NAMES, RoleRules, type RuleRow, ruleOfRow, ruleRowOf } from './role-rules.js';
import { type IdentityProvider, providerKeys } from './sso-api.js';

type Kind = 'oidc' | 'saml';
/** A new provider's body (the form makes it from the type chosen). */
type CreateBody = Schemas['IdentityProviderCreate'];

const words = (text: string) => text.split(/[\s,]+/).filter(Boolean);

function initialValues(provider: IdentityProvider | null) {
  const oidc = provider?.type === 'oidc' ? provider : null;
  const saml = provider?.type === 'saml' ? provider : null;
  return {
    type: (provider?.type ?? 'oidc') as Kind,
    name: provider?.name ?? '',
    enabled: provider?.enabled ?? true,
    domains: provider?.allowedDomains.join(', ') ?? '',
    issuer: oidc?.issuer ?? '',
    clientId: oidc?.clientId ?? '',
    clientSecret: '',
    scopes: oidc?.scopes.join(' ') ?? 'openid email profile',
    metadataSource: saml && !saml.metadataUrl ? 'xml' : 'url',
    metadataUrl: saml?.metadataUrl ?? '',
    metadataXml: saml && !saml.metadataUrl ? saml.metadataXml : '',
    allowIdpInitiated: saml?.allowIdpInitiated ?? false,
    groupsAttribute: saml?.groupsAttribute ?? '',
    defaultRole: provider?.defaultRole?.role ?? '',
    defaultCustomer: provider?.defaultRole?.customerId ? String(provider.defaultRole.customerId) : '',
    ownCustomer: provider?.customerId ? String(provider.customerId) : '',
  };
}
type Values = ReturnType<typeof initialValues>;

/**
 * An identity provider's settings, either type: what it is (OIDC issuer and client, or SAML
 * metadata), whose e-mail domains it signs in, and as what (role mapping, default role, or a
 * customer's own provider). The client secret is write-only: empty keeps the stored one.
 */
export function ProviderForm({
  provider,
  onSaved,
}: {
  provider: IdentityProvider | null;
  onSaved: (saved: IdentityProvider) => void;
}) {
  const customers = useVisibleCustomers().data ?? [];
  const [rules, setRules] = useState<RuleRow[]>(() => (provider?.roleMapping ?? []).map(ruleRowOf));
  const body = (values: Values) => {
    const defaultRole = values.defaultRole
      ? {
          role: values.defaultRole as (typeof ROLE_NAMES)[number],
          ...(values.defaultRole === 'client' && values.defaultCustomer
            ? { customerId: Number(values.defaultCustomer) }
            : {}),
        }
      : null;
    const common = {
      name: values.name,
      enabled: values.enabled,
      allowedDomains: words(values.domains),
      roleMapping: rules.map(ruleOfRow),
      defaultRole,
      customerId: values.ownCustomer ? Number(values.ownCustomer) : null,
    };
    const saml = {
      ...(values.metadataSource === 'url'
        ? { metadataUrl: values.metadataUrl }
        : { metadataXml: values.metadataXml, ...(provider ? { metadataUrl: null } : {}) }),
      allowIdpInitiated: values.allowIdpInitiated,
      groupsAttribute: values.groupsAttribute.trim() || null,
    };
    const oidc = {
      issuer: values.issuer,
      clientId: values.clientId,
      ...(values.clientSecret ? { clientSecret: values.clientSecret } : {}),
      scopes: words(values.scopes),
    };
    if (provider) return { ...common, ...(provider.type === 'oidc' ? oidc : saml) };
    return values.type === 'oidc'
      ? { type: 'oidc' as const, ...common, ...oidc }
      : { type: 'saml' as const, ...common, ...saml };
  };
  const form = useForm(() => initialValues(provider), {
    schema: provider ? patchIdentityProviderBody : createIdentityProviderBody,
    body,
  });
  const { values, errors } = form;
  const type = provider?.type ?? values.type;
  const save = async (event: Event) => {
    event.preventDefault();
    const checked = form.check();
    if (!checked) return;
    const answer = provider
      ? await write(
          api.PATCH('/api/identity-providers/{id}', {
            params: { path: { id: provider.id } },
            body: checked,
          }),
          providerKeys.all,
        )
      : await write(
          api.POST('/api/identity-providers', {
            body: checked as CreateBody,
          }),
          providerKeys.all,
        );
    // The secret field empties before `answered` says "Saved." (a change of a field unsays it).
    if (answer.response.ok) form.set('clientSecret', '');
    if (form.answered(answer) && answer.data) onSaved(answer.data);
  };

  return (
    <form class="card provider-form" onSubmit={save} noValidate aria-label="Identity provider">
      <FormError message={form.message} />
      {form.saved && <Notice>Saved.</Notice>}
      {!provider && (
        <fieldset>
          <legend>Protocol</legend>
          {(['oidc', 'saml'] as const).map((kind) => (
            <label key={kind} class="radio">
              <input
                type="radio"
                name="type"
                checked={values.type === kind}
                onChange={() => form.set('type', kind)}
              />{' '}
              {kind === 'oidc' ? 'OpenID Connect (Google Workspace, Entra ID, Okta…)' : 'SAML 2.0'}
            </label>
          ))}
        </fieldset>
      )}
      <Field label="Name" error={errors.name} hint="Shown on the sign-in page: “Sign in with <name>”">
        {(props) => <input {...props} required maxLength={100} {...form.bind('name')} />}
      </Field>
      {type === 'oidc' ? (
        <>
          <Field
            label="Issuer"
            error={errors.issuer}
            hint="Its /.well-known/openid-configuration is read from it"
          >
            {(props) => (
              <input
                {...props}
                type="url"
                required
                placeholder="https://accounts.google.com"
                {...form.bind('issuer')}
              />
            )}
          </Field>
          <Field label="Client id" error={errors.clientId}>
            {(props) => <input {...props} required autocomplete="off" {...form.bind('clientId')} />}
          </Field>
          <Field
            label="Client secret"
            error={errors.clientSecret}
            hint={
              provider
                ? 'Stored, never shown. Empty keeps it; type a new one to replace it.'
                : 'Stored sealed, never shown again.'
            }
          >
            {(props) => (
              <input {...props} type="password" autocomplete="new-password" {...form.bind('clientSecret')} />
            )}
          </Field>
          <Field
            label="Scopes"
            error={errors.scopes}
            hint="Space-separated; add groups if your provider sends groups so"
          >
            {(props) => <input {...props} {...form.bind('scopes')} />}
          </Field>
        </>
      ) : (
        <>
          <fieldset>
            <legend>The provider’s metadata</legend>
            {(['url', 'xml'] as const).map((source) => (
              <label key={source} class="radio">
                <input
                  type="radio"
                  name="metadataSource"
                  checked={values.metadataSource === source}
                  onChange={() => form.set('metadataSource', source)}
                />{' '}
                {source === 'url' ? 'Read from a URL' : 'Paste the XML'}
              </label>
            ))}
          </fieldset>
          {values.metadataSource === 'url' ? (
            <Field label="Metadata URL" error={errors.metadataUrl}>
              {(props) => <input {...props} type="url" {...form.bind('metadataUrl')} />}
            </Field>
          ) : (
            <Field label="Metadata XML" error={errors.metadataXml}>
              {(props) => <textarea {...props} rows={6} {...form.bind('metadataXml')} />}
            </Field>
          )}
          <Field
            label="Groups attribute"
            error={errors.groupsAttribute}
            hint="The attribute your IdP sends groups in, as it names it; empty reads the usual ones (Entra ID’s groups claim, Okta’s groups, memberOf)"
          >
            {(props) => <input {...props} {...form.bind('groupsAttribute')} />}
          </Field>
          <Check
            label="Accept sign-ins the provider starts (IdP-initiated)"
            checked={values.allowIdpInitiated}
            onChange={(checked) => form.set('allowIdpInitiated', checked)}
          />
        </>
      )}
      <Field
        label="Allowed e-mail domains"
        error={errors.allowedDomains ?? errors['allowedDomains.0']}
        hint="Comma-separated (agency.example); people of other domains are refused"
      >
        {(props) => <input {...props} required {...form.bind('domains', 'allowedDomains')} />}
      </Field>
      <Field
        label="A customer’s own provider"
        error={errors.customerId}
        hint="Everyone it signs in is a client user of this customer, whatever the rules say"
      >
        {(props) => (
          <select {...props} {...form.bind('ownCustomer', 'customerId')}>
            <option value="">No: the agency’s provider</option>
            {customers.map((customer) => (
              <option key={customer.id} value={String(customer.id)}>
                {customer.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {!values.ownCustomer && (
        <RoleRules rows={rules} onChange={setRules} customers={customers} errors={errors} />
      )}
      {!values.ownCustomer && (
        <Field label="Default role" error={errors['defaultRole.role']} hint="For a person no rule matches">
          {(props) => (
            <select {...props} {...form.bind('defaultRole', 'defaultRole.role')}>
              <option value="">None: refuse them</option>
              {ROLE_NAMES.map((role) => (
                <option key={role} value={role}>
                  {role === 'client' ? 'client of a customer' : role}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      {!values.ownCustomer && values.defaultRole === 'client' && (
        <Field label="Default role’s customer" error={errors['defaultRole.customerId']}>
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
      <Check
        label="Enabled (its button shows on the sign-in page)"
        checked={values.enabled}
        onChange={(checked) => form.set('enabled', checked)}
      />
      <div class="actions">
        <button type="submit" class="primary">
          {provider ? 'Save' : 'Add the provider'}
        </button>
      </div>
    </form>
  );
}
