import { z } from 'zod';
import { absoluteHttpUrl, nameText, patchBody, ROLES, type Role, resourceId } from '../contract/index.js';
import type { SealedSecret } from '../secrets/index.js';
import { roleMapping } from './role-mapping.js';

/**
 * An organization's identity providers (OIDC or SAML) as the API takes and shows them, and as they
 * are stored. Pure zod: the app's forms check the same rules.
 */

/** A DNS name as e-mail addresses end (`agency.example`), lowercased. */
const emailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'must be a domain such as agency.example (no @, no wildcard)',
  );

const allowedDomains = z
  .array(emailDomain)
  .min(1, 'name at least one e-mail domain whose people this provider may sign in')
  .max(50)
  .transform((domains) => [...new Set(domains)])
  .describe('E-mail domains this provider may sign people in for (`agency.example`); others are refused');

/** The role of a person no rule matches: same shape as a rule's target. */
export const defaultRole = z
  .strictObject({ role: z.enum(ROLES), customerId: resourceId().optional() })
  .superRefine((target, context) => {
    if (target.role === 'client' && target.customerId === undefined)
      context.addIssue({ code: 'custom', path: ['customerId'], message: 'Required for the client role' });
    if (target.role !== 'client' && target.customerId !== undefined)
      context.addIssue({ code: 'custom', path: ['customerId'], message: 'Only for the client role' });
  })
  // Named: a generated client cannot read an unnamed object inside a nullable union.
  .meta({ id: 'DefaultRole' })
  .nullable()
  .describe('The role of a person no rule matches; null or absent: such a person is refused');

const scope = z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,64}$/, 'an OAuth scope token');
const scopes = z
  .array(scope)
  .max(20)
  .refine((list) => list.includes('openid'), 'must include openid')
  .describe('Asked of the provider; default openid, email, profile (add groups if it sends them so)');

const common = {
  name: nameText(100).describe('Shown on the sign-in page: "Sign in with <name>"'),
  enabled: z.boolean().default(true),
  allowedDomains,
  roleMapping: roleMapping.default([]),
  defaultRole: defaultRole.default(null),
  customerId: resourceId()
    .nullable()
    .default(null)
    .describe(
      'A customer’s own provider (a client’s Okta): everyone it signs in is a client user of this customer',
    ),
};

const issuer = absoluteHttpUrl('an issuer has none').describe(
  'The OpenID provider’s issuer; its /.well-known/openid-configuration is read from it',
);
const clientId = z.string().min(1).max(512);
const clientSecret = z
  .string()
  .min(1)
  .max(2048)
  .describe('Write-only: stored sealed, shown as clientSecretSet');

export const oidcProviderBody = z.strictObject({
  type: z.literal('oidc'),
  issuer,
  clientId,
  clientSecret,
  scopes: scopes.default(['openid', 'email', 'profile']),
  ...common,
});

const metadataXml = z
  .string()
  .min(1)
  .max(512 * 1024);
const metadataUrl = absoluteHttpUrl('a metadata URL has none');
const groupsAttribute = nameText(256)
  .nullable()
  .describe(
    'The SAML attribute carrying the person’s groups (as the IdP names it); null reads the usual ones (Entra ID’s, Okta’s, memberOf, groups)',
  );

export const samlProviderBody = z
  .strictObject({
    type: z.literal('saml'),
    metadataXml: metadataXml.optional().describe('The IdP’s SAML 2.0 metadata, pasted'),
    metadataUrl: metadataUrl.optional().describe('Where the IdP’s metadata is read (now and by a test)'),
    allowIdpInitiated: z
      .boolean()
      .default(false)
      .describe('Accept sign-ins the IdP starts (no request of ours to answer); off by default'),
    groupsAttribute: groupsAttribute.default(null),
    ...common,
  })
  .superRefine((body, context) => {
    if ((body.metadataXml === undefined) === (body.metadataUrl === undefined))
      context.addIssue({ code: 'custom', path: ['metadataXml'], message: 'give metadataXml or metadataUrl' });
  });

export const createIdentityProviderBody = z
  .discriminatedUnion('type', [oidcProviderBody, samlProviderBody])
  .meta({ id: 'IdentityProviderCreate' });
export type CreateIdentityProvider = z.output<typeof createIdentityProviderBody>;

/** A change: any field of the provider's type (the type itself stays). */
export const patchIdentityProviderBody = patchBody(
  z.strictObject({
    name: common.name.optional(),
    enabled: z.boolean().optional(),
    allowedDomains: allowedDomains.optional(),
    roleMapping: roleMapping.optional(),
    defaultRole: defaultRole.optional(),
    customerId: resourceId().nullable().optional(),
    issuer: issuer.optional(),
    clientId: clientId.optional(),
    clientSecret: clientSecret.optional(),
    scopes: scopes.optional(),
    metadataXml: metadataXml.optional(),
    metadataUrl: metadataUrl.nullable().optional(),
    allowIdpInitiated: z.boolean().optional(),
    groupsAttribute: groupsAttribute.optional(),
  }),
).meta({ id: 'IdentityProviderUpdate' });
export type PatchIdentityProvider = z.output<typeof patchIdentityProviderBody>;

