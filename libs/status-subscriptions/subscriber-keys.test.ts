import { describe, expect, it } from 'vitest';
import {
  newLinkToken,
  normalizedAddress,
  pageOfSubscriberId,
  subscriberId,
  tokenMatches,
} from './subscriber-keys.js';

describe('subscriber keys', () => {
  it('gives one id per page and address, whatever its case, saying nothing of the address', () => {
    const id = subscriberId(12, ' Ann@Example.COM ');
    expect(id).toBe(subscriberId(12, 'ann@example.com'));
    expect(id).not.toBe(subscriberId(13, 'ann@example.com'));
    expect(id).not.toContain('ann');
    expect(pageOfSubscriberId(id)).toBe(12);
    expect(normalizedAddress(' Ann@Example.COM ')).toBe('ann@example.com');
  });

  it('reads no page from text that is not an id', () => {
    for (const text of [
      '',
      '12',
      '12.short',
      `0.${'a'.repeat(32)}`,
      `12.${'a'.repeat(31)}!`,
      `x.${'a'.repeat(32)}`,
    ])
      expect(pageOfSubscriberId(text)).toBeNull();
  });

  it('matches a link token to its digest only', () => {
    const { token, digest } = newLinkToken();
    expect(tokenMatches(token, digest)).toBe(true);
    expect(tokenMatches(`${token}x`, digest)).toBe(false);
    expect(tokenMatches(newLinkToken().token, digest)).toBe(false);
    expect(tokenMatches('', digest)).toBe(false);
    expect(tokenMatches(token, null)).toBe(false);
    expect(tokenMatches('a'.repeat(500), digest)).toBe(false);
  });
});
