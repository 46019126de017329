import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, passwordProblem, verifyPassword } from './password.js';

describe('password policy', () => {
  it('refuses fewer than 12 characters', () => {
    expect(passwordProblem('Xk7#pQ2m!zL')).toMatch(/at least 12/);
    expect(passwordProblem('Xk7#pQ2m!zL4')).toBeNull();
  });

  it('refuses more than 256 characters', () => {
    expect(passwordProblem('x7'.repeat(129))).toMatch(/at most 256/);
  });

  it.each([
    'qwertyuiop123',
    '1qaz2wsx3edc',
    'leavemealone',
    'Password1234!',
    'Football2024',
    'SUNSHINE!!!!1',
  ])('refuses the common %j, whatever its case or added digits and symbols', (password) => {
    expect(passwordProblem(password)).toMatch(/too common/);
  });

  it('accepts a generated password', () => {
    const password = generatePassword();
    expect(password).toHaveLength(24);
    expect(passwordProblem(password)).toBeNull();
  });
});

describe('password hashes', () => {
  it('verify the password they were made from and no other', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(hash).not.toContain('correct');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'not a hash')).toBe(false);
  });

  it('are salted: one password, two hashes', async () => {
    expect(await hashPassword('same password twice')).not.toBe(await hashPassword('same password twice'));
  });
});
