import type { Role } from '../contract/index.js';
import { conflict, invalidInput, notAllowed, notFound } from '../errors/index.js';
import type { SecretBox } from '../secrets/index.js';
import { refusedUrl, type TargetGuard } from '../targets/index.js';
import { type ProviderFetch, plainHttpAllowed } from './guarded-fetch.js';
import {
  type IdentityProviderRepository,
  clientSecretContext as secretContext,
} from './identity-provider.repository.js';
import {
  type ConnectionTest,
  type CreateIdentityProvider,
  type IdentityProvider,
  type PatchIdentityProvider,
  TYPE_FIELDS,
} from './identity-provider.schema.js';
import { type OidcIo, probeOidc } from './oidc.js';
import { parseIdpMetadata, type ServiceProviderKeys } from './saml/index.js';

/** Days before a SAML certificate's end that a test warns of it. */
const CERTIFICATE_WARNING_DAYS = 30;

export interface IdentityProviderDeps {
  providers: IdentityProviderRepository;
  secrets: SecretBox;
  guard: TargetGuard;
  io: OidcIo;
  customerExists(organizationId: number, customerId: number): Promise<boolean>;
  /** A SAML provider's own SP key pair, deleted with it. */
  spKeys: Pick<ServiceProviderKeys, 'delete'>;
  /** An absolute URL of ours (PUBLIC_URL + path), as the app's other links are built. */
  publicUrl(path: string): string;
  /** Whether the organization requires single sign-on: its last enabled provider then stays. */
  ssoRequired(organizationId: number): Promise<boolean>;
}

/** Who changes a provider: its organization, and the caller's role (undefined for an API token: an admin). */
export interface ProviderEditor {
  organizationId: number;
  role?: Role;
}

type Grants = Pick<IdentityProvider, 'roleMapping' | 'defaultRole'>;
const grantsOwner = (provider: Grants) =>
  provider.roleMapping.some((rule) => rule.role === 'owner') || provider.defaultRole?.role === 'owner';

/**
 * Only an owner makes owners (the users API's rule): a provider whose rules or default give the
 * owner role is an owner's to make or change, or an admin could make owners by signing in.
 */
function checkOwnerGrant(editor: ProviderEditor, next: Grants, current: Grants | null): void {
  if (editor.role === 'owner') return;
  if (current && grantsOwner(current))
    throw notAllowed('This identity provider makes owners: only an owner may change or delete it.');
  const paths = [
    ...next.roleMapping.flatMap((rule, index) =>
      rule.role === 'owner' ? [`roleMapping.${index}.role`] : [],
    ),
    ...(next.defaultRole?.role === 'owner' ? ['defaultRole.role'] : []),
  ];
  if (paths.length > 0)
    throw notAllowed(
      'Only an owner may give the owner role through an identity provider; ask an owner of your organization.',
      paths.map((path) => ({ path, message: 'owners only' })),
    );
}

/** Where a provider sends people back, and what SAML's side is called: one place for every route. */
export const ssoPaths = (providerId: number) => ({
  start: `/api/auth/sso/${providerId}/start`,
  callback: `/api/auth/sso/${providerId}/callback`,
  acs: `/api/auth/sso/${providerId}/acs`,
  metadata: `/api/auth/sso/${providerId}/metadata`,
});

/** An organization's identity providers: validated, secrets sealed, connections tested. */
export class IdentityProviders {
  constructor(private readonly deps: IdentityProviderDeps) {}

  list(organizationId: number): Promise<IdentityProvider[]> {
    return this.deps.providers.list(organizationId);
  }

  async get(organizationId: number, id: number): Promise<IdentityProvider> {
    const provider = await this.deps.providers.findById(organizationId, id);
    if (!provider) throw notFound(`No identity provider ${id}`);
    return provider;
  }

