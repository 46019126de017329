import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';

/** The SHA-256 (hex) of a one-time token: all that is stored of it. */
export const hashOfToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new one-time token (32 random bytes, base64url) for a link, and its hash to store. */
export function newOneTimeToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOfToken(token) };
}

/** A token from a link; a malformed one answers what an unknown one does, so it is only bounded here. */
export const oneTimeToken = z.string().min(1).max(100).describe('The `token` of the link in the e-mail');
