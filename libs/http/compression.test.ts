import { describe, expect, it } from 'vitest';
import { preferredCoding } from './compression.js';

describe('preferredCoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['identity', 'identity'],
    ['deflate', 'identity'],
    ['GZIP ; Q=0.9', 'gzip'],
    ['br;q=abc, gzip;q=0.1', 'gzip'],
  ] as const)('%s → %s', (header, expected) => {
    expect(preferredCoding(header)).toBe(expected);
  });
});
