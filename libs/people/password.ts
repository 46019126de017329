import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { COMMON_PASSWORDS_TEXT } from './common-passwords.js';

export const MIN_PASSWORD_LENGTH = 12;
/** Longer adds nothing and only costs hashing time. */
export const MAX_PASSWORD_LENGTH = 256;

const COMMON = new Set(COMMON_PASSWORDS_TEXT.split(/\s+/).filter(Boolean));

/**
 * Why a new password is refused, or null when it is acceptable: too short or long, or common —
 * listed, or a listed one with digits and symbols added at the end ("Password1234!"), since the
 * length rule alone lets those through.
 */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  const lower = password.toLowerCase();
  const stem = lower.replace(/[^a-z]+$/, '');
  if (COMMON.has(lower) || COMMON.has(stem))
    return 'is too common: choose one that is not in lists of leaked passwords';
  return null;
}

/** 24 base64url characters (144 random bits): what the admin CLI hands out. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * scrypt through node:crypto (no native dependency to build, unlike the argon2 packages): N=2^15,
 * r=8 (32 MiB, about 0.1 s), on libuv's thread pool so the event loop keeps serving. The parameters
 * are stored with each hash, so raising them later leaves older hashes readable.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const MAX_MEMORY = 256 * 1024 * 1024;

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, { ...cost, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$<salt>$<key>`, salt and key in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const HASH_PATTERN = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** True when `password` is the one `hash` was made from; compares in constant time. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const parts = HASH_PATTERN.exec(hash);
  if (!parts) return false;
  const [, N, r, p, salt, key] = parts as unknown as [string, string, string, string, string, string];
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(N),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash no password is known to match, verified against when the e-mail is unknown, so that an
 * unknown e-mail costs what a wrong password does (made once, with the same parameters).
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(32).toString('base64url'));
  return dummyHash;
}
