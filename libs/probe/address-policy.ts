import { BlockList, isIP } from 'node:net';

/** Address ranges a monitoring probe must never be steered into (SSRF guard). */
const BLOCKED_V4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const BLOCKED_V6: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'discard'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique local'],
  ['fe80::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
];

/** One BlockList per reason, so a refusal can say why. */
const lists = new Map<string, BlockList>();
function block(ranges: Array<[string, number, string]>, type: 'ipv4' | 'ipv6'): void {
  for (const [network, prefix, reason] of ranges) {
    let list = lists.get(reason);
    if (!list) {
      list = new BlockList();
      lists.set(reason, list);
    }
    list.addSubnet(network, prefix, type);
  }
}
block(BLOCKED_V4, 'ipv4');
block(BLOCKED_V6, 'ipv6');

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible or NAT64 (64:ff9b::/96) IPv6 address. */
export function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:(?:0:)?|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:(?:0:)?|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1]!, 16);
  const low = Number.parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * Why the address may not be probed (e.g. "loopback"), or undefined when it is a public address.
 * IPv4 carried in IPv6 forms is judged as the IPv4 address it is.
 */
export function blockedReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  const inner = family === 6 ? embeddedIpv4(address) : undefined;
  if (inner) return blockedReason(inner);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [reason, list] of lists) {
    if (list.check(address, type)) return reason;
  }
  if (family === 4 && address === '255.255.255.255') return 'broadcast';
  return undefined;
}
