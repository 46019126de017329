import type { Db, Filter } from 'mongodb';
import { z } from 'zod';
import { type CollectionIndexes, KeyLookup, nextId, TenantCollection } from '../db/index.js';
import { newOneTimeToken } from './one-time-token.js';
import { role } from './person.schema.js';

export const INVITATIONS = 'invitations';

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 72 * 3600_000;

/** How long an expired invitation is still listed (so admins see it lapsed) before it is purged. */
export const EXPIRED_INVITATION_KEPT_MS = 7 * 24 * 3600_000;

/** An invitation as stored (`_id` is `i<id>`); only the SHA-256 of its token is kept. */
const storedInvitation = z.object({
  id: z.number().int().min(1),
  organizationId: z.number().int().min(1),
  email: z.string(),
  role,
  customerId: z.number().int().min(1).nullable(),
  tokenHash: z.string(),
  createdAt: z.date(),
  expiresAt: z.date(),
  /** When its mail last went, if it was sent again (a new link): the re-send's cool-down counts from it. */
  sentAt: z.date().optional(),
});
export type Invitation = z.infer<typeof storedInvitation>;
type StoredInvitation = Invitation & { _id: string };

export const invitationView = z
  .object({
    id: z.number().int(),
    email: z.string(),
    role,
    customerId: z.number().int().nullable(),
    expiresAt: z.iso.datetime().describe('The link works until then, once'),
  })
  .meta({ id: 'Invitation' });

export const toInvitationView = (invitation: Invitation): z.infer<typeof invitationView> => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  customerId: invitation.customerId,
  expiresAt: invitation.expiresAt.toISOString(),
});

const invitationKey = (id: number) => `i${id}`;

/** Invitations by token hash (every acceptance, asked by anyone) in two primary-key reads. */
const tokenLookup = (db: Db) =>
  new KeyLookup<StoredInvitation>(db, { collection: INVITATIONS, keyField: 'tokenHash' });

export const invitationIndexes: CollectionIndexes = {
  collection: INVITATIONS,
  indexes: [
    { key: { tokenHash: 1 }, unique: true, name: 'token_hash_unique' },
    { key: { organizationId: 1, id: 1 }, name: 'organization_id' },
  ],
};

const parse = (document: unknown): Invitation | null => (document ? storedInvitation.parse(document) : null);

/** Pending invitations; one is deleted when accepted or withdrawn. */
export class InvitationRepository {
  private readonly invitations: TenantCollection<StoredInvitation>;
  private readonly tokens: KeyLookup<StoredInvitation>;

  constructor(private readonly db: Db) {
    this.invitations = new TenantCollection(db.collection<StoredInvitation>(INVITATIONS));
    this.tokens = tokenLookup(db);
  }

  /** Stores an invitation; the token (for the link) is returned and never stored. */
  async create(
    fields: Pick<Invitation, 'organizationId' | 'email' | 'role' | 'customerId'>,
    ttlMs = INVITATION_TTL_MS,
  ): Promise<{ invitation: Invitation; token: string }> {
    const { token, hash } = newOneTimeToken();
    const now = new Date();
    const invitation: Invitation = {
      ...fields,
      id: await nextId(this.db, INVITATIONS),
      tokenHash: hash,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ttlMs),
    };
    const _id = invitationKey(invitation.id);
    await this.tokens.claim(hash, _id, () => this.invitations.insertOne({ ...invitation, _id }));
    return { invitation, token };
  }

  /**
   * The organization's invitation of this address that can still be accepted, or null (a scan of
   * the organization's invitations, as `list`: made by admins, bounded).
   */
  async pendingFor(organizationId: number, email: string, now: Date): Promise<Invitation | null> {
    const found = await this.invitations
      .find(organizationId, { email }, { projection: { _id: 0 }, sort: { id: -1 } })
      .toArray();
    const pending = found.map((invitation) => storedInvitation.parse(invitation));
    return pending.find((invitation) => invitation.expiresAt > now) ?? null;
  }

  /**
   * The invitation with a new link (the old one stops working), as now asked (role, customer),
   * valid from now: inviting an address again sends this rather than a second invitation.
   */
  async reissue(
    invitation: Invitation,
    fields: Pick<Invitation, 'role' | 'customerId'>,
  ): Promise<{ invitation: Invitation; token: string }> {
    const { token, hash } = newOneTimeToken();
    const now = new Date();
    const reissued: Invitation = {
      ...invitation,
      ...fields,
      tokenHash: hash,
      sentAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    };
    const _id = invitationKey(invitation.id);
    await this.tokens.claim(hash, _id, () =>
      this.invitations.collection.replaceOne(
        { _id, organizationId: invitation.organizationId } as Filter<StoredInvitation>,
        reissued,
      ),
    );
    await this.tokens.release(invitation.tokenHash, _id);
    return { invitation: reissued, token };
  }

  /** The invitation whose token has this hash, expired or not, or null. */
  async findByTokenHash(tokenHash: string): Promise<Invitation | null> {
    return parse(await this.tokens.find(tokenHash, { projection: { _id: 0 } }));
  }

  async findById(organizationId: number, id: number): Promise<Invitation | null> {
    return parse(
      await this.invitations.findOneByKey(organizationId, invitationKey(id), { projection: { _id: 0 } }),
    );
  }

  /** The organization's invitations, oldest first, expired ones included (bounded: made by admins). */
  async list(organizationId: number): Promise<Invitation[]> {
    const found = await this.invitations
      .find(organizationId, {}, { projection: { _id: 0 }, sort: { id: 1 } })
      .toArray();
    return found.map((invitation) => storedInvitation.parse(invitation));
  }

  /**
   * Up to `limit` invitations of every organization with ids above `afterId`, in id order: the
   * purge's bounded pass (off the request path; FerretDB scans the collection for it, which holds
   * only pending invitations).
   */
  async pageAfter(afterId: number, limit: number): Promise<Invitation[]> {
    const found = await this.invitations.collection
      .find({ id: { $gt: afterId } }, { projection: { _id: 0 }, sort: { id: 1 }, limit })
      .toArray();
    return found.map((invitation) => storedInvitation.parse(invitation));
  }

  /**
   * Deletes an invitation read from its organization (by `_id` and organization: a primary-key
   * write that never reaches another organization's invitation), then its token entry.
   */
  async delete(invitation: Pick<Invitation, 'id' | 'organizationId' | 'tokenHash'>): Promise<boolean> {
    const _id = invitationKey(invitation.id);
    const { deletedCount } = await this.invitations.collection.deleteOne({
      _id,
      organizationId: invitation.organizationId,
    } as Filter<StoredInvitation>);
    if (deletedCount === 0) return false;
    await this.tokens.release(invitation.tokenHash, _id);
    return true;
  }
}
