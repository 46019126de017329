/** A budget a sign-in may find spent, named in the 429's `reason`. */
export type SignInBudget =
  | 'account-sign-ins'
  | 'address-sign-ins'
  | 'failed-sign-ins-from-address'
  | 'account-locked'
  | 'failed-sign-ins-everywhere';

/** What the counters say before a sign-in is checked (each: spent or not). */
export interface SignInState {
  /** Successful sign-ins of the account (SIGN_IN_SUCCESSES_PER_ACCOUNT per 15 minutes). */
  accountSuccessesSpent: boolean;
  /** Successful sign-ins from the client address (SIGN_IN_SUCCESSES_PER_ADDRESS per 15 minutes). */
  addressSuccessesSpent: boolean;
  /** Failed authentications from the address (AUTH_FAILURES_PER_MINUTE). */
  addressFailuresSpent: boolean;
  /** Failed sign-ins of the account (SIGN_IN_FAILURES_PER_ACCOUNT per 15 minutes): it is locked. */
  accountFailuresSpent: boolean;
  /** Failed sign-ins of every account together (SIGN_IN_FAILURES_PER_MINUTE). */
  globalFailuresSpent: boolean;
  /** Failed sign-ins with a second factor while locked (as many as the account's): code guessing stops too. */
  lockedFailuresSpent: boolean;
  /** The browser signed in to this account before (its device cookie) and has not failed too often since. */
  knownDevice: boolean;
  /** The request carries a second-factor code. */
  secondFactorGiven: boolean;
}

export type SignInGate =
  | { kind: 'refuse'; budget: SignInBudget }
  /**
   * Check the credentials. `strict`: the account or the service is locked, and only the password
   * with a right second factor passes; any failure answers one 401 whichever was wrong, so the lock
   * still keeps password guessing out.
   */
  | { kind: 'check'; strict: boolean };

/**
 * Whether a sign-in is checked at all (a refused one costs no password hash). Successful sign-ins
 * are budgeted for everyone. A lock never keeps out the account's owner: a browser that signed in
 * before passes every failure bound (its own failures are bounded apart), and a correct password
 * with the second factor passes the account's lock and the service-wide bound, until as many such
 * tries failed as lock an account (else whoever has the password could guess codes). The failures of the
 * address itself are not lifted by a second factor: every such try costs a hash, and one address
 * must not spend the pool that every organization shares.
 */
export function signInGate(state: SignInState): SignInGate {
  if (state.accountSuccessesSpent) return { kind: 'refuse', budget: 'account-sign-ins' };
  if (state.addressSuccessesSpent) return { kind: 'refuse', budget: 'address-sign-ins' };
  if (state.knownDevice) return { kind: 'check', strict: false };
  if (state.addressFailuresSpent) return { kind: 'refuse', budget: 'failed-sign-ins-from-address' };
  if (!state.accountFailuresSpent && !state.globalFailuresSpent) return { kind: 'check', strict: false };
  if (state.secondFactorGiven && !state.lockedFailuresSpent) return { kind: 'check', strict: true };
  return {
    kind: 'refuse',
    budget: state.accountFailuresSpent ? 'account-locked' : 'failed-sign-ins-everywhere',
  };
}

/** What a refused sign-in tells the person, beside when to retry. */
export function refusalText(budget: SignInBudget): string {
  switch (budget) {
    case 'account-sign-ins':
      return 'This account signed in too often in 15 minutes.';
    case 'address-sign-ins':
      return 'Too many sign-ins from this address in 15 minutes.';
    case 'failed-sign-ins-from-address':
      return 'Too many failed sign-ins from this address.';
    case 'account-locked':
      return 'This account is locked after too many failed sign-ins. You can still sign in from a browser you signed in with before, or with your password and a two-factor code; otherwise wait.';
    case 'failed-sign-ins-everywhere':
      return 'Too many failed sign-ins on this service just now. You can still sign in from a browser you signed in with before, or with your password and a two-factor code; or wait.';
  }
}
