import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  generateTotpSecret,
  hotp,
  matchingTotpStep,
  otpauthUrl,
  totp,
  totpStep,
} from './totp.js';

const RFC_SECRET = Buffer.from('12345678901234567890', 'ascii');

describe('HOTP and TOTP', () => {
  it('computes the RFC 4226 appendix D values', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(RFC_SECRET, counter))).toEqual(expected);
  });

  it('computes the RFC 6238 appendix B SHA-1 values (8 digits)', () => {
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors) expect(totp(RFC_SECRET, seconds * 1000, 8)).toBe(code);
  });

  it('encodes base32 as RFC 4648 does and decodes it back', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('mzxw6ytboi======').toString()).toBe('foobar');
    expect(base32Encode(RFC_SECRET)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
  });

  it('takes a code of the step before, now or after, once, and no other', () => {
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    expect(matchingTotpStep(RFC_SECRET, hotp(RFC_SECRET, step), now, 0)).toBe(step);
    expect(matchingTotpStep(RFC_SECRET, hotp(RFC_SECRET, step - 1), now, 0)).toBe(step - 1);
    expect(matchingTotpStep(RFC_SECRET, hotp(RFC_SECRET, step + 1), now, 0)).toBe(step + 1);
    expect(matchingTotpStep(RFC_SECRET, hotp(RFC_SECRET, step - 2), now, 0)).toBeNull();
    // Already accepted in its step, or older than the last accepted one.
    expect(matchingTotpStep(RFC_SECRET, hotp(RFC_SECRET, step), now, step)).toBeNull();
    expect(matchingTotpStep(RFC_SECRET, hotp(RFC_SECRET, step - 1), now, step)).toBeNull();
    expect(matchingTotpStep(RFC_SECRET, 'abcdef', now, 0)).toBeNull();
  });

  it('writes the otpauth URI apps read', () => {
    expect(otpauthUrl({ issuer: 'webmon', account: 'a@example.com', secret: 'ABC' })).toBe(
      'otpauth://totp/webmon%3Aa%40example.com?secret=ABC&issuer=webmon&algorithm=SHA1&digits=6&period=30',
    );
  });
});
