import { describe, expect, it } from 'vitest';
import { cleanName, isNameText, nameText, UNNAMED } from './text.js';

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
