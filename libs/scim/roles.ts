import type { AuthContext } from '../contract/index.js';
import { conflict, DomainError } from '../errors/index.js';
import type { User, UserAdministration, UserRepository } from '../people/index.js';
import { type MappedRole, type RoleMappingRule, resolveRole, type SsoIdentity } from '../sso/index.js';
import type { ScimGroup, ScimStore } from './scim-store.js';
import type { ScimToken } from './scim-token.schema.js';

/** What SCIM's users and groups are built on: webmon's people, under their owner rules. */
export interface ProvisioningDeps {
  users: Pick<UserRepository, 'findById' | 'findByEmail' | 'list' | 'create' | 'update'>;
  administration: Pick<UserAdministration, 'update' | 'delete' | 'setActive'>;
  store: ScimStore;
  /** Serializes an organization's SCIM writes (a group's members read, changed and written). */
  mutex: { withLock<T>(resource: string, work: () => Promise<T>): Promise<T> };
  customerExists(organizationId: number, customerId: number): Promise<boolean>;
  /**
   * The mapping of the identity provider a token names (null: the provider is gone): the people it
   * provisions get the roles signing in through that provider would give them.
   */
  providerMapping(organizationId: number, providerId: number): Promise<ProviderMapping | null>;
  /** Links a provider's person to a user, so signing in through the provider finds the same person. */
  linkIdentity(providerId: number, subject: string, organizationId: number, userId: number): Promise<void>;
}

/**
 * A SCIM client: its token, and the base URL its resources' locations are under. Its `grant` is
 * its maker's authority now (the gate reads the maker at each call), not when it was made.
 */
export interface ScimCaller {
  token: ScimToken;
  base: string;
}

/** A role decided anew for a person whose groups changed, as the audit log records it. */
export interface RoleChange {
  userId: number;
  from: MappedRole;
  to: MappedRole;
  outcome: 'changed' | 'refused';
  /** Why it was refused: the owner rules, or the mapping's own refusal. */
  reason?: string;
}

/** The caller the users API's owner rules judge a SCIM token as: its maker's authority now (the caller's `grant`). */
export function actorOf(token: ScimToken): AuthContext {
  return { organizationId: token.organizationId, scopes: ['admin'], role: token.grant, tokenId: token.id };
}

/** Why a token's maker no longer lends it authority, as the audit log records it. */
export type MakerRefusal = 'maker-gone' | 'maker-deactivated' | 'maker-not-admin';

/**
 * What a token may do now: the lesser of its grant and its maker's role today (an owner's token
 * acts as admin once its maker is an admin); nothing once the maker is gone, deactivated or
 * neither owner nor admin. A token answers for a person, so it never outlasts their authority.
 */
export function currentGrant(
  grant: ScimToken['grant'],
  maker: Pick<User, 'role' | 'disabledAt'> | null,
): { grant: ScimToken['grant'] } | { refused: MakerRefusal } {
  if (!maker) return { refused: 'maker-gone' };
  if (maker.disabledAt) return { refused: 'maker-deactivated' };
  if (maker.role !== 'owner' && maker.role !== 'admin') return { refused: 'maker-not-admin' };
  return { grant: grant === 'owner' && maker.role === 'owner' ? 'owner' : 'admin' };
}

export const lockOf = (token: ScimToken) => `scim:${token.organizationId}`;

/**
 * What an identity provider says of roles: its rules, its default role, the customer whose own it
 * is, and the e-mail domains it may sign people in for.
 */
export interface ProviderMapping {
  roleMapping: readonly RoleMappingRule[];
  defaultRole: { role: MappedRole['role']; customerId?: number } | null;
  customerId: number | null;
  allowedDomains: readonly string[];
}

/**
 * The rules a token's people are mapped by: its identity provider's, else its own. With a
 * customer's own provider (`customerId`), the token reaches that customer's client users only,
 * and makes people of the provider's `allowedDomains` only.
 */
export interface RoleSource {
  rules: readonly RoleMappingRule[];
  defaultRole: MappedRole | null;
  customerId: number | null;
  allowedDomains: readonly string[] | null;
}

