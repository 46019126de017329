import type { NewAuditEvent } from '../audit/index.js';
import type { ClientInfo } from '../contract/index.js';
import { KeyTakenError } from '../db/index.js';
import type { User, UserRepository } from '../people/index.js';
import type { PendingLink, PendingLinks } from './flow-store.js';
import type { IdentityProviderRepository } from './identity-provider.repository.js';
import type { IdentityProvider } from './identity-provider.schema.js';
import { type MappedRole, resolveRole, type SsoIdentity } from './role-mapping.js';

/**
 * Why a single sign-on was refused: a short code the sign-in page turns into a sentence (what to
 * ask one's admin), kept in the audit log.
 */
export const SSO_REFUSALS = [
  'provider-unknown',
  'provider-disabled',
  'provider-unreachable',
  'provider-error',
  'sign-in-cancelled',
  'sign-in-expired',
  'token-invalid',
  'assertion-invalid',
  /** A SAML assertion presented before (a captured response posted again). */
  'assertion-replayed',
  /** A SAML assertion answering no request of ours, at a provider that does not allow that. */
  'idp-initiated-not-allowed',
  'email-missing',
  'email-domain-not-allowed',
  'email-taken',
  /** A passwordless account another provider holds: linking it by e-mail alone would hand it over. */
  'account-linked-elsewhere',
  /** A customer's own provider signs in that customer's clients only, never a staff account. */
  'not-this-customers-account',
  'no-role',
  'ambiguous-customer',
  'account-disabled',
  'link-expired',
] as const;
export type SsoRefusalReason = (typeof SSO_REFUSALS)[number];

export type SsoOutcome =
  | { outcome: 'signed-in'; sessionId: string; user: User }
  /** The e-mail is a password account's: its person confirms with their password (`linkToken`). */
  | { outcome: 'link-required'; linkToken: string }
  /** `providerId`: the provider the refused sign-in was with, so the sign-in page can offer it again. */
  | { outcome: 'refused'; reason: SsoRefusalReason; providerId: number | null };

/** The request a sign-in came with, for the session and the audit log. */
export interface SsoAttempt {
  client: ClientInfo;
  requestId: string;
  /** The HTTP method and route pattern (`GET /api/auth/sso/:providerId/callback`). */
  method: string;
  route: string;
  /** Where the app goes once signed in (kept with a pending link). */
  next: string;
}

export interface SsoSignInDeps {
  users: UserRepository;
  providers: IdentityProviderRepository;
  pendingLinks: PendingLinks;
  /** Opens a session as a password sign-in does (SignIn.openSession). */
  openSession(user: User, client: ClientInfo): Promise<{ sessionId: string; user: User }>;
  /** Serializes an organization's user changes (the owner rules' lock). */
  mutex: { withLock<T>(resource: string, work: () => Promise<T>): Promise<T> };
  customerExists(organizationId: number, customerId: number): Promise<boolean>;
  /** Revokes the user's personal tokens wider than the role they have now. */
  revokePersonalTokens(organizationId: number, userId: number, now: MappedRole): Promise<number>;
  audit(event: NewAuditEvent): Promise<void>;
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/**
 * Who a provider's verified identity is here, and their session: the one completion every
 * protocol (OIDC's callback, SAML's ACS) ends in. Decides, in order: the provider is on, the
 * e-mail is of an allowed domain, the rules give a role (anew at every sign-in), the person is
 * the user linked to this provider's subject, or else a passwordless account of the organization
 * with that e-mail, or else a new one (just in time) — never a password account by e-mail alone:
 * that needs its person's password once (`confirmLink`). A deactivated user is refused. Every
 * sign-in, refusal (with its reason) and role change goes to the audit log.
 */
export class SsoSignIn {
  constructor(private readonly deps: SsoSignInDeps) {}

