import type { SignInMethod } from '../audit/index.js';
import { appLink } from '../config/index.js';
import { type AuthContext, type ClientInfo, type Role, scopesOfRole } from '../contract/index.js';
import { DomainError } from '../errors/index.js';
import type { Logger } from '../logging/index.js';
import type { RateLimitDecision } from '../redis/index.js';
import { KnownDevices } from './known-devices.js';
import { lockNoticeMail } from './lock-notice.js';
import { type MailSettings, mailFailureOf, type PeopleMailRoutes } from './mailer.js';
import type { PasswordHasher } from './password.js';
import type { Session, SessionStore } from './session-store.js';
import { accountBudgetKey, SIGN_IN_WINDOW_MS, type SignInBudgets } from './sign-in-budgets.js';
import { refusalText, type SignInBudget, signInGate } from './sign-in-gate.js';
import type { TwoFactor } from './two-factor.js';
import type { UserRepository } from './user.repository.js';
import type { User } from './user.schema.js';

function refused(budget: SignInBudget, decision: RateLimitDecision): DomainError {
  return new DomainError('too-many', `${refusalText(budget)} Retry in ${decision.resetSeconds} s.`, {
    retryAfterSeconds: decision.resetSeconds,
    budget,
  });
}

/** 401 for a missing or wrong second factor, with `code` saying which (the password was right). */
function secondFactorProblem(code: 'totp-required' | 'totp-invalid'): DomainError {
  return new DomainError(
    'unauthenticated',
    code === 'totp-required'
      ? 'This account signs in with two-factor: send `totp`, a current code of the authenticator app or a recovery code.'
      : 'The two-factor code is wrong, expired or already used.',
    {
      errors: [
        { path: 'totp', message: code === 'totp-required' ? 'Required' : 'wrong, expired or already used' },
      ],
      code,
    },
  );
}

const wrongPassword = () =>
  new DomainError('unauthenticated', 'The e-mail address or the password is wrong.');
/** While the account is locked: whichever of the three was wrong is not said. */
const wrongStrict = () =>
  new DomainError('unauthenticated', 'The e-mail address, the password or the two-factor code is wrong.', {
    code: 'locked-credentials-invalid',
  });

const GLOBAL_KEY = 'sign-in-failures:all';

/** 403 for a right password in an organization that signs in through its identity provider. */
const ssoRequired = () =>
  new DomainError(
    'not-allowed',
    'Your organization signs in with its identity provider: use "Sign in with …" on the sign-in page (type your e-mail to see it). If it does not work, ask your admin.',
    { code: 'sso-required' },
  );

/** 403 for a right password of a deactivated person (SCIM `active: false`): no sign-in at all. */
const deactivated = () =>
  new DomainError(
    'not-allowed',
    'Your account is deactivated by your organization (through its identity provider); ask your admin to reactivate it.',
    { code: 'account-deactivated' },
  );

export interface SignInOptions {
  /**
   * The password confirms a provider's identity for this account (the SSO link step): an
   * organization's "require SSO" does not refuse it.
   */
  linking?: boolean;
}

export interface SignInDeps {
  users: UserRepository;
  sessions: SessionStore;
  /** The process's bounded password-hash pool (503 past its queue). */
  hasher: PasswordHasher;
  budgets: SignInBudgets;
  devices: KnownDevices;
  twoFactor: TwoFactor;
  /** The roles whose users the organization requires to sign in with two-factor. */
  twoFactorRequiredFor(organizationId: number): Promise<readonly Role[]>;
  /** Whether the organization requires single sign-on, and the owners who may still use a password. */
  ssoRequirement(
    organizationId: number,
  ): Promise<{ requireSso: boolean; breakGlassUserIds: readonly number[] }>;
  /** Where the lock notice goes (SMTP_URL, else the organization's e-mail channel; neither: logged). */
  mailRoutes: PeopleMailRoutes;
  mail: MailSettings;
  log: Logger;
}

export interface SignedIn {
  sessionId: string;
  /** The browser's device id, for its cookie (the one it sent, or a new one). */
  deviceId: string;
  user: User;
  /** What proved the person; with a recovery code, how many they have left. */
  method: SignInMethod;
  recoveryCodesLeft?: number;
}

/**
 * Signing in and the sessions it opens. A wrong e-mail and a wrong password cost the same (a hash
 * is verified either way, against a dummy one for an unknown e-mail, through the same pool), are
 * counted the same (per account, per client address, service-wide) and answer the same 401.
 * Budgets are asked before the hash, so a refused try costs none (sign-in-gate.ts says which).
 */
export class SignIn {
  constructor(private readonly deps: SignInDeps) {}