  async create(editor: ProviderEditor, body: CreateIdentityProvider): Promise<IdentityProvider> {
    const { organizationId } = editor;
    checkOwnerGrant(editor, body, null);
    await this.checkDomains(organizationId, body.allowedDomains);
    await this.checkCustomers(organizationId, body);
    const id = await this.deps.providers.allocateId();
    const common = {
      organizationId,
      name: body.name,
      enabled: body.enabled,
      allowedDomains: body.allowedDomains,
      roleMapping: body.roleMapping,
      defaultRole: body.defaultRole,
      customerId: body.customerId,
    };
    if (body.type === 'oidc') {
      this.checkIssuer(body.issuer);
      return this.deps.providers.create(id, {
        ...common,
        type: 'oidc',
        oidc: {
          issuer: body.issuer,
          clientId: body.clientId,
          clientSecret: this.deps.secrets.seal(body.clientSecret, secretContext({ id })),
          scopes: body.scopes,
        },
      });
    }
    const metadata = await this.samlMetadata(body.metadataXml, body.metadataUrl ?? null);
    return this.deps.providers.create(id, {
      ...common,
      type: 'saml',
      saml: { ...metadata, allowIdpInitiated: body.allowIdpInitiated, groupsAttribute: body.groupsAttribute },
    });
  }

  async update(editor: ProviderEditor, id: number, body: PatchIdentityProvider): Promise<IdentityProvider> {
    const { organizationId } = editor;
    const current = await this.get(organizationId, id);
    const foreign = TYPE_FIELDS[current.type === 'oidc' ? 'saml' : 'oidc'].filter(
      (field) => body[field] !== undefined,
    );
    if (foreign.length > 0)
      throw invalidInput(
        `A ${current.type.toUpperCase()} provider has no ${foreign.join(', ')}`,
        foreign.map((path) => ({ path, message: `not a field of a ${current.type} provider` })),
      );
    await this.checkCustomers(organizationId, body);
    const next: IdentityProvider = {
      ...current,
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
      ...(body.allowedDomains === undefined ? {} : { allowedDomains: body.allowedDomains }),
      ...(body.roleMapping === undefined ? {} : { roleMapping: body.roleMapping }),
      ...(body.defaultRole === undefined ? {} : { defaultRole: body.defaultRole }),
      ...(body.customerId === undefined ? {} : { customerId: body.customerId }),
    };
    checkOwnerGrant(editor, next, current);
    if (body.allowedDomains !== undefined) await this.checkDomains(organizationId, body.allowedDomains);
    if (current.enabled && !next.enabled) await this.keepOneWhileRequired(current);
    if (current.oidc) {
      if (body.issuer !== undefined) this.checkIssuer(body.issuer);
      next.oidc = {
        issuer: body.issuer ?? current.oidc.issuer,
        clientId: body.clientId ?? current.oidc.clientId,
        clientSecret:
          body.clientSecret === undefined
            ? current.oidc.clientSecret
            : this.deps.secrets.seal(body.clientSecret, secretContext(current)),
        scopes: body.scopes ?? current.oidc.scopes,
      };
    }
    if (current.saml) {
      const metadataUrl = body.metadataUrl === undefined ? current.saml.metadataUrl : body.metadataUrl;
      const changed = body.metadataXml !== undefined || body.metadataUrl !== undefined;
      const metadata = changed
        ? await this.samlMetadata(
            body.metadataXml ?? (metadataUrl ? undefined : current.saml.metadataXml),
            metadataUrl,
          )
        : current.saml;
      next.saml = {
        metadataXml: metadata.metadataXml,
        metadataUrl: metadata.metadataUrl,
        idpEntityId: metadata.idpEntityId,
        allowIdpInitiated: body.allowIdpInitiated ?? current.saml.allowIdpInitiated,
        groupsAttribute:
          body.groupsAttribute === undefined ? (current.saml.groupsAttribute ?? null) : body.groupsAttribute,
      };
    }
    return this.deps.providers.replace(next);
  }

