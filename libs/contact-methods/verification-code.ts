import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { PendingCode } from './contact-method.schema.js';

/* Codes that prove an address is the person's: pure, apart from the randomness. */

export const CODE_VALID_MS = 10 * 60_000;
/** Wrong guesses a code survives: a million codes, five tries. */
export const MAX_CODE_FAILURES = 5;
/** Codes sent to one method: one a minute, five an hour. */
export const CODE_SENDS_PER_HOUR = 5;
export const CODE_SEND_GAP_MS = 60_000;

const digestOf = (salt: string, code: string) => createHash('sha256').update(`${salt}:${code}`).digest('hex');

/** A new six-digit code and what is stored of it. */
export function newCode(now: Date, sentBefore: readonly Date[] = []): { code: string; pending: PendingCode } {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const salt = randomBytes(16).toString('hex');
  const recent = sentBefore.filter((at) => now.getTime() - at.getTime() < 3_600_000);
  return {
    code,
    pending: {
      digest: digestOf(salt, code),
      salt,
      expiresAt: new Date(now.getTime() + CODE_VALID_MS),
      failures: 0,
      sentAt: [...recent, now],
    },
  };
}

/** Why no code may be sent now (null: one may), from the times codes were sent. */
export function sendRefusal(
  sentAt: readonly Date[],
  now: Date,
): { reason: string; retryAfterMs: number } | null {
  const recent = sentAt.filter((at) => now.getTime() - at.getTime() < 3_600_000).sort((a, b) => +a - +b);
  const last = recent.at(-1);
  if (last && now.getTime() - last.getTime() < CODE_SEND_GAP_MS)
    return {
      reason: 'a code was sent less than a minute ago',
      retryAfterMs: CODE_SEND_GAP_MS - (now.getTime() - last.getTime()),
    };
  const first = recent[0];
  if (recent.length >= CODE_SENDS_PER_HOUR && first)
    return {
      reason: `${CODE_SENDS_PER_HOUR} codes were sent this hour`,
      retryAfterMs: 3_600_000 - (now.getTime() - first.getTime()),
    };
  return null;
}

export type CodeCheck = 'right' | 'wrong' | 'expired' | 'exhausted' | 'none';

/** How a guess fares against the pending code. */
export function checkCode(pending: PendingCode | null, guess: string, now: Date): CodeCheck {
  if (!pending) return 'none';
  if (pending.failures >= MAX_CODE_FAILURES) return 'exhausted';
  if (now >= pending.expiresAt) return 'expired';
  const expected = Buffer.from(pending.digest, 'hex');
  const given = Buffer.from(digestOf(pending.salt, guess), 'hex');
  return timingSafeEqual(expected, given) ? 'right' : 'wrong';
}
