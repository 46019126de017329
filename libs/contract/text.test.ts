import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cleanName, emailAddress, isNameText, lineText, nameText, proseText, UNNAMED } from './text.js';

const name = nameText(20);

describe('nameText', () => {
  it.each([
    ['Acme shop', 'Acme shop'],
    ['  padded  ', 'padded'],
    ['Zürich – 東京 🙂', 'Zürich – 東京 🙂'],
    ['עברית', 'עברית'],
    ['with\u200Bzero width', 'with\u200Bzero width'],
  ])('takes %j as %j', (input, taken) => {
    expect(name.parse(input)).toBe(taken);
  });

  it.each([
    ['NUL', 'a\u0000b'],
    ['LF', 'a\nb'],
    ['CR at the end', 'ab\r'],
    ['TAB', 'a\tb'],
    ['DEL', 'a\u007fb'],
    ['C1 (NEL)', 'a\u0085b'],
    ['right-to-left override', 'invoice\u202Efdp.exe'],
    ['left-to-right embedding', '\u202Aname'],
    ['first strong isolate', 'a\u2068b'],
    ['pop directional isolate', 'a\u2069'],
    ['empty', ''],
    ['spaces only', '   '],
    ['too long', 'x'.repeat(21)],
  ])('refuses %s', (_, input) => {
    expect(name.safeParse(input).success).toBe(false);
  });

  it('says why in the message', () => {
    const result = name.safeParse('a\u202Eb');
    expect(result.error?.issues[0]?.message).toMatch(/control characters .* bidirectional overrides/);
  });
});

describe('lineText and proseText', () => {
  it.each([
    ['a line may be empty', lineText(10), '', true],
    ['a line refuses LF', lineText(10), 'a\nb', false],
    ['a line refuses U+2067', lineText(10), 'a\u2067', false],
    ['prose keeps line breaks and tabs', proseText(20), 'one\r\ntwo\tthree', true],
    ['prose refuses NUL', proseText(20), 'a\u0000b', false],
    ['prose refuses ESC', proseText(20), 'a\u001b[31m', false],
    ['prose refuses C1', proseText(20), 'a\u009bb', false],
    ['prose refuses U+202E', proseText(20), 'a\u202Eb', false],
  ])('%s', (_, schema, input, taken) => {
    expect(schema.safeParse(input).success).toBe(taken);
  });
});

describe('cleanName', () => {
  it.each([
    ['a\u0000b', 'a b'],
    ['line one\r\nline two', 'line one line two'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['\u2066\u0007 \u2069', UNNAMED],
    ['already text', 'already text'],
  ])('makes %j %j, which is text and stays as it is', (stored, cleaned) => {
    expect(cleanName(stored)).toBe(cleaned);
    expect(isNameText(cleanName(stored))).toBe(true);
    expect(cleanName(cleanName(stored))).toBe(cleaned);
  });
});

describe('emailAddress', () => {
  const email = emailAddress();
  const pattern = new RegExp(String((z.toJSONSchema(email) as { pattern: string }).pattern));

  it.each([
    'a@example.com',
    "o'neil+tag@mail.example.co",
    `${'l'.repeat(64)}@example.com`,
    `a@${'d'.repeat(63)}.example.com`,
    'a.b-c_d@x-y.io',
  ])('takes %s, as its OpenAPI pattern does', (address) => {
    expect(email.safeParse(address).success).toBe(true);
    expect(pattern.test(address)).toBe(true);
  });

  // zod's own rule took the first three; strict readers of `format: email` refuse them.
  it.each([
    `${'l'.repeat(65)}@example.com`,
    'a@example-.com',
    `a@${'d'.repeat(64)}.example.com`,
    'a..b@example.com',
    '.a@example.com',
    'a@-example.com',
    `a@${'d.'.repeat(126)}io`,
  ])('refuses %s', (address) => {
    expect(email.safeParse(address).success).toBe(false);
  });
});
