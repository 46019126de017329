import type { AuthContext } from '../contract/index.js';
import { invalidInput, notFound } from '../errors/index.js';
import { ownerRuleViolation } from './owner-rules.js';
import type { SessionStore } from './session-store.js';
import type { UserRepository } from './user.repository.js';
import type { User, UserUpdate } from './user.schema.js';

export interface UserAdministrationDeps {
  users: UserRepository;
  sessions: SessionStore;
  /** Serializes the organization's user changes, so two cannot each remove "the other" last owner. */
  mutex: { withLock<T>(resource: string, work: () => Promise<T>): Promise<T> };
  customerExists(organizationId: number, customerId: number): Promise<boolean>;
  /**
   * Revokes the user's personal tokens wider than what they are now (`null`: removed, every one of
   * them); answers how many.
   */
  revokePersonalTokens(
    organizationId: number,
    userId: number,
    now: { role: User['role']; customerId: number | null } | null,
  ): Promise<number>;
}

/** Changes and deletions of an organization's users by its admins, under the owner rules. */
export class UserAdministration {
  constructor(private readonly deps: UserAdministrationDeps) {}

  private async existing(organizationId: number, id: number): Promise<User> {
    const user = await this.deps.users.findById(organizationId, id);
    if (!user) throw notFound(`No user ${id}`);
    return user;
  }

  private async checkOwnerRules(actor: AuthContext, user: User, next: User['role'] | null): Promise<void> {
    // A deactivated owner is not among the active owners counted; the rules count the target in.
    const owners =
      user.role === 'owner'
        ? (await this.deps.users.countOwners(user.organizationId)) + (user.disabledAt ? 1 : 0)
        : 0;
    const violation = ownerRuleViolation({ actor: actor.role, target: user.role, next, owners });
    if (violation) throw violation;
  }

  /** The customer a user of `role` is bound to after the change: required for a client, refused otherwise. */
  private async customerAfter(user: User, role: User['role'], changes: UserUpdate): Promise<number | null> {
    const customerId = changes.customerId === undefined ? user.customerId : changes.customerId;
    if (role !== 'client') {
      if (changes.customerId != null)
        throw invalidInput('Only a client user is bound to a customer', [
          { path: 'customerId', message: 'only for the role client' },
        ]);
      return null;
    }
    if (customerId === null)
      throw invalidInput('A client user needs a customer', [
        { path: 'customerId', message: 'Required for a client' },
      ]);
    if (!(await this.deps.customerExists(user.organizationId, customerId)))
      throw invalidInput(`No customer ${customerId}`, [
        { path: 'customerId', message: `no customer ${customerId}` },
      ]);
    return customerId;
  }

  async update(actor: AuthContext, id: number, changes: UserUpdate): Promise<User> {
    return this.deps.mutex.withLock(`users:${actor.organizationId}`, async () => {
      const user = await this.existing(actor.organizationId, id);
      const role = changes.role ?? user.role;
      await this.checkOwnerRules(actor, user, role);
      const customerId = await this.customerAfter(user, role, changes);
      const updated: User = { ...user, name: changes.name ?? user.name, role, customerId };
      await this.deps.users.update(user, { name: updated.name, role, customerId });
      if (role !== user.role || customerId !== user.customerId)
        await this.deps.revokePersonalTokens(user.organizationId, user.id, { role, customerId });
      return updated;
    });
  }

  /**
   * Deactivates the user (SCIM `active: false`): they cannot sign in, their sessions end now and
   * their personal tokens are revoked; `active` lifts it (tokens stay revoked). Under the owner
   * rules: only an owner does this to an owner, and the last active owner stays active.
   */
  async setActive(actor: AuthContext, id: number, active: boolean): Promise<User> {
    return this.deps.mutex.withLock(`users:${actor.organizationId}`, async () => {
      const user = await this.existing(actor.organizationId, id);
      if (active === !user.disabledAt) return user;
      // Owners who can still sign in: deactivating the last of them would lock the organization out.
      const owners =
        user.role === 'owner' && !active ? await this.deps.users.countOwners(user.organizationId) : 0;
      const violation = ownerRuleViolation({
        actor: actor.role,
        target: user.role,
        next: active ? user.role : null,
        owners,
      });
      if (violation) throw violation;
      const disabledAt = active ? null : new Date();
      await this.deps.users.update(user, { disabledAt });
      if (!active) {
        await this.deps.sessions.endAll(user.id);
        await this.deps.revokePersonalTokens(user.organizationId, user.id, null);
      }
      return { ...user, disabledAt };
    });
  }

  /** Deletes the user, ends their sessions and revokes their personal tokens. */
  async delete(actor: AuthContext, id: number): Promise<void> {
    await this.deps.mutex.withLock(`users:${actor.organizationId}`, async () => {
      const user = await this.existing(actor.organizationId, id);
      await this.checkOwnerRules(actor, user, null);
      await this.deps.users.delete(user);
      await this.deps.sessions.endAll(user.id);
      await this.deps.revokePersonalTokens(user.organizationId, user.id, null);
    });
  }
}
