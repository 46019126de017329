import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { DomainError } from '../errors/index.js';

/** A secret as stored: AES-256-GCM ciphertext with the id of the key that sealed it. */
export interface SealedSecret {
  v: 1;
  /** First 16 hex digits of SHA-256(key): says which key opens it, without revealing the key. */
  kid: string;
  iv: string;
  tag: string;
  data: string;
}

const IV_BYTES = 12;

export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/**
 * The secret could not be opened: unknown key, tampered ciphertext, or sealed for another place.
 * Callers are told what the operator must do; the reason (which key) is for the logs.
 */
export class SecretUnreadableError extends DomainError {
  constructor(readonly reason: string) {
    super(
      'internal',
      'A stored secret of this resource cannot be decrypted with the configured keys: the operator must add the key it was sealed with to SECRETS_KEYS_PREVIOUS.',
    );
    this.name = 'SecretUnreadableError';
    this.message = `stored secret cannot be decrypted: ${reason}`;
  }
}

/**
 * Seals secrets at rest with AES-256-GCM under the current key, and opens them with the current or
 * a previous key (key rotation). `context` (e.g. `websites/12/mtlsClientKey`) is bound as
 * additional authenticated data, so a ciphertext copied to another record does not open there.
 */
export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  private readonly currentKid: string;

  constructor(
    private readonly current: Buffer,
    previous: readonly Buffer[] = [],
  ) {
    if (current.length !== 32) throw new Error('the secrets key must be 32 bytes');
    this.currentKid = keyIdOf(current);
    this.keys = new Map([...previous, current].map((key) => [keyIdOf(key), key]));
  }

  seal(plaintext: string, context: string): SealedSecret {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      v: 1,
      kid: this.currentKid,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
  }

  open(sealed: SealedSecret, context: string): string {
    const key = this.keys.get(sealed.kid);
    if (!key)
      throw new SecretUnreadableError(
        `key ${sealed.kid} is neither SECRETS_KEY nor in SECRETS_KEYS_PREVIOUS`,
      );
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new SecretUnreadableError('authentication failed (tampered, or sealed for another record)');
    }
  }

  /** True when the secret was sealed with an older key and should be sealed again. */
  needsResealing(sealed: SealedSecret): boolean {
    return sealed.kid !== this.currentKid;
  }
}
