import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateToken, hashToken, isWellFormedToken } from './token.js';

describe('API tokens', () => {
  it('are wm_ and 43 base64url characters, with an 11-character display prefix', () => {
    const { token, prefix, hash } = generateToken();
    expect(token).toMatch(/^wm_[A-Za-z0-9_-]{43}$/);
    expect(prefix).toBe(token.slice(0, 11));
    expect(hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(isWellFormedToken(token)).toBe(true);
  });

  it('differ every time', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generateToken().token));
    expect(tokens.size).toBe(1000);
  });

  it.each([
    '',
    'wm_',
    `xx_${'a'.repeat(43)}`,
    `wm_${'a'.repeat(42)}`,
    `wm_${'a'.repeat(44)}`,
    `wm_${'a'.repeat(42)}!`,
  ])('rejects %j as malformed', (token) => {
    expect(isWellFormedToken(token)).toBe(false);
  });

  it('hashes deterministically', () => {
    expect(hashToken('wm_x')).toBe(hashToken('wm_x'));
    expect(hashToken('wm_x')).not.toBe(hashToken('wm_y'));
  });
});