  async complete(
    provider: IdentityProvider,
    identity: SsoIdentity,
    attempt: SsoAttempt,
  ): Promise<SsoOutcome> {
    const refuse = (reason: SsoRefusalReason) => this.refuse(provider, reason, attempt, identity.email);
    if (!provider.enabled) return refuse('provider-disabled');
    const decision = await this.decide(provider, identity);
    if ('reason' in decision) return refuse(decision.reason);
    const email = identity.email as string;
    const linked = await this.linkedUser(provider, identity.subject);
    if (linked) return this.finish(provider, identity, linked, decision, attempt, 'linked');
    const existing = await this.deps.users.findByEmail(email);
    if (existing && existing.organizationId !== provider.organizationId) return refuse('email-taken');
    // A passwordless account another provider holds is not handed over by an e-mail alone (one this
    // provider's SCIM made, or nobody's yet, is; a password account is linked once its person
    // confirms with the password, below).
    if (existing?.passwordHash === '' && existing.identities?.some((held) => held.providerId !== provider.id))
      return refuse('account-linked-elsewhere');
    if (existing && existing.passwordHash !== '') {
      const linkToken = await this.deps.pendingLinks.hold({
        providerId: provider.id,
        organizationId: provider.organizationId,
        userId: existing.id,
        subject: identity.subject,
        email,
        name: identity.name,
        groups: [...identity.groups],
        claims: { ...identity.claims },
        next: attempt.next,
      });
      await this.record(provider, attempt, {
        outcome: 'failed',
        status: 409,
        email,
        changes: [{ path: 'link', new: 'asked to confirm with the account’s password' }],
      });
      return { outcome: 'link-required', linkToken };
    }
    const user = existing ?? (await this.createUser(provider, identity, decision));
    if (!user) return refuse('email-taken');
    return this.finish(
      provider,
      identity,
      user,
      decision,
      attempt,
      existing ? 'linked-passwordless' : 'created',
    );
  }

  /**
   * The person of a password account confirmed (signed in with its password) that a provider's
   * identity held by `token` is them: linked, their role applied; no session is opened here (the
   * password sign-in opened it).
   */
  async confirmLink(token: string, user: User, attempt: SsoAttempt): Promise<SsoOutcome> {
    const pending = await this.deps.pendingLinks.take(token);
    if (!pending || pending.userId !== user.id || pending.organizationId !== user.organizationId)
      return this.refuse(null, 'link-expired', attempt, user.email, user.organizationId);
    const provider = await this.deps.providers.findById(pending.organizationId, pending.providerId);
    if (!provider) return this.refuse(null, 'provider-unknown', attempt, user.email, user.organizationId);
    const identity = identityOfPending(pending);
    if (!provider.enabled) return this.refuse(provider, 'provider-disabled', attempt, user.email);
    const decision = await this.decide(provider, identity);
    if ('reason' in decision) return this.refuse(provider, decision.reason, attempt, user.email);
    return this.finish(provider, identity, user, decision, attempt, 'confirmed', false);
  }

  /** What the pending link names (the page asks that account's password). */
  pendingLink(token: string): Promise<PendingLink | null> {
    return this.deps.pendingLinks.peek(token);
  }

  /** Records a refusal (a protocol's too: a bad token, a replayed state) and answers it. */
  async refuse(
    provider: IdentityProvider | null,
    reason: SsoRefusalReason,
    attempt: SsoAttempt,
    email: string | null = null,
    organizationId = provider?.organizationId ?? 0,
  ): Promise<SsoOutcome> {
    await this.record(provider, attempt, {
      outcome: 'failed',
      status: 403,
      email,
      organizationId,
      changes: [{ path: 'refusal', new: reason }],
    });
    return { outcome: 'refused', reason, providerId: provider?.id ?? null };
  }

  private async decide(
    provider: IdentityProvider,
    identity: SsoIdentity,
  ): Promise<MappedRole | { reason: SsoRefusalReason }> {
    if (!identity.email) return { reason: 'email-missing' };
    if (!provider.allowedDomains.includes(domainOf(identity.email)))
      return { reason: 'email-domain-not-allowed' };
    const decision = resolveRole(provider.roleMapping, identity, {
      customerId: provider.customerId,
      defaultRole: provider.defaultRole && {
        role: provider.defaultRole.role,
        customerId: provider.defaultRole.customerId ?? null,
      },
    });
    if (decision.outcome === 'refused')
      return { reason: decision.reason === 'ambiguous-customer' ? 'ambiguous-customer' : 'no-role' };
    // A rule may name a customer deleted since: nobody is made a client of nothing.
    if (
      decision.customerId !== null &&
      !(await this.deps.customerExists(provider.organizationId, decision.customerId))
    )
      return { reason: 'no-role' };
    return { role: decision.role, customerId: decision.customerId };
  }

  /** The user this provider's subject was linked to, if they still hold the link. */
  private async linkedUser(provider: IdentityProvider, subject: string): Promise<User | null> {
    const link = await this.deps.providers.linkedUser(provider.id, subject);
    if (!link || link.organizationId !== provider.organizationId) return null;
    const user = await this.deps.users.findById(link.organizationId, link.userId);
    const holds = user?.identities?.some(
      (held) => held.providerId === provider.id && held.subject === subject,
    );
    return holds ? user : null;
  }