  /**
   * The provider, its people's links to it and its SP key go; the people stay, with their role,
   * and sign in another way (a password they set, another provider of their domain).
   */
  async delete(editor: ProviderEditor, id: number): Promise<void> {
    const { organizationId } = editor;
    const current = await this.get(organizationId, id);
    checkOwnerGrant(editor, current, current);
    if (current.enabled) await this.keepOneWhileRequired(current);
    if (!(await this.deps.providers.delete(organizationId, id))) throw notFound(`No identity provider ${id}`);
    await this.deps.spKeys.delete(organizationId, id);
  }

  /**
   * A domain signs in through one organization's providers only: the sign-in page offers a
   * domain's providers to anyone typing an address of it, so a second organization claiming it
   * could put its button before that domain's people. webmon does not verify domains (no DNS
   * proof): the first organization to claim one keeps it, and the refusal names no other.
   */
  private async checkDomains(organizationId: number, domains: readonly string[]): Promise<void> {
    const taken = await this.deps.providers.domainsClaimedElsewhere(organizationId, domains);
    if (taken.length > 0)
      throw conflict(
        `${taken.join(', ')} already sign${taken.length === 1 ? 's' : ''} in through another organization's identity provider; if the domain is yours, contact support.`,
        domains.flatMap((domain, index) =>
          taken.includes(domain)
            ? [{ path: `allowedDomains.${index}`, message: 'claimed by another organization' }]
            : [],
        ),
      );
  }

  /** While single sign-on is required, its last enabled provider is neither disabled nor deleted: nobody could sign in. */
  private async keepOneWhileRequired(provider: IdentityProvider): Promise<void> {
    if (!(await this.deps.ssoRequired(provider.organizationId))) return;
    const enabled = (await this.deps.providers.list(provider.organizationId)).filter((p) => p.enabled);
    if (enabled.length <= 1)
      throw conflict(
        'Your organization requires single sign-on and this is its last enabled identity provider: turn off “require single sign-on” first (an owner may), or add another provider.',
        [{ path: 'requireSso', message: 'on, with no other enabled provider' }],
      );
  }

  /** The client secret, opened for a sign-in or a test (never shown, never logged). */
  clientSecretOf(provider: IdentityProvider): string {
    if (!provider.oidc) throw new Error(`identity provider ${provider.id} is not OIDC`);
    return this.deps.secrets.open(provider.oidc.clientSecret, secretContext(provider));
  }

  /**
   * Our side, for the provider's admin: the redirect URL (OIDC), or the ACS and entity id (SAML;
   * the route adds our SP metadata, which SAML's keys sign).
   */
  serviceProvider(provider: IdentityProvider) {
    const paths = ssoPaths(provider.id);
    const url = (path: string) => this.deps.publicUrl(path);
    const saml = provider.type === 'saml';
    return {
      type: provider.type,
      redirectUrl: saml ? null : url(paths.callback),
      acsUrl: saml ? url(paths.acs) : null,
      entityId: saml ? url(paths.metadata) : null,
      metadataUrl: saml ? url(paths.metadata) : null,
      signInUrl: url(paths.start),
    };
  }

  /** Whether the provider answers as it should, each check with what is wrong in words. */
  async test(provider: IdentityProvider): Promise<ConnectionTest> {
    const checks = provider.oidc
      ? await probeOidc(
          {
            issuer: provider.oidc.issuer,
            clientId: provider.oidc.clientId,
            clientSecret: this.clientSecretOf(provider),
          },
          this.deps.io,
        )
      : await this.probeSaml(provider);
    return { ok: checks.every((check) => check.ok), checks };
  }