/** Whether a token of this source may see and change this person: anyone, or its customer's clients. */
export function inScope(source: RoleSource, user: Pick<User, 'role' | 'customerId'>): boolean {
  return source.customerId === null || (user.role === 'client' && user.customerId === source.customerId);
}

/** The groups a token of this source sees: its customer's, or the organization's own (no customer). */
export function groupsInScope(groups: readonly ScimGroup[], source: RoleSource): ScimGroup[] {
  return groups.filter((group) => (group.customerId ?? null) === source.customerId);
}

/**
 * The token's own mapping, or its identity provider's alone, as signing in through the provider
 * applies it (its default role too, none refusing whom no rule maps: SCIM and SSO give one role).
 */
export async function roleSourceOf(deps: ProvisioningDeps, token: ScimToken): Promise<RoleSource> {
  if (token.identityProviderId === null)
    return {
      rules: token.roleMapping,
      defaultRole: token.defaultRole,
      customerId: null,
      allowedDomains: null,
    };
  const provider = await deps.providerMapping(token.organizationId, token.identityProviderId);
  if (!provider)
    throw conflict(
      `The SCIM token's identity provider ${token.identityProviderId} is gone; ask your webmon admin for a new SCIM token.`,
    );
  return {
    rules: provider.roleMapping,
    defaultRole: provider.defaultRole
      ? { role: provider.defaultRole.role, customerId: provider.defaultRole.customerId ?? null }
      : null,
    customerId: provider.customerId,
    allowedDomains: provider.customerId === null ? null : provider.allowedDomains,
  };
}

/** A person as role mapping reads them: their groups by displayName and by the client's externalId. */
export function identityOf(
  user: Pick<User, 'id' | 'email' | 'name'>,
  groups: readonly ScimGroup[],
): SsoIdentity {
  const names = groups
    .filter((group) => group.members.includes(user.id))
    .flatMap((group) => (group.externalId ? [group.displayName, group.externalId] : [group.displayName]));
  return {
    subject: String(user.id),
    email: user.email,
    name: user.name,
    groups: [...new Set(names)],
    claims: {},
  };
}

/** The role the mapping gives a person in these groups; a refusal says why. */
export function decideRole(source: RoleSource, identity: SsoIdentity) {
  return resolveRole(source.rules, identity, {
    defaultRole: source.defaultRole,
    customerId: source.customerId,
  });
}

const same = (a: MappedRole, b: MappedRole) => a.role === b.role && a.customerId === b.customerId;

/**
 * Decides again the role of each person whose groups changed (the groups as they are now) and
 * makes each change through the users API's rules: a change those rules refuse (an admin's token
 * making or unmaking an owner, the last owner) is left undone and reported, so one person cannot
 * hold up the group change the identity provider made.
 */
export async function reevaluateRoles(
  deps: ProvisioningDeps,
  token: ScimToken,
  userIds: Iterable<number>,
): Promise<RoleChange[]> {
  const source = await roleSourceOf(deps, token);
  const groups = groupsInScope(await deps.store.groupsOf(token.organizationId), source);
  const changes: RoleChange[] = [];
  for (const userId of new Set(userIds)) {
    const user = await deps.users.findById(token.organizationId, userId);
    // A customer's token never decides staff roles, even of a member who became staff since.
    if (!user || !inScope(source, user)) continue;
    const from = { role: user.role, customerId: user.customerId };
    const decision = decideRole(source, identityOf(user, groups));
    if (decision.outcome === 'refused') {
      changes.push({ userId, from, to: from, outcome: 'refused', reason: decision.reason });
      continue;
    }
    const to = { role: decision.role, customerId: decision.customerId };
    if (same(from, to)) continue;
    try {
      await deps.administration.update(actorOf(token), userId, to);
      changes.push({ userId, from, to, outcome: 'changed' });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      changes.push({ userId, from, to, outcome: 'refused', reason: error.detail });
    }
  }
  return changes;
}