/** Fields only one type has: a change naming another type's field is refused by name. */
export const TYPE_FIELDS = {
  oidc: ['issuer', 'clientId', 'clientSecret', 'scopes'],
  saml: ['metadataXml', 'metadataUrl', 'allowIdpInitiated', 'groupsAttribute'],
} as const;

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: SealedSecret;
  scopes: string[];
}

export interface SamlSettings {
  /** The IdP's metadata as pasted, or as last read from `metadataUrl`. */
  metadataXml: string;
  metadataUrl: string | null;
  /** The IdP's entity id, read from its metadata. */
  idpEntityId: string;
  allowIdpInitiated: boolean;
  /** The attribute read for groups; null (or absent, stored before it was asked) reads the usual ones. */
  groupsAttribute?: string | null;
}

/** As stored in `identity_providers` (`_id` is `idp<id>`). */
export interface IdentityProvider {
  id: number;
  organizationId: number;
  type: 'oidc' | 'saml';
  name: string;
  enabled: boolean;
  allowedDomains: string[];
  roleMapping: z.output<typeof roleMapping>;
  defaultRole: { role: Role; customerId?: number } | null;
  customerId: number | null;
  oidc?: OidcSettings;
  saml?: SamlSettings;
  createdAt: Date;
  updatedAt: Date;
}

const viewCommon = {
  id: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  allowedDomains: z.array(z.string()),
  roleMapping,
  defaultRole: z
    .object({ role: z.enum(ROLES), customerId: z.number().int().optional() })
    .meta({ id: 'DefaultRoleView' })
    .nullable(),
  customerId: z.number().int().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

export const identityProviderView = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('oidc'),
      issuer: z.string(),
      clientId: z.string(),
      clientSecretSet: z.literal(true).describe('The client secret is stored (it is never shown)'),
      scopes: z.array(z.string()),
      ...viewCommon,
    }),
    z.object({
      type: z.literal('saml'),
      metadataUrl: z.string().nullable(),
      metadataXml: z.string(),
      idpEntityId: z.string(),
      allowIdpInitiated: z.boolean(),
      groupsAttribute: z.string().nullable(),
      ...viewCommon,
    }),
  ])
  .meta({ id: 'IdentityProvider' });
export type IdentityProviderView = z.input<typeof identityProviderView>;

export function toIdentityProviderView(provider: IdentityProvider): IdentityProviderView {
  const shared = {
    id: provider.id,
    name: provider.name,
    enabled: provider.enabled,
    allowedDomains: provider.allowedDomains,
    roleMapping: provider.roleMapping,
    defaultRole: provider.defaultRole,
    customerId: provider.customerId,
    createdAt: provider.createdAt.toISOString(),
    updatedAt: provider.updatedAt.toISOString(),
  };
  if (provider.oidc)
    return {
      type: 'oidc',
      ...shared,
      issuer: provider.oidc.issuer,
      clientId: provider.oidc.clientId,
      clientSecretSet: true,
      scopes: provider.oidc.scopes,
    };
  const saml = provider.saml as SamlSettings;
  return {
    type: 'saml',
    ...shared,
    metadataUrl: saml.metadataUrl,
    metadataXml: saml.metadataXml,
    idpEntityId: saml.idpEntityId,
    allowIdpInitiated: saml.allowIdpInitiated,
    groupsAttribute: saml.groupsAttribute ?? null,
  };
}

/** What the sign-in page shows of a provider: nothing but how to start it. */
export const providerButtonView = z
  .object({ id: z.number().int(), name: z.string(), type: z.enum(['oidc', 'saml']) })
  .meta({ id: 'SsoProviderButton' });

/** Our side of a provider, for the provider's admin: where it sends people back, and SAML's metadata. */
export const serviceProviderView = z
  .object({
    type: z.enum(['oidc', 'saml']),
    redirectUrl: z.string().nullable().describe('OIDC: the redirect URI to register at the provider'),
    acsUrl: z.string().nullable().describe('SAML: the Assertion Consumer Service URL (HTTP-POST)'),
    entityId: z.string().nullable().describe('SAML: our entity id (also where our metadata is served)'),
    metadataUrl: z.string().nullable(),
    metadataXml: z.string().nullable().describe('SAML: our service provider metadata'),
    signInUrl: z.string().describe('Starts a sign-in with this provider (a link or bookmark for people)'),
  })
  .meta({ id: 'ServiceProvider' });

export const connectionTestView = z
  .object({
    ok: z.boolean(),
    checks: z.array(
      z.object({
        name: z.string().describe('What was checked: discovery, jwks, metadata, certificate'),
        ok: z.boolean(),
        detail: z.string().describe('What was found, or what is wrong and what to ask the provider’s admin'),
      }),
    ),
  })
  .meta({ id: 'IdentityProviderTest' });
export type ConnectionTest = z.infer<typeof connectionTestView>;
