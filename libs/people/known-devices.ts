import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from '../redis/index.js';

/** The cookie a browser that signed in keeps: HttpOnly, SameSite=Strict, sent only to `/api/auth`. */
export const DEVICE_COOKIE = 'webmon_device';
/** How long a browser stays known after its last sign-in. */
export const DEVICE_REMEMBERED_MS = 180 * 24 * 3600_000;

/** 32 random bytes in base64url: opaque, only its hash is kept. */
const DEVICE_ID = /^[A-Za-z0-9_-]{43}$/;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Browsers that signed in to an account: `<prefix>:known-device:<sha256 of id and e-mail>`, one key
 * per browser and account (one command each, cluster-safe). Looked up by e-mail, known or not, so
 * an unknown e-mail costs the same one read.
 */
export class KnownDevices {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(deviceId: string, email: string) {
    return `${this.prefix}:known-device:${sha256(`${deviceId}\n${email}`)}`;
  }

  /** Whether this browser signed in to the account behind `email` within DEVICE_REMEMBERED_MS. */
  async knows(deviceId: string | undefined, email: string): Promise<boolean> {
    if (!deviceId || !DEVICE_ID.test(deviceId)) return false;
    return (await this.redis.exists(this.key(deviceId, email))) === 1;
  }

  /** Remembers the browser for the account; answers its id (the one it had, or a new one) for the cookie. */
  async remember(deviceId: string | undefined, email: string): Promise<string> {
    const id = deviceId && DEVICE_ID.test(deviceId) ? deviceId : randomBytes(32).toString('base64url');
    await this.redis.set(this.key(id, email), '1', 'PX', DEVICE_REMEMBERED_MS);
    return id;
  }

  /** The key a device's own failed sign-ins are counted under (its hash, never the id). */
  static failureKey(deviceId: string): string {
    return `device-failures:${sha256(deviceId)}`;
  }
}