  async signIn(
    credentials: { email: string; password: string; totp?: string },
    client: ClientInfo,
    deviceId?: string,
    options: SignInOptions = {},
  ): Promise<SignedIn> {
    const { budgets } = this.deps;
    // One key per budget: limiters of one prefix share a counter when their keys are equal.
    const account = accountBudgetKey(credentials.email);
    const keys = {
      account,
      accountSignIns: `successful-${account}`,
      accountLocked: `locked-${account}`,
      address: `auth-failures:${client.address}`,
      addressSignIns: `sign-ins:${client.address}`,
      device: deviceId ? KnownDevices.failureKey(deviceId) : undefined,
    };
    const [
      accountSuccesses,
      addressSuccesses,
      addressFailures,
      accountFailures,
      globalFailures,
      lockedFailures,
      device,
    ] = await Promise.all([
      budgets.accountSuccesses.peek(keys.accountSignIns),
      budgets.addressSuccesses.peek(keys.addressSignIns),
      budgets.addressFailures.peek(keys.address),
      budgets.accountFailures.peek(keys.account),
      budgets.globalFailures.peek(GLOBAL_KEY),
      budgets.lockedFailures.peek(keys.accountLocked),
      this.knownDevice(deviceId, keys.device, credentials.email),
    ]);
    const gate = signInGate({
      accountSuccessesSpent: !accountSuccesses.allowed,
      addressSuccessesSpent: !addressSuccesses.allowed,
      addressFailuresSpent: !addressFailures.allowed,
      accountFailuresSpent: !accountFailures.allowed,
      globalFailuresSpent: !globalFailures.allowed,
      lockedFailuresSpent: !lockedFailures.allowed,
      knownDevice: device,
      secondFactorGiven: credentials.totp !== undefined,
    });
    if (gate.kind === 'refuse') {
      const decisions = {
        'account-sign-ins': accountSuccesses,
        'address-sign-ins': addressSuccesses,
        'failed-sign-ins-from-address': addressFailures,
        'account-locked': accountFailures,
        'failed-sign-ins-everywhere': globalFailures,
      } satisfies Record<SignInBudget, RateLimitDecision>;
      throw refused(gate.budget, decisions[gate.budget]);
    }
    const user = await this.deps.users.findByEmail(credentials.email);
    // A passwordless account (made by SSO or SCIM) is verified as an unknown e-mail is: no password opens it.
    const matches = await this.deps.hasher.verify(credentials.password, user?.passwordHash || undefined);
    const fail = async (error: DomainError): Promise<never> => {
      const [accountFailed] = await Promise.all([
        budgets.accountFailures.consume(keys.account),
        budgets.addressFailures.consume(keys.address),
        budgets.globalFailures.consume(GLOBAL_KEY),
        keys.device ? budgets.deviceFailures.consume(keys.device) : undefined,
        gate.strict ? budgets.lockedFailures.consume(keys.accountLocked) : undefined,
      ]);
      // Exactly one failure brings the count to the limit (INCR is atomic): it tells the person, once.
      if (user && accountFailed.allowed && accountFailed.remaining === 0)
        this.tellLocked(user, client, accountFailed);
      throw error;
    };
    if (gate.strict) {
      // Locked: the password alone opens nothing, and no answer tells which factor was wrong.
      if (!user || !matches || !user.twoFactorEnabled || credentials.totp === undefined)
        return fail(wrongStrict());
      const method = await this.deps.twoFactor.verifyCode(user, credentials.totp);
      if (!method) return fail(wrongStrict());
      await this.refuseUnlessPasswordsAllowed(user, options);
      return this.succeed(user, client, deviceId, method, keys);
    }
    if (!user || !matches) return fail(wrongPassword());
    // Said only to whoever knows the password, as two-factor is.
    await this.refuseUnlessPasswordsAllowed(user, options);
    // Asked for only now: whether an account has two-factor on is told to whoever knows its password.
    if (!user.twoFactorEnabled) return this.succeed(user, client, deviceId, 'password', keys);
    if (credentials.totp === undefined) throw secondFactorProblem('totp-required');
    const method = await this.deps.twoFactor.verifyCode(user, credentials.totp);
    if (!method) return fail(secondFactorProblem('totp-invalid'));
    return this.succeed(user, client, deviceId, method, keys);
  }

  /** "Require SSO": a password signs in the organization's named break-glass owners only. */
  private async refuseUnlessPasswordsAllowed(user: User, options: SignInOptions): Promise<void> {
    if (user.disabledAt) throw deactivated();
    if (options.linking) return;
    const { requireSso, breakGlassUserIds } = await this.deps.ssoRequirement(user.organizationId);
    if (requireSso && !(user.role === 'owner' && breakGlassUserIds.includes(user.id))) throw ssoRequired();
  }

