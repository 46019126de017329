import { describe, expect, it } from 'vitest';
import { blockedReason, embeddedIpv4, parseExemptAddress, refusalUnder } from './address-policy.js';

/** The SSRF matrix: every form an address can take, refused and allowed. */
describe('blockedReason', () => {
  it.each([
    // IPv4
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    // IPv6 itself
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00::1', 'unique local'],
    ['fc12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['100::1', 'discard'],
    ['2001:db8::1', 'documentation'],
    // IPv4-mapped
    ['::ffff:127.0.0.1', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
    ['::ffff:7f00:1', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
    ['::ffff:a9fe:a9fe', 'link-local (cloud metadata) (IPv4 169.254.169.254 inside IPv6)'],
    // IPv4-translated
    ['::ffff:0:a00:1', 'private (IPv4 10.0.0.1 inside IPv6)'],
    // IPv4-compatible, as URL parsing writes them
    ['::7f00:1', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
    ['::127.0.0.1', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
    ['::a9fe:a9fe', 'link-local (cloud metadata) (IPv4 169.254.169.254 inside IPv6)'],
    ['::a00:1', 'private (IPv4 10.0.0.1 inside IPv6)'],
    // NAT64, well-known and local-use (both layouts)
    ['64:ff9b::10.0.0.1', 'private (IPv4 10.0.0.1 inside IPv6)'],
    ['64:ff9b::7f00:1', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
    ['64:ff9b:1::a00:1', 'private (IPv4 10.0.0.1 inside IPv6)'],
    ['64:ff9b:1:a00:0:100::', 'private (IPv4 10.0.0.1 inside IPv6)'],
    // 6to4
    ['2002:a9fe:a9fe::', 'link-local (cloud metadata) (IPv4 169.254.169.254 inside IPv6)'],
    ['2002:7f00:1::1', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
    // Teredo: server 65.54.227.120, client 127.0.0.1 obfuscated (XOR 0xffffffff)
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback (IPv4 127.0.0.1 inside IPv6)'],
    ['2001:0:a00:1::1', 'private (IPv4 10.0.0.1 inside IPv6)'],
    // not addresses
    ['localhost', 'not an IP address'],
    ['fe80::1%eth0', 'not an IP address'],
    ['0x7f000001', 'not an IP address'],
    ['127.1', 'not an IP address'],
  ])('%s is refused (%s)', (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450::1',
    '::ffff:8.8.8.8',
    '::808:808',
    '64:ff9b::808:808',
    '64:ff9b::8.8.8.8',
    '64:ff9b:1::808:808',
    '64:ff9b:1:808:8:800::',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
  ])('%s is allowed', (address) => {
    expect(blockedReason(address)).toBeUndefined();
  });
});

describe('embeddedIpv4', () => {
  it.each([
    ['::ffff:1.2.3.4', ['1.2.3.4']],
    ['::ffff:0102:0304', ['1.2.3.4']],
    ['64:ff9b::0a00:0001', ['10.0.0.1']],
    ['64:ff9b:1:a00:0:100::', ['10.0.0.1']],
    ['64:ff9b:1::a00:1', ['10.0.0.1']],
    ['2002:0102:0304::', ['1.2.3.4']],
    ['::0102:0304', ['1.2.3.4']],
    ['2001:db8::1', []],
    ['::1', []],
  ])('%s → %j', (address, inner) => {
    expect(embeddedIpv4(address)).toEqual(inner);
  });
});

describe('exempt addresses (PROBE_EXEMPT_ADDRESSES)', () => {
  const guard = {
    allowPrivateTargets: false,
    exemptAddresses: [
      { address: '10.0.0.5', exceptPorts: [6379, 27017] },
      { address: '10.0.0.6', port: 8443 },
      { address: 'fd00::1', port: 8443 },
    ],
  };

  it.each([
    ['10.0.0.5', 443, undefined],
    ['10.0.0.5', 6379, 'private; exempt, but not on port 6379'],
    ['10.0.0.5', 27017, 'private; exempt, but not on port 27017'],
    ['10.0.0.6', 8443, undefined],
    ['10.0.0.6', 8444, 'private; exempt, but not on port 8444'],
    ['fd00:0:0::1', 8443, undefined],
    ['fd00::1', 22, 'unique local; exempt, but not on port 22'],
    ['10.0.0.7', 443, 'private'],
    // Without a port (a ping; a target judged when written, again on its port when it connects).
    ['10.0.0.6', undefined, undefined],
    ['10.0.0.7', undefined, 'private'],
  ])('%s port %s → %s', (address, port, reason) => {
    expect(refusalUnder(guard, address, port)).toBe(reason);
  });

  it.each([
    ['10.0.0.5', { address: '10.0.0.5', exceptPorts: [1] }],
    ['10.0.0.5:8443', { address: '10.0.0.5', port: 8443 }],
    ['[fd00::1]:8443', { address: 'fd00::1', port: 8443 }],
    ['fd00:0::1', { address: 'fd00::1', exceptPorts: [1] }],
    ['fd00::1:8443', { address: 'fd00::1:8443', exceptPorts: [1] }],
    ['10.0.0.5:0', 'names no port between 1 and 65535'],
    ['10.0.0.5:70000', 'names no port between 1 and 65535'],
    ['db.internal', 'is not an IP address, IP:port or [IPv6]:port'],
    ['[10.0.0.5]:80', { address: '10.0.0.5', port: 80 }],
  ])('reads %s', (entry, parsed) => {
    expect(parseExemptAddress(entry, [1])).toEqual(parsed);
  });
});
