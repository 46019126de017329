import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from '../../redis/index.js';

/** How long a visitor who gave a page's password sees it without giving it again. */
export const PAGE_SESSION_SECONDS = 12 * 60 * 60;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The cookie's value: 32 random bytes; only its SHA-256 is stored, as people's sessions are. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * Sessions of visitors who gave a password page its password, in Redis with their expiry. Each
 * holds a fingerprint of the password hash it was opened under: a new password (a new hash, a new
 * salt) ends every session of the page at once, with nothing to find and delete.
 */
export class PageSessions {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(pageId: number, sessionId: string) {
    return `${this.prefix}:status-page-session:${pageId}:${sha256(sessionId)}`;
  }

  /** A new session for the page under its password hash; answers the cookie's value. */
  async open(page: { id: number; passwordHash: string }): Promise<string> {
    const sessionId = randomBytes(32).toString('base64url');
    await this.redis.set(this.key(page.id, sessionId), sha256(page.passwordHash), 'EX', PAGE_SESSION_SECONDS);
    return sessionId;
  }

  /** Whether the cookie's value is a session of the page under its current password hash. */
  async holds(page: { id: number; passwordHash: string }, sessionId: string | undefined): Promise<boolean> {
    if (!sessionId || !SESSION_ID.test(sessionId)) return false;
    return (await this.redis.get(this.key(page.id, sessionId))) === sha256(page.passwordHash);
  }
}
