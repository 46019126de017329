import type { Collection, Db } from 'mongodb';
import type { Role } from '../contract/index.js';
import { type CollectionIndexes, nextId } from '../db/index.js';
import { KeptRecords, type Redis, Revisions } from '../redis/index.js';

export interface Organization {
  id: number;
  name: string;
  createdAt: Date;
  /** Roles whose users must sign in with two-factor (absent in organizations made before it: none). */
  requireTwoFactorFor?: Role[];
  /** IANA time zone its reports' days and schedules are in (absent: UTC). */
  timezone?: string;
  /** How its client reports look (absent: the defaults). */
  branding?: { accentColor: string | null; footerText: string | null };
  /** The escalation policy alerts follow when neither website nor customer names one (absent: none). */
  escalationPolicyId?: number | null;
  /** Password sign-ins refused but for `breakGlassUserIds` (owners): people sign in with an identity provider. */
  requireSso?: boolean;
  breakGlassUserIds?: number[];
}

export const ORGANIZATIONS = 'organizations';

export const organizationIndexes: CollectionIndexes = {
  collection: ORGANIZATIONS,
  indexes: [{ key: { id: 1 }, unique: true, name: 'id_unique' }],
};

/** Each organization's revision, moved by every write of it here. */
export function organizationRevisions(redis: Redis, prefix: string): Revisions {
  return new Revisions(redis, `${prefix}:organization-rev`);
}

const ORGANIZATIONS_KEPT = 10_000;
const ORGANIZATION_MAX_AGE_MS = 60_000;

export class OrganizationRepository {
  private readonly collection: Collection<Organization>;
  /** Copies for the notifier, which reads the default escalation policy at every failure. */
  private readonly kept: KeptRecords<Organization> | null;

  /**
   * `revisions`: where this process moves an organization's revision at every write here. The
   * admin CLI has no Redis: its writes move none, and kept copies elsewhere see them within a minute.
   */
  constructor(
    private readonly db: Db,
    revisions?: Revisions,
  ) {
    this.collection = db.collection<Organization>(ORGANIZATIONS);
    this.kept = revisions
      ? new KeptRecords(revisions, { capacity: ORGANIZATIONS_KEPT, maxAgeMs: ORGANIZATION_MAX_AGE_MS })
      : null;
  }

  async create(name: string): Promise<Organization> {
    const organization: Organization = {
      id: await nextId(this.db, ORGANIZATIONS),
      name,
      createdAt: new Date(),
    };
    await this.collection.insertOne({ ...organization });
    return organization;
  }

  findById(id: number): Promise<Organization | null> {
    return this.collection.findOne({ id }, { projection: { _id: 0 } });
  }

  /** As `findById`, from a copy kept while the organization's revision holds (one Redis read). */
  findKept(id: number): Promise<Organization | null> {
    if (!this.kept) return this.findById(id);
    return this.kept.get(
      id,
      (organization) => organization.id === id,
      () => this.findById(id),
    );
  }

  /** The roles whose users must sign in with two-factor; none for an unknown organization. */
  /** Every organization's id from `fromId` on, ascending (a few documents: one per agency). */
  async idsFrom(fromId: number): Promise<number[]> {
    const found = await this.collection.find({ id: { $gte: fromId } }, { projection: { id: 1 } }).toArray();
    return found.map((o) => o.id).sort((a, b) => a - b);
  }

  async twoFactorRequiredFor(id: number): Promise<Role[]> {
    const found = await this.collection.findOne({ id }, { projection: { _id: 0, requireTwoFactorFor: 1 } });
    return found?.requireTwoFactorFor ?? [];
  }

  /** Whether its people must sign in with single sign-on, and who may still use a password. */
  async ssoRequirement(id: number): Promise<{ requireSso: boolean; breakGlassUserIds: number[] }> {
    const found = await this.collection.findOne(
      { id },
      { projection: { _id: 0, requireSso: 1, breakGlassUserIds: 1 } },
    );
    return { requireSso: found?.requireSso ?? false, breakGlassUserIds: found?.breakGlassUserIds ?? [] };
  }

  /** Changes its name, timezone or branding; the organization as it is now (null: none). */
  async update(
    id: number,
    changes: Partial<
      Pick<
        Organization,
        'name' | 'timezone' | 'branding' | 'escalationPolicyId' | 'requireSso' | 'breakGlassUserIds'
      >
    >,
  ): Promise<Organization | null> {
    await this.collection.updateOne({ id }, { $set: changes });
    await this.kept?.changed(id);
    return this.findById(id);
  }

  /** Sets the roles that must sign in with two-factor; false when there is no such organization. */
  async setTwoFactorRequiredFor(id: number, roles: readonly Role[]): Promise<boolean> {
    const result = await this.collection.updateOne({ id }, { $set: { requireTwoFactorFor: [...roles] } });
    await this.kept?.changed(id);
    return result.matchedCount === 1;
  }
}
