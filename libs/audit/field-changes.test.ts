import { describe, expect, it } from 'vitest';
import { type FieldChange, fieldChanges, leafPaths, MAX_VALUE_CHARS } from './field-changes.js';

describe('fieldChanges', () => {
  it.each<[string, unknown, unknown, unknown, FieldChange[]]>([
    ['nothing changed', { a: 1, b: 'x' }, { a: 1, b: 'x' }, undefined, []],
    [
      'a scalar',
      { name: 'Shop' },
      { name: 'Store' },
      undefined,
      [{ path: 'name', old: 'Shop', new: 'Store' }],
    ],
    [
      'a nested path',
      { checkConfig: { keyword: { value: 'ok', mode: 'contains' } } },
      { checkConfig: { keyword: { value: 'fine', mode: 'contains' } } },
      undefined,
      [{ path: 'checkConfig.keyword.value', old: 'ok', new: 'fine' }],
    ],
    [
      'arrays compared as values',
      { channelIds: [1, 2], tags: ['a'] },
      { channelIds: [1, 3], tags: ['a'] },
      undefined,
      [{ path: 'channelIds', old: [1, 2], new: [1, 3] }],
    ],
    [
      'null to an object: one value',
      { keyword: null },
      { keyword: { value: 'ok' } },
      undefined,
      [{ path: 'keyword', old: null, new: { value: 'ok' } }],
    ],
    ['a field added', { a: 1 }, { a: 1, b: 2 }, undefined, [{ path: 'b', new: 2 }]],
    ['a field removed', { a: 1, b: 2 }, { a: 1 }, undefined, [{ path: 'b', old: 2 }]],
    [
      'a create',
      null,
      { id: 4, name: 'Shop' },
      undefined,
      [
        { path: 'id', new: 4 },
        { path: 'name', new: 'Shop' },
      ],
    ],
    [
      'a delete',
      { id: 4, s: { t: 1 } },
      null,
      undefined,
      [
        { path: 'id', old: 4 },
        { path: 's.t', old: 1 },
      ],
    ],
    ['updatedAt is not a change', { updatedAt: 'then', a: 1 }, { updatedAt: 'now', a: 1 }, undefined, []],
    [
      'write-only body fields by name only',
      { mtlsClientKeySet: false, secretHeaderNames: [] },
      { mtlsClientKeySet: true, secretHeaderNames: ['X-Api-Key'] },
      { mtlsClientKey: '-----BEGIN PRIVATE KEY-----', secretHeaders: { 'X-Api-Key': 'sk-live-1' } },
      [
        { path: 'mtlsClientKeySet', old: false, new: true },
        { path: 'secretHeaderNames', old: [], new: ['X-Api-Key'] },
        { path: 'mtlsClientKey', writeOnly: true },
        { path: 'secretHeaders.X-Api-Key', writeOnly: true },
      ],
    ],
    [
      'body fields the representation shows are not listed again',
      { name: 'a', customHeaders: { 'X-Trace': '1' } },
      { name: 'b', customHeaders: { 'X-Trace': '1' } },
      { name: 'b', customHeaders: { 'X-Trace': '1' } },
      [{ path: 'name', old: 'a', new: 'b' }],
    ],
    [
      'no representation: names only',
      null,
      null,
      { email: 'a@example.com', password: 'hunter2hunter2' },
      [
        { path: 'email', writeOnly: true },
        { path: 'password', writeOnly: true },
      ],
    ],
  ])('%s', (_name, before, after, body, expected) => {
    expect(fieldChanges(before, after, body)).toEqual(expected);
  });

  it('never takes a value from the body', () => {
    const body = { name: 'secret-looking', config: { secret: 'whsec_abc', url: 'https://x.example' } };
    const changes = fieldChanges(
      { name: 'a', config: { url: 'https://x.example' } },
      { name: 'a', config: { url: 'https://x.example' } },
      body,
    );
    expect(JSON.stringify(changes)).not.toContain('whsec_abc');
    expect(changes).toEqual([{ path: 'config.secret', writeOnly: true }]);
  });

  it('a long value is kept by its size', () => {
    const long = 'x'.repeat(MAX_VALUE_CHARS + 10);
    expect(fieldChanges({ a: 'short' }, { a: long })).toEqual([
      { path: 'a', old: 'short', new: `[${MAX_VALUE_CHARS + 12} characters]` },
    ]);
  });

  it('dates compare by time', () => {
    expect(fieldChanges({ at: new Date(5) }, { at: new Date(5) })).toEqual([]);
  });
});

describe('leafPaths', () => {
  it.each<[unknown, string[]]>([
    [undefined, []],
    [{ a: 1, b: { c: 2, d: { e: 3 } }, f: [1], g: {} }, ['a', 'b.c', 'b.d.e', 'f', 'g']],
  ])('%j', (value, paths) => {
    expect(leafPaths(value)).toEqual(paths);
  });
});
