import { createHash } from 'node:crypto';
import type { AppConfig } from '../config/index.js';
import { createRedisRateLimiter, type RateLimiter, type Redis } from '../redis/index.js';

/** The window of an account's (and a browser's) failed and successful sign-ins. */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

/** An account's key in its counters: a hash of the e-mail (no address in Redis keys), known or not. */
export const accountBudgetKey = (email: string) =>
  `sign-in:${createHash('sha256').update(email).digest('hex')}`;

/** Every counter a sign-in is held to, in Redis (shared by all API processes). */
export interface SignInBudgets {
  /** Failed sign-ins per account (e-mail, known or not): SIGN_IN_FAILURES_PER_ACCOUNT per 15 minutes. */
  accountFailures: RateLimiter;
  /** Failed authentications per client address, the access guard's: AUTH_FAILURES_PER_MINUTE. */
  addressFailures: RateLimiter;
  /** Failed sign-ins of every account together: SIGN_IN_FAILURES_PER_MINUTE. */
  globalFailures: RateLimiter;
  /**
   * Failed sign-ins of a locked account with a second factor: as many as an account's, so that
   * whoever has the password cannot go on guessing codes once the account is locked.
   */
  lockedFailures: RateLimiter;
  /** Failed sign-ins from one known browser (its device cookie): as many as an account's. */
  deviceFailures: RateLimiter;
  /** Successful sign-ins per account: SIGN_IN_SUCCESSES_PER_ACCOUNT per 15 minutes. */
  accountSuccesses: RateLimiter;
  /** Successful sign-ins per client address: SIGN_IN_SUCCESSES_PER_ADDRESS per 15 minutes. */
  addressSuccesses: RateLimiter;
}

export function signInBudgets(
  redis: Redis,
  config: Pick<
    AppConfig,
    | 'REDIS_KEY_PREFIX'
    | 'SIGN_IN_FAILURES_PER_ACCOUNT'
    | 'SIGN_IN_FAILURES_PER_MINUTE'
    | 'SIGN_IN_SUCCESSES_PER_ACCOUNT'
    | 'SIGN_IN_SUCCESSES_PER_ADDRESS'
  >,
  addressFailures: RateLimiter,
): SignInBudgets {
  const limiter = (limit: number, windowMs: number) =>
    createRedisRateLimiter({ redis, keyPrefix: config.REDIS_KEY_PREFIX, limit, windowMs });
  return {
    accountFailures: limiter(config.SIGN_IN_FAILURES_PER_ACCOUNT, SIGN_IN_WINDOW_MS),
    addressFailures,
    globalFailures: limiter(config.SIGN_IN_FAILURES_PER_MINUTE, 60_000),
    lockedFailures: limiter(config.SIGN_IN_FAILURES_PER_ACCOUNT, SIGN_IN_WINDOW_MS),
    deviceFailures: limiter(config.SIGN_IN_FAILURES_PER_ACCOUNT, SIGN_IN_WINDOW_MS),
    accountSuccesses: limiter(config.SIGN_IN_SUCCESSES_PER_ACCOUNT, SIGN_IN_WINDOW_MS),
    addressSuccesses: limiter(config.SIGN_IN_SUCCESSES_PER_ADDRESS, SIGN_IN_WINDOW_MS),
  };
}
