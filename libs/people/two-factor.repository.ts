import type { Collection, Db, Filter } from 'mongodb';
import { type ResealReport, resealCollection, type SealedSecret, type SecretBox } from '../secrets/index.js';
import { totpSecretContext } from './two-factor.schema.js';
import { USERS, userKey } from './user.repository.js';
import type { User } from './user.schema.js';

type StoredUser = User & { _id: string };

/** Whose TOTP fields a write changes: a user the caller has read in its organization. */
export type TwoFactorOwner = Pick<User, 'id' | 'organizationId'>;

/**
 * The TOTP fields of user documents. Each write goes by `_id` (FerretDB's one filter it does not
 * scan for) and the organization (so it never reaches another organization's user); those that
 * must happen once (a step, a recovery code) are conditional updates, so two sign-ins racing with
 * the same code cannot both succeed.
 */
export class TwoFactorRepository {
  private readonly users: Collection<StoredUser>;

  constructor(db: Db) {
    this.users = db.collection<StoredUser>(USERS);
  }

  private byKey(user: TwoFactorOwner, extra: Filter<StoredUser> = {}): Filter<StoredUser> {
    return { ...extra, _id: userKey(user.id), organizationId: user.organizationId } as Filter<StoredUser>;
  }

  /** Starts (or starts again) an enrolment not yet confirmed; false when two-factor is already on. */
  async startEnrolment(user: TwoFactorOwner, secret: SealedSecret): Promise<boolean> {
    const result = await this.users.updateOne(this.byKey(user, { twoFactorEnabled: false }), {
      $set: { twoFactor: { secret, enabledAt: null, lastStep: 0, recoveryCodeHashes: [] } },
    });
    return result.matchedCount === 1;
  }

  /** Turns the pending enrolment on; false when there was none pending (confirmed meanwhile). */
  async enable(
    user: TwoFactorOwner,
    input: { step: number; recoveryCodeHashes: string[] },
  ): Promise<boolean> {
    const result = await this.users.updateOne(
      this.byKey(user, { twoFactorEnabled: false, 'twoFactor.enabledAt': null }),
      {
        $set: {
          twoFactorEnabled: true,
          'twoFactor.enabledAt': new Date(),
          'twoFactor.lastStep': input.step,
          'twoFactor.recoveryCodeHashes': input.recoveryCodeHashes,
        },
      },
    );
    return result.modifiedCount === 1;
  }

  async disable(user: TwoFactorOwner): Promise<void> {
    await this.users.updateOne(this.byKey(user), {
      $set: { twoFactorEnabled: false },
      $unset: { twoFactor: '' },
    });
  }

  /** Records `step` as the last accepted one; false when it (or a later one) already was. */
  async claimStep(user: TwoFactorOwner, step: number): Promise<boolean> {
    const result = await this.users.updateOne(this.byKey(user, { 'twoFactor.lastStep': { $lt: step } }), {
      $set: { 'twoFactor.lastStep': step },
    });
    return result.modifiedCount === 1;
  }

  /** Removes the recovery code with this hash; false when it is not (or no longer) there. */
  async useRecoveryCode(user: TwoFactorOwner, hash: string): Promise<boolean> {
    const result = await this.users.updateOne(this.byKey(user, { 'twoFactor.recoveryCodeHashes': hash }), {
      $pull: { 'twoFactor.recoveryCodeHashes': hash },
    });
    return result.modifiedCount === 1;
  }

  /** Seals TOTP secrets sealed under an older SECRETS_KEY again under the current one. */
  resealSecrets(box: SecretBox, onProgress?: (report: ResealReport) => void): Promise<ResealReport> {
    return resealCollection({
      collection: this.users,
      box,
      filter: { twoFactor: { $exists: true } } as Filter<StoredUser>,
      sealedFieldsOf: (user) =>
        user.twoFactor
          ? [{ path: 'twoFactor.secret', sealed: user.twoFactor.secret, context: totpSecretContext(user.id) }]
          : [],
      onProgress,
    });
  }
}