  private async probeSaml(provider: IdentityProvider) {
    const saml = provider.saml;
    if (!saml) return [{ name: 'metadata', ok: false, detail: 'no SAML settings' }];
    let xml = saml.metadataXml;
    const checks: ConnectionTest['checks'] = [];
    if (saml.metadataUrl) {
      try {
        xml = await this.fetchMetadata(saml.metadataUrl);
        checks.push({ name: 'metadata-url', ok: true, detail: `read from ${saml.metadataUrl}` });
      } catch (error) {
        checks.push({ name: 'metadata-url', ok: false, detail: (error as Error).message });
      }
    }
    try {
      const now = new Date();
      const metadata = parseIdpMetadata(xml, { now });
      checks.push({
        name: 'metadata',
        ok: true,
        detail: `${metadata.entityId}: sign-in at ${metadata.ssoUrl} (${metadata.ssoBinding})`,
      });
      for (const certificate of metadata.certificates) {
        const daysLeft = Math.floor((certificate.notAfter.getTime() - now.getTime()) / 86_400_000);
        const valid = certificate.notBefore <= now && daysLeft >= 0;
        checks.push({
          name: 'certificate',
          ok: valid,
          detail: valid
            ? `${certificate.subject} valid until ${certificate.notAfter.toISOString().slice(0, 10)}${
                daysLeft < CERTIFICATE_WARNING_DAYS
                  ? ` (only ${daysLeft} days left: ask the IdP's admin to roll it over)`
                  : ''
              }`
            : `${certificate.subject} is valid ${certificate.notBefore.toISOString().slice(0, 10)} to ${certificate.notAfter
                .toISOString()
                .slice(0, 10)}: ask the IdP's admin for metadata with a current certificate`,
        });
      }
    } catch (error) {
      checks.push({ name: 'metadata', ok: false, detail: (error as Error).message });
    }
    return checks;
  }

  private checkIssuer(issuer: string): void {
    const problem = refusedUrl(this.deps.guard, issuer);
    if (problem)
      throw invalidInput('The issuer cannot be reached from here', [{ path: 'issuer', message: problem }]);
    if (!plainHttpAllowed(new URL(issuer), this.deps.guard))
      throw invalidInput('The issuer must be an https:// URL', [
        { path: 'issuer', message: 'must be https:// (tokens and secrets travel over TLS only)' },
      ]);
  }

  private async samlMetadata(xml: string | undefined, url: string | null) {
    let metadataXml = xml;
    if (metadataXml === undefined) {
      if (!url)
        throw invalidInput('Give metadataXml or metadataUrl', [{ path: 'metadataXml', message: 'Required' }]);
      const problem = refusedUrl(this.deps.guard, url);
      if (problem)
        throw invalidInput('The metadata URL cannot be reached from here', [
          { path: 'metadataUrl', message: problem },
        ]);
      try {
        metadataXml = await this.fetchMetadata(url);
      } catch (error) {
        throw invalidInput('The metadata could not be read', [
          { path: 'metadataUrl', message: (error as Error).message },
        ]);
      }
    }
    const parsed = parseIdpMetadata(metadataXml, {
      field: url && xml === undefined ? 'metadataUrl' : 'metadataXml',
    });
    return { metadataXml, metadataUrl: url, idpEntityId: parsed.entityId };
  }

  private async fetchMetadata(url: string): Promise<string> {
    const answer = await (this.deps.io.fetch as ProviderFetch)(url, {
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
    });
    if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
    return answer.text();
  }

  /** Every customer the provider names (its own, its rules', its default role's) exists. */
  private async checkCustomers(
    organizationId: number,
    body: Pick<PatchIdentityProvider, 'customerId' | 'roleMapping' | 'defaultRole'>,
  ): Promise<void> {
    const named: Array<{ path: string; customerId: number }> = [];
    if (typeof body.customerId === 'number') named.push({ path: 'customerId', customerId: body.customerId });
    for (const [index, rule] of (body.roleMapping ?? []).entries())
      if (rule.customerId !== undefined)
        named.push({ path: `roleMapping.${index}.customerId`, customerId: rule.customerId });
    if (body.defaultRole?.customerId !== undefined)
      named.push({ path: 'defaultRole.customerId', customerId: body.defaultRole.customerId });
    const missing = [];
    for (const entry of named)
      if (!(await this.deps.customerExists(organizationId, entry.customerId))) missing.push(entry);
    if (missing.length > 0)
      throw invalidInput(
        'A customer the provider names does not exist',
        missing.map((entry) => ({
          path: entry.path,
          message: `no customer ${entry.customerId} in your organization`,
        })),
      );
  }
}
