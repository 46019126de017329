import { DomainError, invalidInput } from '../errors/index.js';
import type { RateLimiter } from '../redis/index.js';
import type { PasswordHasher } from './password.js';
import { checkNewPassword } from './password-policy.js';
import type { SessionStore } from './session-store.js';
import { accountBudgetKey } from './sign-in-budgets.js';
import type { UserRepository } from './user.repository.js';
import type { User } from './user.schema.js';

export interface AccountPasswordDeps {
  users: UserRepository;
  hasher: PasswordHasher;
  sessions: SessionStore;
  /** The organization's name: a password must not contain it. */
  organizationName(organizationId: number): Promise<string | null>;
  /** Failed sign-ins per account: a wrong current password counts as one. */
  accountFailures: RateLimiter;
}

/** Setting a person's password wherever it happens in the API: the policy, the hash pool, the sessions. */
export class AccountPasswords {
  constructor(private readonly deps: AccountPasswordDeps) {}

  /** The policy for this person (their e-mail, their organization's name): 400 naming `field` when refused. */
  async check(
    password: string,
    person: { email: string; organizationId: number },
    field = 'password',
  ): Promise<void> {
    const organizationName = (await this.deps.organizationName(person.organizationId)) ?? undefined;
    checkNewPassword(password, { email: person.email, organizationName }, field);
  }

  hash(password: string): Promise<string> {
    return this.deps.hasher.hash(password);
  }

  /** Sets a password the caller has checked and ends every session of the user (sign in again). */
  async set(user: User, password: string): Promise<void> {
    await this.deps.users.update(user, {
      passwordHash: await this.hash(password),
      passwordChangedAt: new Date(),
    });
    await this.deps.sessions.endAll(user.id);
  }

  /**
   * The signed-in person's own change: the current password is verified first (a wrong one counts
   * as a failed sign-in of the account, so a stolen session cannot guess it), then the new one is
   * held to the policy. Every session ends; the caller opens a new one for this browser.
   */
  async change(user: User, current: string, next: string): Promise<void> {
    const key = accountBudgetKey(user.email);
    const decision = await this.deps.accountFailures.peek(key);
    if (!decision.allowed)
      throw new DomainError(
        'too-many',
        `Too many wrong passwords for this account; retry in ${decision.resetSeconds} s.`,
        { retryAfterSeconds: decision.resetSeconds },
      );
    if (!(await this.deps.hasher.verify(current, user.passwordHash))) {
      await this.deps.accountFailures.consume(key);
      throw invalidInput('The current password is wrong.', [{ path: 'currentPassword', message: 'wrong' }]);
    }
    await this.check(next, user, 'newPassword');
    await this.set(user, next);
  }
}
