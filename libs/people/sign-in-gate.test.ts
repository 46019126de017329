import { describe, expect, it } from 'vitest';
import { type SignInGate, type SignInState, signInGate } from './sign-in-gate.js';

const fresh: SignInState = {
  accountSuccessesSpent: false,
  addressSuccessesSpent: false,
  addressFailuresSpent: false,
  accountFailuresSpent: false,
  globalFailuresSpent: false,
  lockedFailuresSpent: false,
  knownDevice: false,
  secondFactorGiven: false,
};

const check = { kind: 'check', strict: false } as const;
const strict = { kind: 'check', strict: true } as const;
const refuse = (budget: string) => ({ kind: 'refuse', budget });

describe('the sign-in gate', () => {
  it.each<[string, Partial<SignInState>, SignInGate | ReturnType<typeof refuse>]>([
    ['nothing spent: checked', {}, check],
    ['the account signed in too often', { accountSuccessesSpent: true }, refuse('account-sign-ins')],
    [
      'the account signed in too often, even from a known browser',
      { accountSuccessesSpent: true, knownDevice: true },
      refuse('account-sign-ins'),
    ],
    ['the address signed in too often', { addressSuccessesSpent: true }, refuse('address-sign-ins')],
    ['a locked account', { accountFailuresSpent: true }, refuse('account-locked')],
    ['a locked account, from a known browser', { accountFailuresSpent: true, knownDevice: true }, check],
    [
      'a locked account, with a second factor',
      { accountFailuresSpent: true, secondFactorGiven: true },
      strict,
    ],
    [
      'a locked account, with a second factor, after as many failed ones as lock it',
      { accountFailuresSpent: true, secondFactorGiven: true, lockedFailuresSpent: true },
      refuse('account-locked'),
    ],
    [
      'a locked account from a known browser, after the second-factor tries are spent',
      { accountFailuresSpent: true, lockedFailuresSpent: true, knownDevice: true },
      check,
    ],
    ['the service-wide failures spent', { globalFailuresSpent: true }, refuse('failed-sign-ins-everywhere')],
    [
      'the service-wide failures spent, with a second factor',
      { globalFailuresSpent: true, secondFactorGiven: true },
      strict,
    ],
    [
      'the service-wide failures spent, from a known browser',
      { globalFailuresSpent: true, knownDevice: true },
      check,
    ],
    ['the address failed too often', { addressFailuresSpent: true }, refuse('failed-sign-ins-from-address')],
    [
      'the address failed too often, with a second factor: still refused (each try costs a hash)',
      { addressFailuresSpent: true, secondFactorGiven: true },
      refuse('failed-sign-ins-from-address'),
    ],
    [
      'the address failed too often, from a known browser',
      { addressFailuresSpent: true, knownDevice: true },
      check,
    ],
    ['a second factor on an account not locked: an ordinary check', { secondFactorGiven: true }, check],
  ])('%s', (_case, state, expected) => {
    expect(signInGate({ ...fresh, ...state })).toEqual(expected);
  });
});
