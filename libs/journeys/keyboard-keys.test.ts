import { describe, expect, it } from 'vitest';
import { keyProblem } from './keyboard-keys.js';

describe('keyProblem', () => {
  it.each([
    'Enter',
    'Tab',
    'a',
    'A',
    '+',
    'Control+A',
    'Shift++',
    'ControlOrMeta+Shift+KeyZ',
    'F12',
    'Numpad0',
    ' ',
  ])('takes %j', (key) => {
    expect(keyProblem(key)).toBeNull();
  });

  it.each([
    ['Return', '"Return"'],
    ['Ctrl+a', '"Ctrl"'],
    ['é', '"é"'],
    ['Control+', '""'],
  ])('refuses %j', (key, named) => {
    expect(keyProblem(key)).toMatch(/^Must be a key such as Enter/);
    expect(keyProblem(key)).toContain(named);
  });
});
