import { createHash, randomBytes } from 'node:crypto';

const TOKEN_PREFIX = 'wm_';
/** `wm_` and 32 random bytes in base64url. */
const TOKEN_PATTERN = /^wm_[A-Za-z0-9_-]{43}$/;
/** Characters of the token kept in clear to tell tokens apart in lists (`wm_` + 8). */
const DISPLAY_PREFIX_LENGTH = 11;

export interface GeneratedToken {
  /** Shown once to its owner, never stored. */
  token: string;
  /** The first characters, stored to identify the token in lists and in the CLI. */
  prefix: string;
  /** SHA-256 of the token, hex: what is stored and looked up. */
  hash: string;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function isWellFormedToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export function generateToken(): GeneratedToken {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, prefix: token.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashToken(token) };
}
