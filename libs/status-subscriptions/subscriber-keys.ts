import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * An address as subscriptions compare it: trimmed and lowercased whole. (The local part is
 * case-sensitive by the letter of RFC 5321, but no mail provider in use treats it so, and two
 * subscriptions for `Ann@x` and `ann@x` would mail one person twice.)
 */
export function normalizedAddress(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A subscriber's id: the page and a digest of the address, so subscribing again finds the same
 * document by primary key (FerretDB reads a whole collection for any other filter), and a link's
 * id says nothing about the address it belongs to.
 */
export function subscriberId(pageId: number, email: string): string {
  const digest = createHash('sha256').update(normalizedAddress(email)).digest('base64url').slice(0, 32);
  return `${pageId}.${digest}`;
}

/** A webhook subscriber's id: the page and a digest of its URL (as written: a path is case-sensitive). */
export function webhookSubscriberId(pageId: number, url: string): string {
  const digest = createHash('sha256').update(`webhook ${url}`).digest('base64url').slice(0, 32);
  return `${pageId}.${digest}`;
}

const SUBSCRIBER_ID = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{32})$/;

/** The page a subscriber id belongs to, or null when the text is no subscriber id (a mangled link). */
export function pageOfSubscriberId(text: string): number | null {
  const match = SUBSCRIBER_ID.exec(text);
  return match ? Number(match[1]) : null;
}

/** A link's secret: 32 random bytes, sent once in a mail; only its digest is stored. */
export function newLinkToken(): { token: string; digest: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, digest: tokenDigest(token) };
}

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Whether `token` is the one whose digest was stored, in constant time. */
export function tokenMatches(token: string, digest: string | null | undefined): boolean {
  if (!digest || token.length === 0 || token.length > 100) return false;
  const given = Buffer.from(tokenDigest(token));
  const stored = Buffer.from(digest);
  return given.length === stored.length && timingSafeEqual(given, stored);
}
