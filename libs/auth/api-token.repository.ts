import { type Collection, type Db, ObjectId } from 'mongodb';
import type { Scope } from '../contract/index.js';
import {
  type CollectionIndexes,
  KeyLookup,
  nextId,
  TenantCollection,
  upsertRacingFirstWriters,
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
 * When each token was last used, apart from the token: FerretDB writes an update as the whole
 * document read before it, so a use recorded on the token itself could write back `revokedAt: null`
 * over a revocation made meanwhile, bringing a revoked token back to life.
 */
const API_TOKEN_USES = 'api_token_uses';

interface ApiTokenUse {
  /** The token's id. */
  _id: number;
  organizationId: number;
  lastUsedAt: Date;
}

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
  private readonly uses: Collection<ApiTokenUse>;

  constructor(private readonly db: Db) {
    this.tokens = new TenantCollection(db.collection<ApiToken>(API_TOKENS));
    this.hashes = hashLookup(db);
    this.uses = db.collection<ApiTokenUse>(API_TOKEN_USES);
  }

  /** The tokens with when each was last used (tokens from before the uses were kept apart carry their own). */
  private async withLastUse(tokens: ApiToken[]): Promise<ApiToken[]> {
    if (tokens.length === 0) return tokens;
    const uses = await this.uses.find({ _id: { $in: tokens.map((token) => token.id) } }).toArray();
    const lastUse = new Map(uses.map((use) => [use._id, use.lastUsedAt]));
    return tokens.map((token) => {
      const used = lastUse.get(token.id);
      return used && (!token.lastUsedAt || used > token.lastUsedAt) ? { ...token, lastUsedAt: used } : token;
    });
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

  async list(organizationId: number): Promise<ApiToken[]> {
    return this.withLastUse(
      await this.tokens.find(organizationId, {}, { ...WITHOUT_MONGO_ID, sort: { id: 1 } }).toArray(),
    );
  }

  /** Every organization's tokens, for the operator's CLI. */
  async listAll(): Promise<ApiToken[]> {
    return this.withLastUse(
      await this.tokens.collection.find({}, { ...WITHOUT_MONGO_ID, sort: { id: 1 } }).toArray(),
    );
  }

  async findById(organizationId: number, id: number): Promise<ApiToken | null> {
    const token = await this.tokens.findOne(organizationId, { id }, WITHOUT_MONGO_ID);
    return token && (await this.withLastUse([token]))[0]!;
  }

  async findByPrefix(prefix: string): Promise<ApiToken[]> {
    return this.withLastUse(await this.tokens.collection.find({ prefix }, WITHOUT_MONGO_ID).toArray());
  }

  /** A user's personal tokens, revoked ones too, oldest first. */
  async listOfUser(organizationId: number, userId: number): Promise<ApiToken[]> {
    return this.withLastUse(
      await this.tokens.find(organizationId, { userId }, { ...WITHOUT_MONGO_ID, sort: { id: 1 } }).toArray(),
    );
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

  /** Never writes the token itself (see API_TOKEN_USES). */
  async touchLastUsed(organizationId: number, id: number, at: Date): Promise<void> {
    // Two first uses at once: one inserts the record, the other's second try updates it.
    await upsertRacingFirstWriters(() =>
      this.uses.updateOne({ _id: id }, { $set: { organizationId, lastUsedAt: at } }, { upsert: true }),
    );
  }
}
