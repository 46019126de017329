import { describe, expect, it } from 'vitest';
import { checkNewPassword, passwordProblem } from './password-policy.js';

const context = { email: 'alice.smith@example.com', organizationName: 'Brightwave Agency' };

describe('the password policy (OWASP ASVS V6.2)', () => {
  it.each([
    ['11 characters', 'Xk7#pQ2m!zL', /at least 12/],
    ['over 256 characters', 'Xk7#pQ2m!zL4'.repeat(22), /at most 256/],
    ['12 emoji count as 12 characters, not 24 code units', '🦊🐙🦉🐢🦀🐝🦔🐌🦋🐞🦑🦂', null],
    ['11 emoji are too few, though 22 code units', '🦊🐙🦉🐢🦀🐝🦔🐌🦋🐞🦑', /at least 12/],
    ['12 spaces', ' '.repeat(12), /only spaces/],
    ['tabs and spaces only', ' \t \t \t \t \t \t', /only spaces|control/],
    ['12 NUL characters', '\u0000'.repeat(12), /control characters/],
    ['a line feed inside', 'tangerine\norbit-47', /control characters/],
    ['a C1 control inside', 'tangerine\u0085orbit-47', /control characters/],
    ['aaaaaaaaaaaa', 'aaaaaaaaaaaa', /in a row/],
    ['a run of four in a longer one', 'Orbit-kettle-0000-lamp', /in a row/],
    ['the e-mail local part with digits', 'alice.smith2024!', /e-mail/],
    ['the e-mail local part, other case and separators', 'Alice_Smith-rocks-1987', /e-mail/],
    ["the organization's name", 'BrightwaveAgency#77', /organization/],
    ['a common password with digits added', 'Password1234!', /too easy to guess/],
    ['a keyboard walk', 'qwertyuiop123', /too easy to guess/],
    ['a common word and a year', 'Football2024', /too easy to guess/],
    ['l33t of a common password', 'P@ssw0rd12345', /too easy to guess/],
    ['a common phrase', 'iloveyou12345', /too easy to guess/],
    ['a repeated pattern', 'x7x7x7x7x7x7x7x7', /too easy to guess/],
    ['a passphrase of unrelated words', 'tangerine-orbit-47-kettle', null],
    ['random characters', 'Xk7#pQ2m!zL4', null],
    ['spaces inside a passphrase', 'copper lantern meadow 82', null],
    ['a long passphrase (judged on its first 64 characters)', 'copper lantern meadow 82 '.repeat(8), null],
  ])('%s', (_case, password, expected) => {
    const problem = passwordProblem(password, context);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });

  it('judges 64 characters of symbols quickly (l33t substitutions are capped)', () => {
    passwordProblem('warm up the estimator 1');
    const started = performance.now();
    passwordProblem('aB3$'.repeat(16));
    // Generous: the uncapped estimator took 400 ms and more here.
    expect(performance.now() - started).toBeLessThan(300);
  });

  it('a refusal is a 400 naming the field', () => {
    expect(() => checkNewPassword('aaaaaaaaaaaa', {}, 'newPassword')).toThrow(
      expect.objectContaining({
        kind: 'invalid',
        errors: [{ path: 'newPassword', message: expect.any(String) }],
      }),
    );
  });
});
