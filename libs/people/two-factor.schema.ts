import { z } from 'zod';

/** A `SealedSecret` (libs/secrets) as stored in a document. */
const sealedSecret = z.object({
  v: z.literal(1),
  kid: z.string(),
  iv: z.string(),
  tag: z.string(),
  data: z.string(),
});

/**
 * A user's TOTP enrolment as stored on the user: pending until confirmed (`enabledAt` null), the
 * secret sealed with the SecretBox, the recovery codes as SHA-256 hashes.
 */
export const storedTwoFactor = z.object({
  secret: sealedSecret,
  enabledAt: z.date().nullable(),
  /** The last TOTP step accepted: a code of it, or an older one, is refused (no replay). */
  lastStep: z.number().int(),
  recoveryCodeHashes: z.array(z.string()),
});
export type StoredTwoFactor = z.infer<typeof storedTwoFactor>;

/** What the sealed secret is bound to, so a ciphertext copied to another user does not open. */
export const totpSecretContext = (userId: number) => `users/${userId}/totpSecret`;

/** A TOTP code (6 digits) or a recovery code (16 base32 characters, dashes and spaces allowed). */
export const secondFactorCode = z
  .string()
  .trim()
  .min(6)
  .max(40)
  .describe('The current 6-digit code of the authenticator app, or one of the recovery codes');

export const twoFactorEnrolmentView = z
  .object({
    secret: z.string().describe('The base32 secret to type into an authenticator app; shown once'),
    otpauthUrl: z.string().describe('The same as an otpauth:// URI, for a QR code'),
  })
  .meta({ id: 'TwoFactorEnrolment' });

export const twoFactorCodeBody = z.strictObject({ code: secondFactorCode }).meta({ id: 'TwoFactorCode' });

export const recoveryCodesView = z
  .object({
    recoveryCodes: z
      .array(z.string())
      .describe('Ten one-time codes that stand in for the app (each works once); shown once'),
  })
  .meta({ id: 'RecoveryCodes' });
