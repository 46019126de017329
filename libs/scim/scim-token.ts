import { createHash, randomBytes } from 'node:crypto';
import { type Collection, type Db, ObjectId } from 'mongodb';
import {
  type CollectionIndexes,
  KeyLookup,
  nextId,
  TenantCollection,
  upsertRacingFirstWriters,
  WITHOUT_MONGO_ID,
} from '../db/index.js';
import type { MappedRole, RoleMappingRule } from '../sso/index.js';
import type { ScimToken } from './scim-token.schema.js';

/**
 * SCIM tokens: one per provisioning client of an organization (Entra ID, Okta), kept as the
 * SHA-256 of the token as API tokens are (shown once, never stored), each with the role mapping
 * its groups are read with. Rotation is a new token, then the old one revoked.
 */

const TOKEN_PREFIX = 'wmscim_';
/** `wmscim_` and 32 random bytes in base64url. */
const TOKEN_PATTERN = /^wmscim_[A-Za-z0-9_-]{43}$/;
const DISPLAY_PREFIX_LENGTH = TOKEN_PREFIX.length + 8;

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

export const SCIM_TOKENS = 'scim_tokens';
/** Uses apart from the tokens, as API tokens' are (a use written over a revocation would undo it). */
const SCIM_TOKEN_USES = 'scim_token_uses';
/** The API tokens' sequence (libs/auth's API_TOKENS). */
const TOKEN_SEQUENCE = 'api_tokens';
/** `lastUsedAt` is written at most this often per token and process. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

export const scimTokenIndexes: CollectionIndexes = {
  collection: SCIM_TOKENS,
  indexes: [
    { key: { hash: 1 }, unique: true, name: 'hash_unique' },
    { key: { organizationId: 1, id: 1 }, name: 'organization_id' },
  ],
};

export class ScimTokenRepository {
  private readonly tokens: TenantCollection<ScimToken>;
  private readonly hashes: KeyLookup<ScimToken>;
  private readonly uses: Collection<{ _id: number; organizationId: number; lastUsedAt: Date }>;
  private readonly lastWrite = new Map<number, number>();

  constructor(private readonly db: Db) {
    this.tokens = new TenantCollection(db.collection<ScimToken>(SCIM_TOKENS));
    this.hashes = new KeyLookup<ScimToken>(db, {
      collection: SCIM_TOKENS,
      keyField: 'hash',
      refsNeverMove: true,
    });
    this.uses = db.collection(SCIM_TOKEN_USES);
  }

  async create(input: {
    organizationId: number;
    name: string;
    identityProviderId: number | null;
    roleMapping: RoleMappingRule[];
    defaultRole: MappedRole;
    grant: ScimToken['grant'];
    createdBy: number;
  }): Promise<{ record: ScimToken; token: string }> {
    const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const record: ScimToken = {
      ...input,
      id: await nextId(this.db, TOKEN_SEQUENCE),
      prefix: token.slice(0, DISPLAY_PREFIX_LENGTH),
      hash: sha256(token),
      createdAt: new Date(),
      lastUsedAt: null,
      revokedAt: null,
    };
    const mongoId = new ObjectId();
    await this.hashes.claim(record.hash, mongoId, () => this.tokens.insertOne({ ...record, _id: mongoId }));
    return { record, token };
  }

  /** The unrevoked token this is, whatever its organization (how a SCIM client is identified); its use noted. */
  async authenticate(token: string): Promise<ScimToken | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const found = (await this.hashes.find(sha256(token), WITHOUT_MONGO_ID)) as ScimToken | null;
    if (found?.revokedAt !== null) return null;
    const now = Date.now();
    if (now - (this.lastWrite.get(found.id) ?? 0) >= LAST_USED_WRITE_INTERVAL_MS) {
      this.lastWrite.set(found.id, now);
      await this.touch(found, new Date(now));
    }
    return found;
  }

  private async touch(token: ScimToken, at: Date): Promise<void> {
    // Two first uses at once: one inserts the record, the other's second try updates it.
    await upsertRacingFirstWriters(() =>
      this.uses.updateOne(
        { _id: token.id },
        { $set: { organizationId: token.organizationId, lastUsedAt: at } },
        { upsert: true },
      ),
    );
  }

  /** The organization's tokens, revoked ones too, oldest first, with their last use. */
  async list(organizationId: number): Promise<ScimToken[]> {
    const tokens = await this.tokens
      .find(organizationId, {}, { ...WITHOUT_MONGO_ID, sort: { id: 1 } })
      .toArray();
    if (tokens.length === 0) return tokens;
    const uses = await this.uses.find({ _id: { $in: tokens.map((token) => token.id) } }).toArray();
    const lastUse = new Map(uses.map((use) => [use._id, use.lastUsedAt]));
    return tokens.map((token) => ({ ...token, lastUsedAt: lastUse.get(token.id) ?? null }));
  }

  /** Revokes the token: false when the organization has no such active token. */
  revoke(organizationId: number, id: number): Promise<boolean> {
    return this.tokens.updateOne(
      organizationId,
      { id, revokedAt: null },
      { $set: { revokedAt: new Date() } },
    );
  }
}
