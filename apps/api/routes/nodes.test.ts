import { describe, expect, it } from 'vitest';
import { sortIps } from './nodes.js';

describe('sortIps', () => {
  it('sorts IPv4 numerically, then IPv6, without duplicates', () => {
    expect(sortIps(['10.0.0.10', '2001:db8::1', '10.0.0.9', '9.9.9.9', '10.0.0.9'])).toEqual([
      '9.9.9.9',
      '10.0.0.9',
      '10.0.0.10',
      '2001:db8::1',
    ]);
  });
});
