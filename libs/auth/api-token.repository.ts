import { type Db, ObjectId } from 'mongodb';
import type { Scope } from '../contract/index.js';
import {
  type CollectionIndexes,
  KeyLookup,
  nextId,
  TenantCollection,
  WITHOUT_MONGO_ID,
} from '../db/index.js';
import { type GeneratedToken, generateToken } from './token.js';

export interface ApiToken {
  id: number;
  organizationId: number;
  name: string;
  prefix: string;
  hash: string;
  scopes: Scope[];
  /** Set for a token bound to one customer: it reads that customer's resources only (tokens from before have none). */
  customerId?: number | null;
  /** Set for a personal token: the user who made it, whose role it never exceeds (tokens from before have none). */
  userId?: number | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export const API_TOKENS = 'api_tokens';

/**
 * Tokens by hash (every authenticated request) in two primary-key reads. "Unknown" is not cached:
 * tokens are made by the admin CLI in another process, and failed authentications are limited per
 * client address before any lookup.
 */
/** A token keeps its hash for life and its `_id` is never used again: a known hash is one read. */
const hashLookup = (db: Db) =>
  new KeyLookup<ApiToken>(db, { collection: API_TOKENS, keyField: 'hash', refsNeverMove: true });

export const apiTokenIndexes: CollectionIndexes = {
  collection: API_TOKENS,
  indexes: [
    { key: { hash: 1 }, unique: true, name: 'hash_unique' },
    { key: { id: 1 }, unique: true, name: 'id_unique' },
    { key: { organizationId: 1, id: 1 }, name: 'organization_id' },
    { key: { prefix: 1 }, name: 'prefix' },
  ],
  backfill: (db) => hashLookup(db).backfill(),
};

export class ApiTokenRepository {
  private readonly tokens: TenantCollection<ApiToken>;
  private readonly hashes: KeyLookup<ApiToken>;

  constructor(private readonly db: Db) {
    this.tokens = new TenantCollection(db.collection<ApiToken>(API_TOKENS));
    this.hashes = hashLookup(db);
  }

  /** Creates a token; the clear token is in the result and nowhere else. */
  async create(input: {
    organizationId: number;
    name: string;
    scopes: Scope[];
    customerId?: number | null;
    userId?: number | null;
  }): Promise<{ record: ApiToken; token: string }> {
    const generated: GeneratedToken = generateToken();
    const record: ApiToken = {
      id: await nextId(this.db, API_TOKENS),
      organizationId: input.organizationId,
      name: input.name,
      prefix: generated.prefix,
      hash: generated.hash,
      scopes: input.scopes,
      customerId: input.customerId ?? null,
      userId: input.userId ?? null,
      createdAt: new Date(),
      lastUsedAt: null,
      revokedAt: null,
    };
    const mongoId = new ObjectId();
    await this.hashes.claim(record.hash, mongoId, () => this.tokens.insertOne({ ...record, _id: mongoId }));
    return { record, token: generated.token };
  }

  /** The unrevoked token with this hash, whatever its organization (this is how a caller is identified). */
  async findActiveByHash(hash: string): Promise<ApiToken | null> {
    // `_id` is projected out, so what comes back is the token itself.
    const token = (await this.hashes.find(hash, WITHOUT_MONGO_ID)) as ApiToken | null;
    return token?.revokedAt === null ? token : null;
  }

  list(organizationId: number): Promise<ApiToken[]> {
    return this.tokens.find(organizationId, {}, { ...WITHOUT_MONGO_ID, sort: { id: 1 } }).toArray();
  }

  /** Every organization's tokens, for the operator's CLI. */
  listAll(): Promise<ApiToken[]> {
    return this.tokens.collection.find({}, { ...WITHOUT_MONGO_ID, sort: { id: 1 } }).toArray();
  }

  findById(organizationId: number, id: number): Promise<ApiToken | null> {
    return this.tokens.findOne(organizationId, { id }, WITHOUT_MONGO_ID);
  }

  findByPrefix(prefix: string): Promise<ApiToken[]> {
    return this.tokens.collection.find({ prefix }, WITHOUT_MONGO_ID).toArray();
  }

  /** A user's personal tokens, revoked ones too, oldest first. */
  listOfUser(organizationId: number, userId: number): Promise<ApiToken[]> {
    return this.tokens.find(organizationId, { userId }, { ...WITHOUT_MONGO_ID, sort: { id: 1 } }).toArray();
  }

  /**
   * The organization's active admin tokens that are not personal: a personal token goes with its
   * user, so it is no way back in for the organization.
   */
  async countActiveAdmins(organizationId: number): Promise<number> {
    const admins = await this.tokens
      .find(organizationId, { revokedAt: null, scopes: 'admin' }, { projection: { _id: 0, userId: 1 } })
      .toArray();
    return admins.filter((token) => token.userId == null).length;
  }

  /** Revokes the user's active personal tokens that `keep` refuses; answers how many. */
  async revokePersonal(
    organizationId: number,
    userId: number,
    keep: (token: ApiToken) => boolean,
  ): Promise<number> {
    let revoked = 0;
    for (const token of await this.listOfUser(organizationId, userId))
      if (token.revokedAt === null && !keep(token) && (await this.revoke(organizationId, token.id)))
        revoked++;
    return revoked;
  }

  /** Revokes the token; false when it does not exist in the organization or is already revoked. */
  revoke(organizationId: number, id: number): Promise<boolean> {
    return this.tokens.updateOne(
      organizationId,
      { id, revokedAt: null },
      { $set: { revokedAt: new Date() } },
    );
  }

  async touchLastUsed(organizationId: number, id: number, at: Date): Promise<void> {
    await this.tokens.updateOne(organizationId, { id }, { $set: { lastUsedAt: at } });
  }
}
