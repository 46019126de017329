import { describe, expect, it } from 'vitest';
import { SSO_REFUSALS } from '../../../../libs/sso/sso-sign-in.js';
import { offersRetry, refusalSentence } from './refusals.js';

describe('refusalSentence', () => {
  it('has words of its own for every reason the API gives, each saying what to do', () => {
    const fallback = refusalSentence('something-new');
    for (const reason of SSO_REFUSALS) {
      const sentence = refusalSentence(reason);
      expect(sentence, reason).not.toBe(fallback);
      expect(sentence, reason).toMatch(/ask your admin|try again|start again|sign in with your provider/i);
    }
    expect(refusalSentence(null)).toBeNull();
  });
});

describe('offersRetry', () => {
  it('offers the provider again exactly where the sentence says to start or try again', () => {
    for (const reason of SSO_REFUSALS)
      expect(offersRetry(reason), reason).toBe(
        /start again|try again|provider again/i.test(refusalSentence(reason) ?? ''),
      );
    expect(offersRetry(undefined)).toBe(false);
  });
});
