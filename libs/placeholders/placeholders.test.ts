import { describe, expect, it } from 'vitest';
import {
  fillPlaceholders,
  placeholdersIn,
  SECRET_REFERENCE,
  startsWithPlaceholder,
  unfilledPlaceholder,
} from './placeholders.js';

const values = {
  variables: { city: 'Berlin', braces: '{{city}}', _id: '7' },
  secrets: { PASSWORD: 'hunter22', '2FA_SEED': 'JBSWY3DP' },
};
const longName = 'n'.repeat(65);

describe('fillPlaceholders', () => {
  it.each([
    ['Hello {{city}}', 'Hello Berlin'],
    ['{{ city }} and {{city}} and {{_id}}', 'Berlin and Berlin and 7'],
    ['{{secret.PASSWORD}}', 'hunter22'],
    ['{{ secret.PASSWORD }}!', 'hunter22!'],
    [
      '{{secret.2FA_SEED}}: a secret’s name may begin with a digit',
      'JBSWY3DP: a secret’s name may begin with a digit',
    ],
    ['{{unknown}} stays', '{{unknown}} stays'],
    ['{{secret.city}} is a secret, not the variable', '{{secret.city}} is a secret, not the variable'],
    ['one pass: {{braces}}', 'one pass: {{city}}'],
    ['not one: {{a b}} {city} {{}} {"a":{"b":1}}', 'not one: {{a b}} {city} {{}} {"a":{"b":1}}'],
    ['{{toString}} is no variable', '{{toString}} is no variable'],
  ])('fills %s', (text, filled) => {
    expect(fillPlaceholders(text, values)).toBe(filled);
  });

  it('takes a variable’s name only as the rule has it: a letter or _ first, 64 at most', () => {
    const digits = { variables: { '1x': 'one', [longName]: 'long' } };
    expect(fillPlaceholders(`{{1x}} {{${longName}}}`, digits)).toBe(`{{1x}} {{${longName}}}`);
    expect(placeholdersIn(`{{1x}} {{${longName}}} {{secret.${longName}}}`)).toEqual([]);
  });
});

describe('placeholdersIn', () => {
  it('lists them in order, with their kind and as written', () => {
    expect(placeholdersIn('{{user}}:{{ secret.PASSWORD }}@{{user}}')).toEqual([
      { kind: 'variable', name: 'user', text: '{{user}}' },
      { kind: 'secret', name: 'PASSWORD', text: '{{ secret.PASSWORD }}' },
      { kind: 'variable', name: 'user', text: '{{user}}' },
    ]);
    expect(placeholdersIn('{{ not a name }} {{1x}} {"a":{"b":1}}')).toEqual([]);
  });

  it('names the first placeholder nothing fills', () => {
    const given = { variables: { token: 'tok-123' }, secrets: { PASSWORD: 'pw12' } };
    expect(unfilledPlaceholder('{{token}}:{{secret.PASSWORD}}:{{ x y }}', given)).toBeNull();
    expect(unfilledPlaceholder('{{token}} {{ other }} {{more}}', given)).toEqual({
      kind: 'variable',
      name: 'other',
      text: '{{ other }}',
    });
    expect(unfilledPlaceholder('{{secret.NOPE}}', given)).toMatchObject({ kind: 'secret', name: 'NOPE' });
    expect(unfilledPlaceholder('{{secret.token}}', given)).toMatchObject({ kind: 'secret', name: 'token' });
  });

  it('tells a text that begins with one (its URL’s host unknown until it runs)', () => {
    expect(startsWithPlaceholder('{{base}}/me')).toBe(true);
    expect(startsWithPlaceholder('{{ secret.BASE }}/me')).toBe(true);
    expect(startsWithPlaceholder('https://{{host}}/me')).toBe(false);
    expect(startsWithPlaceholder('{{1x}}/me {{base}}')).toBe(false);
  });

  it('tells a text that is one secret and nothing else', () => {
    expect(SECRET_REFERENCE.test('{{secret.KEY}}')).toBe(true);
    expect(SECRET_REFERENCE.test('{{ secret.2FA }}')).toBe(true);
    expect(SECRET_REFERENCE.test('{{secret.KEY}}x')).toBe(false);
    expect(SECRET_REFERENCE.test(`{{secret.${longName}}}`)).toBe(false);
    expect(SECRET_REFERENCE.test('{{KEY}}')).toBe(false);
  });
});
