import type { Collection, Db, Filter } from 'mongodb';
import { nextId, TenantCollection } from '../db/index.js';
import { type ResealReport, resealCollection, type SecretBox } from '../secrets/index.js';
import type { IdentityProvider } from './identity-provider.schema.js';

export const IDENTITY_PROVIDERS = 'identity_providers';
export const SSO_IDENTITIES = 'sso_identities';

type Stored = IdentityProvider & { _id: string };

/** Providers are keyed `idp<id>`: a sign-in finds its provider by id alone (one primary-key read). */
const providerKey = (id: number) => `idp${id}`;

/** A provider's person linked to one of our users: `_id` is `<providerId>/<subject>`. */
interface IdentityLink {
  _id: string;
  providerId: number;
  organizationId: number;
  userId: number;
}

const linkKey = (providerId: number, subject: string) => `${providerId}/${subject}`;

/** What an OIDC provider's client secret is sealed for: opened for that provider alone. */
export const clientSecretContext = (provider: Pick<IdentityProvider, 'id'>) =>
  `identity-provider:${provider.id}:clientSecret`;

/** Identity providers of organizations, and which user each provider's person is. */
export class IdentityProviderRepository {
  private readonly providers: TenantCollection<Stored>;
  private readonly links: Collection<IdentityLink>;

  constructor(private readonly db: Db) {
    this.providers = new TenantCollection(db.collection<Stored>(IDENTITY_PROVIDERS));
    this.links = db.collection<IdentityLink>(SSO_IDENTITIES);
  }

  /** The next provider id (its secret is sealed for it before it is stored). */
  allocateId(): Promise<number> {
    return nextId(this.db, IDENTITY_PROVIDERS);
  }

  async create(
    id: number,
    input: Omit<IdentityProvider, 'id' | 'createdAt' | 'updatedAt'>,
  ): Promise<IdentityProvider> {
    const now = new Date();
    const provider: IdentityProvider = { ...input, id, createdAt: now, updatedAt: now };
    await this.providers.insertOne({ ...provider, _id: providerKey(provider.id) });
    return provider;
  }

  async findById(organizationId: number, id: number): Promise<IdentityProvider | null> {
    return this.providers.findOneByKey(organizationId, providerKey(id), { projection: { _id: 0 } });
  }

  /** Any organization's provider: a sign-in names the provider, not the organization. */
  async findAnyById(id: number): Promise<IdentityProvider | null> {
    return this.providers.collection.findOne({ _id: providerKey(id) } as Filter<Stored>, {
      projection: { _id: 0 },
    });
  }

  list(organizationId: number): Promise<IdentityProvider[]> {
    return this.providers.find(organizationId, {}, { projection: { _id: 0 }, sort: { id: 1 } }).toArray();
  }

  /** Organizations other than `organizationId` with a provider for any of `domains` (enabled or not). */
  async domainsClaimedElsewhere(organizationId: number, domains: readonly string[]): Promise<string[]> {
    if (domains.length === 0) return [];
    const found = await this.providers.collection
      .find(
        { allowedDomains: { $in: [...domains] }, organizationId: { $ne: organizationId } } as Filter<Stored>,
        {
          projection: { _id: 0, allowedDomains: 1 },
        },
      )
      .toArray();
    const wanted = new Set(domains);
    return [...new Set(found.flatMap((provider) => provider.allowedDomains.filter((d) => wanted.has(d))))];
  }

  /**
   * Enabled providers that sign in people of this e-mail domain, in every organization (the
   * sign-in page's buttons). A scan, bounded by the few providers an organization has.
   */
  async enabledForDomain(domain: string): Promise<IdentityProvider[]> {
    return this.providers.collection
      .find({ allowedDomains: domain, enabled: true } as Filter<Stored>, {
        projection: { _id: 0 },
        sort: { id: 1 },
        limit: 20,
      })
      .toArray();
  }

  async countEnabled(organizationId: number): Promise<number> {
    return this.providers.countDocuments(organizationId, { enabled: true } as Filter<Stored>);
  }

  /** Writes every field but the identity ones, `updatedAt` now. */
  async replace(provider: IdentityProvider): Promise<IdentityProvider> {
    const updated = { ...provider, updatedAt: new Date() };
    const { id, organizationId, createdAt: _createdAt, ...fields } = updated;
    await this.providers.collection.updateOne({ _id: providerKey(id), organizationId } as Filter<Stored>, {
      $set: fields,
    });
    return updated;
  }

  async delete(organizationId: number, id: number): Promise<boolean> {
    const { deletedCount } = await this.providers.collection.deleteOne({
      _id: providerKey(id),
      organizationId,
    } as Filter<Stored>);
    // Its people's links go with it (a scan, once per deletion).
    if (deletedCount > 0) await this.links.deleteMany({ providerId: id, organizationId });
    return deletedCount > 0;
  }

  /** The user a provider's person was linked to (the caller checks the user still holds the link). */
  async linkedUser(
    providerId: number,
    subject: string,
  ): Promise<{ organizationId: number; userId: number } | null> {
    const link = await this.links.findOne({ _id: linkKey(providerId, subject) });
    return link && { organizationId: link.organizationId, userId: link.userId };
  }

  /** Links a provider's person to a user (replacing a link to a user since deleted). */
  async link(providerId: number, subject: string, organizationId: number, userId: number): Promise<void> {
    await this.links.replaceOne(
      { _id: linkKey(providerId, subject) },
      { providerId, organizationId, userId },
      { upsert: true },
    );
  }

  /** Seals the OIDC client secrets sealed under an older SECRETS_KEY again under the current one (`reseal-secrets`). */
  resealSecrets(box: SecretBox, onProgress?: (report: ResealReport) => void): Promise<ResealReport> {
    return resealCollection({
      collection: this.providers.collection,
      box,
      filter: { type: 'oidc' } as Filter<Stored>,
      sealedFieldsOf: (provider) =>
        provider.oidc
          ? [
              {
                path: 'oidc.clientSecret',
                sealed: provider.oidc.clientSecret,
                context: clientSecretContext(provider),
              },
            ]
          : [],
      ...(onProgress ? { onProgress } : {}),
    });
  }
}
