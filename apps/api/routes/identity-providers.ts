import { idParams } from '../../../libs/contract/index.js';
import { defineRoute, type Route } from '../../../libs/http/index.js';
import {
  connectionTestView,
  createIdentityProviderBody,
  type IdentityProvider,
  type IdentityProviders,
  identityProviderView,
  patchIdentityProviderBody,
  serviceProviderView,
  toIdentityProviderView,
} from '../../../libs/sso/index.js';

const TAGS = ['Single sign-on'];

/**
 * `/api/identity-providers`: the organization's OIDC and SAML providers, for admins and owners
 * (a provider decides who gets in as what). Client secrets are write-only (`clientSecretSet`).
 */
export function identityProviderRoutes(
  service: IdentityProviders,
  /** Our SP metadata for a SAML provider (SAML's part builds it, with its keys' certificate). */
  samlMetadata: (provider: IdentityProvider) => Promise<string>,
): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/identity-providers',
      operationId: 'listIdentityProviders',
      summary: 'The organization’s identity providers',
      tags: TAGS,
      access: 'admin',
      success: { status: 200, description: 'Providers, by id', schema: identityProviderView.array() },
      handle: async ({ auth }) => (await service.list(auth.organizationId)).map(toIdentityProviderView),
    }),
    defineRoute({
      method: 'post',
      path: '/api/identity-providers',
      operationId: 'createIdentityProvider',
      summary: 'Add an identity provider (OIDC or SAML)',
      description:
        'OIDC: `issuer` (https; its discovery document is read at each sign-in), `clientId`, `clientSecret` (sealed, never shown), `scopes`. SAML: `metadataXml` or `metadataUrl` (read now, through the SSRF guard), `allowIdpInitiated`. Both: `allowedDomains` (e-mail domains it may sign in), `roleMapping` (groups or claims to roles, highest staff role wins), `defaultRole`, `customerId` (a customer’s own provider: its people are that customer’s clients). Then register our redirect URL or ACS (`GET …/{id}/service-provider`) at the provider and try `POST …/{id}/test`.',
      tags: TAGS,
      access: 'admin',
      body: createIdentityProviderBody,
      success: { status: 201, description: 'Added', schema: identityProviderView },
      handle: async ({ auth, body, ctx }) => {
        const provider = await service.create(auth, body);
        ctx.set('Location', `/api/identity-providers/${provider.id}`);
        return toIdentityProviderView(provider);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/identity-providers/:id',
      operationId: 'getIdentityProvider',
      summary: 'One identity provider',
      tags: TAGS,
      access: 'admin',
      params: idParams,
      success: { status: 200, description: 'The provider', schema: identityProviderView },
      handle: async ({ auth, params }) =>
        toIdentityProviderView(await service.get(auth.organizationId, params.id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/identity-providers/:id',
      operationId: 'updateIdentityProvider',
      summary: 'Change an identity provider (its type stays; a field of the other type is refused)',
      description: 'Role mapping changes apply at each person’s next sign-in.',
      tags: TAGS,
      access: 'admin',
      params: idParams,
      body: patchIdentityProviderBody,
      success: { status: 200, description: 'The provider', schema: identityProviderView },
      handle: async ({ auth, params, body }) =>
        toIdentityProviderView(await service.update(auth, params.id, body)),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/identity-providers/:id',
      operationId: 'deleteIdentityProvider',
      summary: 'Remove an identity provider (its people keep their accounts; they sign in another way)',
      tags: TAGS,
      access: 'admin',
      params: idParams,
      success: { status: 204, description: 'Removed' },
      handle: async ({ auth, params }) => {
        await service.delete(auth, params.id);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/identity-providers/:id/service-provider',
      operationId: 'getServiceProvider',
      summary:
        'Our side, for the provider’s admin: redirect URL (OIDC) or ACS URL, entity id and metadata (SAML)',
      tags: TAGS,
      access: 'admin',
      params: idParams,
      success: { status: 200, description: 'What to register at the provider', schema: serviceProviderView },
      handle: async ({ auth, params }) => {
        const provider = await service.get(auth.organizationId, params.id);
        return {
          ...service.serviceProvider(provider),
          metadataXml: provider.type === 'saml' ? await samlMetadata(provider) : null,
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/identity-providers/:id/test',
      operationId: 'testIdentityProvider',
      summary: 'Test the connection: OIDC discovery and JWKS; SAML metadata and its certificates’ dates',
      description: 'Always 200: `ok` and each check with what was found or what is wrong.',
      tags: TAGS,
      access: 'admin',
      params: idParams,
      success: { status: 200, description: 'The checks', schema: connectionTestView },
      handle: async ({ auth, params }) => service.test(await service.get(auth.organizationId, params.id)),
    }),
  ];
}
