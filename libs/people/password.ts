import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { Counter, type Registry } from 'prom-client';
import { ConcurrencyLimit } from '../runtime/index.js';
import { passwordProblem } from './password-policy.js';

/** 24 base64url characters (144 random bits): what the admin CLI hands out, drawn again in the rare case the policy refuses it. */
export function generatePassword(): string {
  for (;;) {
    const password = randomBytes(18).toString('base64url');
    if (passwordProblem(password) === null) return password;
  }
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

/**
 * Every hash and verification of an API process goes through one of these: at most `concurrency`
 * at once (scrypt takes ~32 MiB and ~0.1 s of a libuv thread each; the rest of the pool stays for
 * other work) and `queue` waiting; past that `ConcurrencyLimitFullError`, answered 503 with
 * Retry-After, so a flood of sign-ins cannot hold every thread and slow every other tenant.
 */
export class PasswordHasher {
  private readonly slots: ConcurrencyLimit;
  private readonly counted?: Counter<'outcome'>;

  constructor(options: { concurrency: number; queue: number; metrics?: Registry }) {
    this.slots = new ConcurrencyLimit(options.concurrency, {
      maxWaiting: options.queue,
      resource: 'Password hashing',
    });
    if (options.metrics)
      this.counted = new Counter({
        name: 'webmon_password_hashes_total',
        help: 'Password hashes computed (a sign-in, a new password) or refused because the bounded queue was full',
        labelNames: ['outcome'] as const,
        registers: [options.metrics],
      });
  }

  private async run<T>(task: () => Promise<T>): Promise<T> {
    try {
      const result = await this.slots.run(task);
      this.counted?.inc({ outcome: 'computed' });
      return result;
    } catch (error) {
      this.counted?.inc({ outcome: 'refused' });
      throw error;
    }
  }

  hash(password: string): Promise<string> {
    return this.run(() => hashPassword(password));
  }

  /** Checks against `hash`, or against the dummy hash when there is none (an unknown e-mail): the same work. */
  async verify(password: string, hash: string | undefined): Promise<boolean> {
    const against = hash ?? (await dummyPasswordHash());
    const matches = await this.run(() => verifyPassword(password, against));
    return matches && hash !== undefined;
  }
}
