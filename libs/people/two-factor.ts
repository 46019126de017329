import { createHash, randomBytes } from 'node:crypto';
import { conflict, DomainError, invalidInput } from '../errors/index.js';
import type { RateLimiter } from '../redis/index.js';
import type { SecretBox } from '../secrets/index.js';
import { base32Decode, base32Encode, generateTotpSecret, matchingTotpStep, otpauthUrl } from './totp.js';
import type { TwoFactorRepository } from './two-factor.repository.js';
import { totpSecretContext } from './two-factor.schema.js';
import type { User } from './user.schema.js';

const RECOVERY_CODES = 10;
const TOTP_CODE = /^\d{6}$/;
const RECOVERY_CODE = /^[A-Z2-7]{16}$/;
/** The name authenticator apps show beside the account. */
const ISSUER = 'webmon';

/** `abcd-efgh-ijkl-mnop`: 10 random bytes (80 bits) in base32, grouped to be copied by hand. */
function newRecoveryCode(): string {
  return (base32Encode(randomBytes(10)).toLowerCase().match(/.{4}/g) as string[]).join('-');
}

const normalizeRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

/**
 * A fast hash suffices (unlike for passwords): a recovery code has 80 random bits, too many to
 * guess from its hash.
 */
const recoveryCodeHash = (normalized: string) => createHash('sha256').update(normalized).digest('hex');

const wrongCode = () =>
  invalidInput('The code is wrong, expired or already used', [
    { path: 'code', message: 'not a current code of the authenticator app' },
  ]);

/** TOTP enrolment, its confirmation and removal, and checking a second factor at sign-in. */
export class TwoFactor {
  constructor(
    private readonly deps: {
      repository: TwoFactorRepository;
      secrets: SecretBox;
      /**
       * Wrong codes per account when confirming or turning two-factor off, as failed sign-ins are
       * counted (`SIGN_IN_FAILURES_PER_ACCOUNT` per 15 minutes): a stolen session cannot guess codes.
       */
      codeFailures: RateLimiter;
    },
  ) {}

  /**
   * Runs `check` of a code unless the account is throttled (429), answering what it found; a wrong
   * code (null) counts and is 400.
   */
  private async throttledCheck<T>(user: User, check: () => Promise<T | null> | T | null): Promise<T> {
    const key = `two-factor-codes:${user.id}`;
    const decision = await this.deps.codeFailures.peek(key);
    if (!decision.allowed)
      throw new DomainError(
        'too-many',
        `${decision.limit} wrong two-factor codes for this account in ${decision.windowSeconds / 60} minutes; retry in ${decision.resetSeconds} s.`,
        { retryAfterSeconds: decision.resetSeconds },
      );
    const found = await check();
    if (found !== null) return found;
    await this.deps.codeFailures.consume(key);
    throw wrongCode();
  }

  private secretOf(user: User): Buffer | null {
    if (!user.twoFactor) return null;
    return base32Decode(this.deps.secrets.open(user.twoFactor.secret, totpSecretContext(user.id)));
  }

  /** A new secret, pending until confirmed with a code (it replaces a pending one). */
  async start(user: User): Promise<{ secret: string; otpauthUrl: string }> {
    const secret = generateTotpSecret();
    const sealed = this.deps.secrets.seal(secret, totpSecretContext(user.id));
    if (!(await this.deps.repository.startEnrolment(user, sealed)))
      throw conflict('Two-factor sign-in is already on; turn it off first to enrol another app.');
    return { secret, otpauthUrl: otpauthUrl({ issuer: ISSUER, account: user.email, secret }) };
  }

  /** Turns the pending enrolment on with a current code; answers the recovery codes, once. */
  async confirm(user: User, code: string): Promise<string[]> {
    const secret = this.secretOf(user);
    if (!secret || !user.twoFactor || user.twoFactorEnabled)
      throw conflict(
        user.twoFactorEnabled
          ? 'Two-factor sign-in is already on.'
          : 'No enrolment to confirm: start one with POST /api/me/two-factor.',
      );
    const lastStep = user.twoFactor.lastStep;
    const step = await this.throttledCheck(user, () => matchingTotpStep(secret, code, Date.now(), lastStep));
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    const recoveryCodeHashes = codes.map((shown) => recoveryCodeHash(normalizeRecoveryCode(shown)));
    if (!(await this.deps.repository.enable(user, { step, recoveryCodeHashes })))
      throw conflict('The enrolment changed meanwhile; start again.');
    return codes;
  }

  /** Turns two-factor off, given a current code or a recovery code. */
  async disable(user: User, code: string): Promise<void> {
    if (!user.twoFactorEnabled) throw conflict('Two-factor sign-in is not on.');
    await this.throttledCheck(user, async () => ((await this.verify(user, code)) ? true : null));
    await this.deps.repository.disable(user);
  }

  /**
   * Whether `code` is a current TOTP code not used before in its step (it is then recorded), or one
   * of the user's unused recovery codes (it is then used up).
   */
  async verify(user: User, code: string): Promise<boolean> {
    return (await this.verifyCode(user, code)) !== null;
  }

  /** As `verify`, saying which kind of code it was: `totp` or `recovery-code`; null when wrong. */
  async verifyCode(user: User, code: string): Promise<'totp' | 'recovery-code' | null> {
    const secret = this.secretOf(user);
    if (!secret || !user.twoFactor || !user.twoFactorEnabled) return null;
    if (TOTP_CODE.test(code)) {
      const step = matchingTotpStep(secret, code, Date.now(), user.twoFactor.lastStep);
      return step !== null && (await this.deps.repository.claimStep(user, step)) ? 'totp' : null;
    }
    const normalized = normalizeRecoveryCode(code);
    if (!RECOVERY_CODE.test(normalized)) return null;
    return (await this.deps.repository.useRecoveryCode(user, recoveryCodeHash(normalized)))
      ? 'recovery-code'
      : null;
  }
}
