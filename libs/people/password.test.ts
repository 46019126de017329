import { describe, expect, it } from 'vitest';
import { ConcurrencyLimitFullError } from '../runtime/index.js';
import { generatePassword, hashPassword, PasswordHasher, verifyPassword } from './password.js';
import { passwordProblem } from './password-policy.js';

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

  it('a generated password passes the policy', () => {
    const password = generatePassword();
    expect(password).toHaveLength(24);
    expect(passwordProblem(password)).toBeNull();
  });
});

describe('the password-hash pool', () => {
  it('runs a few at once, queues a few, and refuses the rest at once', async () => {
    const hasher = new PasswordHasher({ concurrency: 1, queue: 2 });
    const tries = Array.from({ length: 6 }, (_, i) => hasher.hash(`password number ${i}`));
    const settled = await Promise.allSettled(tries);
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(3);
    const refused = settled.filter((s) => s.status === 'rejected');
    expect(refused).toHaveLength(3);
    for (const r of refused)
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyLimitFullError);
  });

  it('verifies an unknown account against the dummy hash: the same work, never a match', async () => {
    const hasher = new PasswordHasher({ concurrency: 2, queue: 2 });
    const hash = await hasher.hash('tangerine-orbit-47-kettle');
    expect(await hasher.verify('tangerine-orbit-47-kettle', hash)).toBe(true);
    expect(await hasher.verify('tangerine-orbit-47-kettle', undefined)).toBe(false);
  });
});
