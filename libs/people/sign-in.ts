import { createHash } from 'node:crypto';
import type { SignInMethod } from '../audit/index.js';
import { type AuthContext, type ClientInfo, type Role, scopesOfRole } from '../contract/index.js';
import { AppError } from '../http/index.js';
import type { RateLimitDecision, RateLimiter } from '../redis/index.js';
import { dummyPasswordHash, verifyPassword } from './password.js';
import type { Session, SessionStore } from './session-store.js';
import type { TwoFactor } from './two-factor.js';
import type { UserRepository } from './user.repository.js';
import type { User } from './user.schema.js';

/** Failed sign-ins an account may have in this window before it is throttled. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

function throttled(decision: RateLimitDecision, what: string): AppError {
  return new AppError('rate-limited', {
    detail: `${decision.limit} failed sign-ins ${what} in ${decision.windowSeconds / 60} minutes; retry in ${decision.resetSeconds} s.`,
    headers: { 'Retry-After': String(decision.resetSeconds) },
  });
}

/** 401 for a missing or wrong second factor, with `code` saying which (the password was right). */
function secondFactorProblem(code: 'totp-required' | 'totp-invalid'): AppError {
  return new AppError('unauthorized', {
    detail:
      code === 'totp-required'
        ? 'This account signs in with two-factor: send `totp`, a current code of the authenticator app or a recovery code.'
        : 'The two-factor code is wrong, expired or already used.',
    errors: [
      { path: 'totp', message: code === 'totp-required' ? 'Required' : 'wrong, expired or already used' },
    ],
    extensions: { code },
  });
}

/** Counted per account by a hash of the e-mail (no address in Redis keys), known or not. */
const accountKey = (email: string) => `sign-in:${createHash('sha256').update(email).digest('hex')}`;

/**
 * Signing in and the sessions it opens. A wrong e-mail and a wrong password cost the same (a hash
 * is verified either way, against a dummy one for an unknown e-mail), are counted the same (per
 * account and per client address) and answer the same 401.
 */
export class SignIn {
  constructor(
    private readonly deps: {
      users: UserRepository;
      sessions: SessionStore;
      /** Failed sign-ins per account (e-mail): `SIGN_IN_FAILURES_PER_ACCOUNT` per 15 minutes. */
      accountFailures: RateLimiter;
      /** The access guard's failed authentications per client address. */
      addressFailures: RateLimiter;
      twoFactor: TwoFactor;
      /** The roles whose users the organization requires to sign in with two-factor. */
      twoFactorRequiredFor(organizationId: number): Promise<readonly Role[]>;
    },
  ) {}

  async signIn(
    credentials: { email: string; password: string; totp?: string },
    client: ClientInfo,
  ): Promise<{
    sessionId: string;
    user: User;
    /** What proved the person; with a recovery code, how many they have left. */
    method: SignInMethod;
    recoveryCodesLeft?: number;
  }> {
    const account = accountKey(credentials.email);
    const address = `auth-failures:${client.address}`;
    const [byAccount, byAddress] = await Promise.all([
      this.deps.accountFailures.peek(account),
      this.deps.addressFailures.peek(address),
    ]);
    if (!byAccount.allowed) throw throttled(byAccount, 'for this account');
    if (!byAddress.allowed) throw throttled(byAddress, 'from this address');
    const user = await this.deps.users.findByEmail(credentials.email);
    const matches = await verifyPassword(
      credentials.password,
      user?.passwordHash ?? (await dummyPasswordHash()),
    );
    const fail = async (error: AppError): Promise<never> => {
      await Promise.all([
        this.deps.accountFailures.consume(account),
        this.deps.addressFailures.consume(address),
      ]);
      throw error;
    };
    if (!user || !matches)
      return fail(new AppError('unauthorized', { detail: 'The e-mail address or the password is wrong.' }));
    // Asked for only now: whether an account has two-factor on is told to whoever knows its password.
    if (!user.twoFactorEnabled) return { ...(await this.openSession(user, client)), method: 'password' };
    if (credentials.totp === undefined) throw secondFactorProblem('totp-required');
    const method = await this.deps.twoFactor.verifyCode(user, credentials.totp);
    if (!method) return fail(secondFactorProblem('totp-invalid'));
    const opened = await this.openSession(user, client);
    if (method === 'totp') return { ...opened, method };
    const recoveryCodesLeft = Math.max(0, (user.twoFactor?.recoveryCodeHashes.length ?? 1) - 1);
    return { ...opened, method, recoveryCodesLeft };
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

  private async session(
    sessionId: string,
    client: ClientInfo,
  ): Promise<{ session: Session; user: User } | null> {
    const session = await this.deps.sessions.use(sessionId, client);
    if (!session) return null;
    const user = await this.deps.users.findById(session.organizationId, session.userId);
    // A password changed since the sign-in (reset by the CLI, which cannot reach Redis) ends it.
    if (!user || user.passwordChangedAt > session.createdAt) {
      await this.deps.sessions.end(session.userId, session.handle);
      return null;
    }
    return { session, user };
  }
}
