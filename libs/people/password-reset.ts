import { z } from 'zod';
import type { MailBudget } from '../fair-share/index.js';
import type { Logger } from '../logging/index.js';
import type { RateLimiter, Redis } from '../redis/index.js';
import type { AccountPasswords } from './account-passwords.js';
import { unusableToken } from './invitations.js';
import {
  linkWithToken,
  type MailSettings,
  mailFailureOf,
  type PeopleMailRoutes,
  requireMailRoutes,
} from './mailer.js';
import { hashOfToken, newOneTimeToken } from './one-time-token.js';
import type { UserRepository } from './user.repository.js';

/** How long a password-reset link works. */
export const PASSWORD_RESET_TTL_MS = 3600_000;

/** Reset mails one user may be sent an hour: anyone may ask, and must not fill a person's inbox. */
export const PASSWORD_RESET_MAILS_PER_HOUR = 3;

export interface PasswordResetDeps {
  users: UserRepository;
  /** The password policy, the hash pool, and the sessions a new password ends. */
  passwords: Pick<AccountPasswords, 'check' | 'set'>;
  redis: Redis;
  /** REDIS_KEY_PREFIX. */
  prefix: string;
  /**
   * SMTP_URL, else the user's organization's e-mail channel. Without SMTP_URL nor channels read,
   * asking answers 503 (whatever the e-mail); an organization without a channel is told by the log.
   */
  mailRoutes: PeopleMailRoutes;
  mail: MailSettings;
  /** Reset mails per user: PASSWORD_RESET_MAILS_PER_HOUR an hour; past it asking sends nothing (still 202). */
  mailsPerUser: RateLimiter;
  /** The organization's and the address's mail budgets: past either nothing is sent (still 202, logged). */
  mailBudget: Pick<MailBudget, 'take'>;
}

/** A reset asked for, as stored: whose, and when (a password changed since makes the link void). */
const pendingReset = z.object({
  organizationId: z.number().int().min(1),
  userId: z.number().int().min(1),
  askedAt: z.number().int(),
});
type PendingReset = z.infer<typeof pendingReset>;

/**
 * Password reset by e-mail. A pending reset is a Redis key under the token's SHA-256 that expires
 * with the link and is read and deleted at once (GETDEL) when used: single use, one key (cluster-safe).
 */
export class PasswordReset {
  constructor(private readonly deps: PasswordResetDeps) {}

  private key(tokenHash: string): string {
    return `${this.deps.prefix}:password-reset:${tokenHash}`;
  }

  /**
   * Mails a reset link if the e-mail is a user's. Nothing of it is awaited by the caller, so a known
   * and an unknown e-mail answer in the same time; a failure is logged (without the address or token).
   */
  async request(email: string, log: Logger): Promise<void> {
    await requireMailRoutes(this.deps.mailRoutes, 'Password resets');
    this.send(email, log).catch((error: unknown) =>
      log.warn(
        { reason: 'finding the user or sending the mail failed', ...mailFailureOf(error) },
        'password reset e-mail not sent',
      ),
    );
  }

  private async send(email: string, log: Logger): Promise<void> {
    const user = await this.deps.users.findByEmail(email);
    if (!user) return;
    // A person made by single sign-on or SCIM has no password, and a reset must not give them one
    // (it would outlive their provider's say); a deactivated person gets none either. Answered as
    // an unknown address is: whether the account exists, and how it signs in, is not said.
    if (user.passwordHash === '' || user.disabledAt) {
      log.info(
        { organizationId: user.organizationId, userId: user.id },
        'password reset not sent: the account signs in through its identity provider, or is deactivated',
      );
      return;
    }
    const mailer = await this.deps.mailRoutes.mailerFor(user.organizationId);
    if (!mailer) {
      log.warn(
        {
          organizationId: user.organizationId,
          reason: 'no SMTP_URL, and the organization has no enabled e-mail channel not bound to a customer',
        },
        'password reset e-mail not sent',
      );
      return;
    }
    if (!(await this.deps.mailsPerUser.consume(`password-reset-mails:${user.id}`)).allowed) return;
    await this.deps.mailBudget.take(user.organizationId, [user.email], 'password reset');
    const { token, hash } = newOneTimeToken();
    const pending: PendingReset = {
      organizationId: user.organizationId,
      userId: user.id,
      askedAt: Date.now(),
    };
    await this.deps.redis.set(this.key(hash), JSON.stringify(pending), 'PX', PASSWORD_RESET_TTL_MS);
    await mailer.send({
      to: user.email,
      subject: '[webmon] Reset your password',
      text: `Someone (you, we hope) asked to reset your webmon password.\n\nChoose a new one here (the link works once, for an hour; every session of yours ends):\n${linkWithToken(this.deps.mail, 'reset-password', token)}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
    });
  }

  /** Sets the password of the link's user and ends every session of theirs. */
  async confirm(request: { token: string; password: string }): Promise<void> {
    const key = this.key(hashOfToken(request.token));
    const stored = await this.deps.redis.get(key);
    if (!stored) throw unusableToken();
    const pending = pendingReset.parse(JSON.parse(stored));
    const user = await this.deps.users.findById(pending.organizationId, pending.userId);
    // A link asked for before the password last changed is void: that change may have been the reset.
    if (!user || user.passwordChangedAt.getTime() > pending.askedAt || user.disabledAt) throw unusableToken();
    // Checked before the token is used up, so a refused password leaves the link working.
    await this.deps.passwords.check(request.password, user);
    // Used up only now, at once (GETDEL): of two confirmations racing, one finds it gone.
    if (!(await this.deps.redis.getdel(key))) throw unusableToken();
    await this.deps.passwords.set(user, request.password);
  }
}
