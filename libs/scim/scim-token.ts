import { createHash, randomBytes } from 'node:crypto';
import { type Collection, type Db, ObjectId } from 'mongodb';
import { z } from 'zod';
import { nameText, ROLES, resourceId } from '../contract/index.js';
import { isDuplicateKey, KeyLookup, nextId, TenantCollection, WITHOUT_MONGO_ID } from '../db/index.js';
import { type MappedRole, type RoleMappingRule, roleMapping } from '../sso/index.js';

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

export interface ScimToken {
  /** From the API tokens' sequence: an audit event's token id names one token of either kind. */
  id: number;
  organizationId: number;
  name: string;
  prefix: string;
  hash: string;
  /** The identity provider these people sign in with: their `identities` link to it. */
  identityProviderId: number | null;
  roleMapping: RoleMappingRule[];
  /** The role of a person no rule matches (everyone, until groups come). */
  defaultRole: MappedRole;
  /**
   * What the token may do to people, its maker's role when made: only an owner's token changes,
   * deactivates or deletes an owner, or maps anyone to owner (the owner rules of the users API).
   */
  grant: 'owner' | 'admin';
  createdBy: number;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export const SCIM_TOKENS = 'scim_tokens';
/** Uses apart from the tokens, as API tokens' are (a use written over a revocation would undo it). */
const SCIM_TOKEN_USES = 'scim_token_uses';
/** The API tokens' sequence (libs/auth's API_TOKENS). */
const TOKEN_SEQUENCE = 'api_tokens';
/** `lastUsedAt` is written at most this often per token and process. */
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

export const defaultRole = z
  .strictObject({
    role: z.enum(ROLES),
    customerId: resourceId().optional().describe('Required for the client role; refused otherwise'),
  })
  .superRefine((value, context) => {
    if ((value.role === 'client') !== (value.customerId !== undefined))
      context.addIssue({
        code: 'custom',
        path: ['customerId'],
        message: value.role === 'client' ? 'Required for the client role' : 'Only for the client role',
      });
  })
  .describe('The role of a person no rule matches (every new person, until their groups come)')
  .meta({ id: 'ScimDefaultRole' });

export const createScimTokenBody = z
  .strictObject({
    name: nameText(100).describe('Which client provisions with it, e.g. "Entra ID"'),
    identityProviderId: resourceId()
      .optional()
      .describe('The identity provider these people sign in with: SCIM-made people are linked to it'),
    roleMapping: roleMapping
      .default([])
      .describe(
        'Group rules, as identity providers have them: a person gets the highest role their groups map to',
      ),
    defaultRole,
  })
  .meta({ id: 'ScimTokenCreate' });
export type CreateScimToken = z.output<typeof createScimTokenBody>;

const mappedRoleView = z.object({ role: z.enum(ROLES), customerId: z.number().int().nullable() });

export const scimTokenView = z
  .object({
    id: z.number().int(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the token, to recognize it'),
    identityProviderId: z.number().int().nullable(),
    roleMapping: roleMapping,
    defaultRole: mappedRoleView,
    grant: z.enum(['owner', 'admin']).describe("Its maker's role: only an owner's token changes owners"),
    createdBy: z.number().int().describe('The person who made it'),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
    revokedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ScimToken' });

export const createdScimTokenView = scimTokenView
  .extend({
    token: z.string().describe('The token itself, shown this once only'),
    baseUrl: z.string().describe('The SCIM base URL to give the provisioning client'),
  })
  .meta({ id: 'CreatedScimToken' });

export function toScimTokenView(token: ScimToken): z.input<typeof scimTokenView> {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    identityProviderId: token.identityProviderId,
    roleMapping: token.roleMapping,
    defaultRole: token.defaultRole,
    grant: token.grant,
    createdBy: token.createdBy,
    createdAt: token.createdAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  };
}

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
    const write = () =>
      this.uses.updateOne(
        { _id: token.id },
        { $set: { organizationId: token.organizationId, lastUsedAt: at } },
        { upsert: true },
      );
    try {
      await write();
    } catch (error) {
      // Two first uses at once: one inserted, so the other's update finds it now.
      if (!isDuplicateKey(error)) throw error;
      await write();
    }
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
