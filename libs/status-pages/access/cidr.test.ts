import { describe, expect, it } from 'vitest';
import { addressInRanges, addressRangeProblem, parseAddressRange } from './cidr.js';

describe('address ranges', () => {
  it('reads IPv4 and IPv6 ranges and single addresses', () => {
    expect(parseAddressRange('203.0.113.0/24')?.prefix).toBe(24);
    expect(parseAddressRange('203.0.113.7')?.prefix).toBe(32);
    expect(parseAddressRange('2001:db8::/32')?.prefix).toBe(32);
    expect(parseAddressRange('2001:db8::1')?.prefix).toBe(128);
    expect(parseAddressRange('0.0.0.0/0')?.prefix).toBe(0);
  });

  it('refuses what is not a range', () => {
    for (const text of [
      '',
      'example.com',
      '10.1',
      '010.0.0.1/8',
      '0x0a.0.0.1',
      '10.0.0.0/33',
      '2001:db8::/129',
      '10.0.0.0/-1',
      '10.0.0.0/8/8',
      'fe80::1%eth0',
      '10.0.0.0/ 8',
    ])
      expect(addressRangeProblem(text), text).not.toBeNull();
    expect(addressRangeProblem('192.0.2.0/24')).toBeNull();
  });

  it('matches a client inside and not outside', () => {
    const ranges = ['203.0.113.0/24', '2001:db8:1::/48'];
    expect(addressInRanges('203.0.113.200', ranges)).toBe(true);
    expect(addressInRanges('203.0.114.1', ranges)).toBe(false);
    expect(addressInRanges('2001:db8:1:ffff::9', ranges)).toBe(true);
    expect(addressInRanges('2001:db8:2::9', ranges)).toBe(false);
  });

  it('reads an IPv4-mapped client as IPv4, and keeps the families apart otherwise', () => {
    expect(addressInRanges('::ffff:203.0.113.9', ['203.0.113.0/24'])).toBe(true);
    expect(addressInRanges('203.0.113.9', ['::/0'])).toBe(false);
    expect(addressInRanges('2001:db8::1', ['0.0.0.0/0'])).toBe(false);
  });

  it('takes host bits in a range and lets no unreadable client in', () => {
    expect(addressInRanges('10.200.0.1', ['10.1.2.3/8'])).toBe(true);
    expect(addressInRanges('', ['0.0.0.0/0'])).toBe(false);
    expect(addressInRanges('not an address', ['0.0.0.0/0'])).toBe(false);
  });
});
