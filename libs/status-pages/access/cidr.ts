import ipaddr from 'ipaddr.js';

/** A CIDR range as written (`203.0.113.0/24`, `2001:db8::/32`) or a single address (a /32 or /128). */
export interface AddressRange {
  address: ipaddr.IPv4 | ipaddr.IPv6;
  prefix: number;
}

/**
 * The range `text` writes, or null when it writes none: an IPv4 or IPv6 address with an optional
 * `/prefix` within its family's bits, host bits allowed (`10.1.2.3/8` is `10.0.0.0/8`). IPv4 only
 * in dotted quads: ipaddr.js's lenient forms (`10.1`, octal, hex) are not what people mean.
 */
export function parseAddressRange(text: string): AddressRange | null {
  const [addressText, prefixText, ...rest] = text.trim().split('/');
  if (rest.length > 0 || !addressText) return null;
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  if (ipaddr.IPv4.isValidFourPartDecimal(addressText)) address = ipaddr.IPv4.parse(addressText);
  else if (ipaddr.IPv6.isValid(addressText) && !addressText.includes('%'))
    address = ipaddr.IPv6.parse(addressText);
  else return null;
  const bits = address.kind() === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: bits };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  return prefix <= bits ? { address, prefix } : null;
}

/** Why `text` is not a range people may list, or null when it is one. */
export function addressRangeProblem(text: string): string | null {
  return parseAddressRange(text)
    ? null
    : 'must be an IPv4 or IPv6 address or CIDR range, such as 203.0.113.0/24 or 2001:db8::/48';
}

/**
 * The client's address as ipaddr.js reads it, an IPv4-mapped IPv6 address (`::ffff:203.0.113.9`,
 * what a dual-stack socket reports for an IPv4 peer) read as the IPv4 address it is.
 */
function clientAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.isValid(text)) return null;
  const parsed = ipaddr.parse(text);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
}

/** Whether the client address `client` is in one of `ranges` (each as `parseAddressRange` reads it). */
export function addressInRanges(client: string, ranges: readonly string[]): boolean {
  const address = clientAddress(client);
  if (!address) return false;
  return ranges.some((text) => {
    const range = parseAddressRange(text);
    if (!range) return false;
    // An IPv4 range matches IPv4 clients only (a mapped address was read as IPv4 above).
    if (range.address.kind() !== address.kind()) return false;
    return address.match([range.address, range.prefix] as [typeof address, number]);
  });
}
