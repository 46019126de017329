import './sso.css';
import { FormError } from '../ui/form.js';
import { useIdentityProviders } from './sso-api.js';

/** The organization's identity providers (admins): single sign-on for its staff and its clients' people. */
export function IdentityProviders() {
  const providers = useIdentityProviders();
  return (
    <section>
      <p>
        <a href="/settings">← Settings</a>
      </p>
      <h1>Identity providers</h1>
      <p>
        People sign in with their organization’s account (Google Workspace, Entra ID, Okta, any OpenID Connect
        or SAML 2.0 provider). Their role comes from the provider’s groups at every sign-in. Require single
        sign-on in <a href="/settings">Settings</a>.
      </p>
      <FormError message={providers.error} />
      <p>
        <a class="button" href="/identity-providers/new">
          Add an identity provider
        </a>
      </p>
      {providers.data?.length === 0 && <p>No identity providers yet: people sign in with their passwords.</p>}
      {providers.data && providers.data.length > 0 && (
        <table class="stack identity-providers">
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Protocol</th>
              <th scope="col">E-mail domains</th>
              <th scope="col">Rules</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {providers.data.map((provider) => (
              <tr key={provider.id}>
                <td data-label="Provider">
                  <a href={`/identity-providers/${provider.id}`}>{provider.name}</a>
                </td>
                <td data-label="Protocol">{provider.type === 'oidc' ? 'OpenID Connect' : 'SAML 2.0'}</td>
                <td data-label="E-mail domains">{provider.allowedDomains.join(', ')}</td>
                <td data-label="Rules">
                  {provider.customerId !== null
                    ? 'A customer’s own: clients of that customer'
                    : `${provider.roleMapping.length} rule${provider.roleMapping.length === 1 ? '' : 's'}`}
                </td>
                <td data-label="State">{provider.enabled ? 'Enabled' : 'Off'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