  /** A just-in-time account: no password, the role the rules gave. Null when the e-mail was taken meanwhile. */
  private async createUser(
    provider: IdentityProvider,
    identity: SsoIdentity,
    role: MappedRole,
  ): Promise<User | null> {
    const email = identity.email as string;
    try {
      return await this.deps.users.create(
        {
          organizationId: provider.organizationId,
          email,
          name: (identity.name ?? email.slice(0, email.indexOf('@'))).slice(0, 100) || email,
          role: role.role,
          customerId: role.customerId,
        },
        '',
      );
    } catch (error) {
      if (error instanceof KeyTakenError) return null;
      throw error;
    }
  }

  private async finish(
    provider: IdentityProvider,
    identity: SsoIdentity,
    found: User,
    role: MappedRole,
    attempt: SsoAttempt,
    how: 'linked' | 'linked-passwordless' | 'created' | 'confirmed',
    openSession = true,
  ): Promise<SsoOutcome> {
    if (found.disabledAt) return this.refuse(provider, 'account-disabled', attempt, found.email);
    // A client's Okta answers for that customer's people: a staff account (an owner too) it may
    // name is not theirs to sign in, nor to turn into a client.
    if (
      provider.customerId !== null &&
      how !== 'created' &&
      !(found.role === 'client' && found.customerId === provider.customerId)
    )
      return this.refuse(provider, 'not-this-customers-account', attempt, found.email);
    const user = await this.applyRole(provider, found, role, attempt);
    if (
      !user.identities?.some((held) => held.providerId === provider.id && held.subject === identity.subject)
    ) {
      const identities = [
        ...(user.identities ?? []).filter((held) => held.providerId !== provider.id),
        { providerId: provider.id, subject: identity.subject, linkedAt: new Date() },
      ];
      await this.deps.providers.link(provider.id, identity.subject, user.organizationId, user.id);
      await this.deps.users.update(user, { identities });
    }
    const opened = openSession ? await this.deps.openSession(user, attempt.client) : null;
    await this.record(provider, attempt, {
      outcome: 'succeeded',
      status: 302,
      email: user.email,
      userId: user.id,
      role: user.role,
      changes: how === 'linked' ? [] : [{ path: 'account', new: how }],
    });
    return { outcome: 'signed-in', sessionId: opened?.sessionId ?? '', user: opened?.user ?? user };
  }

  /**
   * The role the rules give now, written when it changed (under the organization's user lock,
   * personal tokens wider than it revoked) and audited. The organization's last owner keeps the
   * role: a provider's group change never leaves an organization without an owner.
   */
  private async applyRole(
    provider: IdentityProvider,
    user: User,
    role: MappedRole,
    attempt: SsoAttempt,
  ): Promise<User> {
    if (user.role === role.role && user.customerId === role.customerId) return user;
    return this.deps.mutex.withLock(`users:${user.organizationId}`, async () => {
      if (
        user.role === 'owner' &&
        role.role !== 'owner' &&
        (await this.deps.users.countOwners(user.organizationId)) <= 1
      )
        return user;
      await this.deps.users.update(user, { role: role.role, customerId: role.customerId });
      await this.deps.revokePersonalTokens(user.organizationId, user.id, role);
      await this.record(provider, attempt, {
        outcome: 'succeeded',
        status: 200,
        action: 'changeUserRoleBySso',
        resource: 'users',
        resourceId: String(user.id),
        email: user.email,
        userId: user.id,
        role: role.role,
        changes: [
          { path: 'role', old: user.role, new: role.role },
          { path: 'customerId', old: user.customerId, new: role.customerId },
        ],
      });
      return { ...user, ...role };
    });
  }

  private async record(
    provider: IdentityProvider | null,
    attempt: SsoAttempt,
    event: {
      outcome: 'succeeded' | 'failed';
      status: number;
      email: string | null;
      changes: NewAuditEvent['changes'];
      organizationId?: number;
      userId?: number;
      role?: string;
      action?: string;
      resource?: string;
      resourceId?: string;
    },
  ): Promise<void> {
    await this.deps.audit({
      organizationId: event.organizationId ?? provider?.organizationId ?? 0,
      at: new Date(),
      actor:
        event.userId === undefined
          ? { type: 'anonymous', id: null }
          : { type: 'user', id: event.userId, ...(event.role ? { role: event.role } : {}) },
      action: event.action ?? 'ssoSignIn',
      method: attempt.method,
      route: attempt.route,
      resource: event.resource ?? 'identity-providers',
      resourceId: event.resourceId ?? (provider ? String(provider.id) : null),
      outcome: event.outcome,
      status: event.status,
      address: attempt.client.address,
      requestId: attempt.requestId,
      changes: event.changes,
      ...(event.email ? { subject: { email: event.email.slice(0, 320) } } : {}),
    });
  }
}

function identityOfPending(pending: PendingLink): SsoIdentity {
  return {
    subject: pending.subject,
    email: pending.email,
    name: pending.name,
    groups: pending.groups,
    claims: pending.claims,
  };
}