  /** A browser that signed in to this account before and has not failed too often since. */
  private async knownDevice(deviceId: string | undefined, failureKey: string | undefined, email: string) {
    const [known, failures] = await Promise.all([
      this.deps.devices.knows(deviceId, email),
      failureKey ? this.deps.budgets.deviceFailures.peek(failureKey) : undefined,
    ]);
    return known && failures?.allowed !== false;
  }

  private async succeed(
    user: User,
    client: ClientInfo,
    deviceId: string | undefined,
    method: SignInMethod,
    keys: { accountSignIns: string; addressSignIns: string },
  ): Promise<SignedIn> {
    // Counted now and held to again: of many right-password tries at once, all peeked before any counted.
    const [byAccount, byAddress] = await Promise.all([
      this.deps.budgets.accountSuccesses.consume(keys.accountSignIns),
      this.deps.budgets.addressSuccesses.consume(keys.addressSignIns),
    ]);
    if (!byAccount.allowed) throw refused('account-sign-ins', byAccount);
    if (!byAddress.allowed) throw refused('address-sign-ins', byAddress);
    const [opened, device] = await Promise.all([
      this.openSession(user, client),
      this.deps.devices.remember(deviceId, user.email),
    ]);
    const signedIn = { ...opened, deviceId: device, method };
    if (method !== 'recovery-code') return signedIn;
    const recoveryCodesLeft = Math.max(0, (user.twoFactor?.recoveryCodeHashes.length ?? 1) - 1);
    return { ...signedIn, recoveryCodesLeft };
  }

  /** Mails the lock notice in the background: the failed try's answer does not wait for it. */
  private tellLocked(user: User, client: ClientInfo, decision: RateLimitDecision): void {
    const at = new Date();
    const send = async () => {
      const mailer = await this.deps.mailRoutes.mailerFor(user.organizationId);
      if (!mailer) {
        this.deps.log.warn(
          { userId: user.id, reason: 'no SMTP_URL nor e-mail channel' },
          'account lock notice not sent',
        );
        return;
      }
      await mailer.send(
        lockNoticeMail({
          email: user.email,
          failures: decision.limit,
          windowMinutes: SIGN_IN_WINDOW_MS / 60_000,
          client,
          at,
          unlockAt: new Date(at.getTime() + decision.resetSeconds * 1000),
          resetLink: appLink(this.deps.mail, 'reset-password').toString(),
        }),
      );
      this.deps.log.info({ userId: user.id }, 'account locked after failed sign-ins; its person was told');
    };
    send().catch((error: unknown) =>
      this.deps.log.warn({ userId: user.id, ...mailFailureOf(error) }, 'account lock notice not sent'),
    );
  }

  /**
   * Opens a session for a user who proved who they are (a sign-in, an accepted invitation): held to
   * the two-factor enrolment when the organization requires it for their role and they have none.
   */
  async openSession(user: User, client: ClientInfo): Promise<{ sessionId: string; user: User }> {
    const mustEnrolTwoFactor =
      !user.twoFactorEnabled &&
      (await this.deps.twoFactorRequiredFor(user.organizationId)).includes(user.role);
    const { id } = await this.deps.sessions.create(user, client, { mustEnrolTwoFactor });
    const lastSignInAt = new Date();
    await this.deps.users.update(user, { lastSignInAt });
    return { sessionId: id, user: { ...user, lastSignInAt } };
  }

  /** The caller a session cookie stands for (used now), or null when the session or its user is gone. */
  async authenticate(sessionId: string, client: ClientInfo): Promise<AuthContext | null> {
    const found = await this.session(sessionId, client);
    if (!found) return null;
    const { session, user } = found;
    return {
      organizationId: user.organizationId,
      scopes: scopesOfRole(user.role),
      role: user.role,
      userId: user.id,
      sessionHandle: session.handle,
      ...(user.customerId !== null ? { customerId: user.customerId } : {}),
      // Lifted by the enrolment itself: the user is read again on every request.
      ...(session.mustEnrolTwoFactor && !user.twoFactorEnabled ? { mustEnrolTwoFactor: true } : {}),
    };
  }

  /** Whether a session is still going (ended, expired or its user removed: no), without using it. */
  sessionGoing(sessionId: string): Promise<boolean> {
    return this.deps.sessions.going(sessionId);
  }

  private async session(
    sessionId: string,
    client: ClientInfo,
  ): Promise<{ session: Session; user: User } | null> {
    const session = await this.deps.sessions.use(sessionId, client);
    if (!session) return null;
    const user = await this.deps.users.findById(session.organizationId, session.userId);
    // A password changed since the sign-in (reset by the CLI, which cannot reach Redis) ends it, and
    // so does a deactivation (SCIM `active: false`), whichever process made it.
    if (!user || user.passwordChangedAt > session.createdAt || user.disabledAt) {
      await this.deps.sessions.end(session.userId, session.handle);
      return null;
    }
    return { session, user };
  }
}
