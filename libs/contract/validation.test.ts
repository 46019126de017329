import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DomainError } from '../errors/index.js';
import { hasScope, type Scope } from './scopes.js';
import { parseInput, validate } from './validation.js';

const schema = z.strictObject({
  name: z.string().min(1),
  customHeaders: z.record(z.string(), z.string().max(3)).optional(),
  nested: z.strictObject({ flag: z.boolean() }).optional(),
});

function errorsOf(input: unknown) {
  try {
    parseInput(schema, input, 'body');
  } catch (error) {
    expect(error).toMatchObject({ kind: 'invalid' });
    return (error as DomainError).errors ?? [];
  }
  throw new Error('expected a validation error');
}

describe('parseInput', () => {
  it('returns the parsed value', () => {
    expect(parseInput(schema, { name: 'x' }, 'body')).toEqual({ name: 'x' });
  });

  it('names a missing field as Required', () => {
    expect(errorsOf({})).toEqual([{ path: 'name', message: 'Required' }]);
  });

  it('says what is wrong with a value of the wrong type (not "Required")', () => {
    expect(errorsOf({ name: 5 })).toEqual([
      { path: 'name', message: 'Invalid input: expected string, received number' },
    ]);
    expect(errorsOf({ name: null })).toEqual([
      { path: 'name', message: 'Invalid input: expected string, received null' },
    ]);
  });

  it('names each unknown field, nested ones with their path', () => {
    expect(errorsOf({ name: 'x', extra: 1, nested: { flag: true, other: 2 } })).toEqual(
      expect.arrayContaining([
        { path: 'extra', message: 'Unknown field' },
        { path: 'nested.other', message: 'Unknown field' },
      ]),
    );
  });

  it('uses dotted paths into records (customHeaders.X-Foo)', () => {
    expect(errorsOf({ name: 'x', customHeaders: { 'X-Foo': 'toolong' } })[0]?.path).toBe(
      'customHeaders.X-Foo',
    );
  });

  it('puts a prefix before every path', () => {
    expect(() => parseInput(schema, { nested: {} }, 'body', ['config'])).toThrow(
      'Invalid request body: config.name, config.nested.flag',
    );
  });

  it('says where the bad input was', () => {
    expect(() => parseInput(schema, {}, 'query')).toThrow('Invalid query parameters: name');
  });

  it.each<[string, z.ZodType, unknown, string]>([
    ['an empty string', z.string().min(1), '', 'Must not be empty'],
    ['a short string', z.string().min(3), 'ab', 'At least 3 characters'],
    ['a long string', z.string().max(1), 'ab', 'At most 1 character'],
    ['a small number', z.number().int().min(60), 5, 'At least 60'],
    ['a number not above', z.number().gt(0), 0, 'More than 0'],
    ['a big number', z.number().max(5), 9, 'At most 5'],
    ['a number not below', z.number().lt(5), 5, 'Less than 5'],
    ['an empty list', z.array(z.string()).min(1), [], 'Choose at least one'],
    ['a long list', z.array(z.string()).max(2), ['a', 'b', 'c'], 'At most 2 items'],
    ['a schema’s own words', z.string().min(2, 'Two letters at least'), 'a', 'Two letters at least'],
  ])('tells %s in words, not a formula', (_, bounded, input, message) => {
    const result = validate(z.object({ field: bounded }), { field: input });
    expect(result.success ? [] : result.errors).toEqual([{ path: 'field', message }]);
  });
});

describe('hasScope', () => {
  it.each<[Scope[], Scope, boolean]>([
    [['read'], 'read', true],
    [['read'], 'write', false],
    [['write'], 'read', true],
    [['write'], 'admin', false],
    [['admin'], 'write', true],
    [['read', 'admin'], 'admin', true],
    [[], 'read', false],
  ])('%j may act at %s: %s', (granted, required, expected) => {
    expect(hasScope(granted, required)).toBe(expected);
  });
});
