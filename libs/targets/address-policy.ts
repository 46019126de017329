import ipaddr from 'ipaddr.js';

/**
 * Why an address of a refused range may not be probed or sent to (SSRF guard), by ipaddr.js's
 * range name. Only global unicast passes; ranges not named here are refused with their own name.
 */
const REASONS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local (cloud metadata)',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  reserved: 'reserved',
  uniqueLocal: 'unique local',
  discard: 'discard',
  benchmarking: 'benchmarking',
  deprecated: 'deprecated',
};
const V6_LINK_LOCAL = 'link-local';

const v4 = (bytes: readonly number[]) => bytes.join('.');

/**
 * The IPv4 addresses an IPv6 address carries, by the standard forms that embed one: IPv4-mapped
 * (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), IPv4-compatible (::/96), NAT64
 * (64:ff9b::/96, and the local-use 64:ff9b:1::/48 in both its /48 and /96 layouts, RFC 6052/8215),
 * 6to4 (2002::/16) and Teredo (2001::/32: its server and its obfuscated client). Empty for others.
 */
export function embeddedIpv4(address: string): string[] {
  if (!ipaddr.IPv6.isValid(address)) return [];
  const parsed = ipaddr.IPv6.parse(address);
  const bytes = parsed.toByteArray();
  const last = bytes.slice(12, 16);
  switch (parsed.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4(last)];
    case 'rfc6052': {
      // 64:ff9b:1::/48 may carry it at the end (/96) or after the prefix (/48: bits 48-63 and
      // 72-87); a layout that gives 0.0.0.0 is not the one in use.
      const local = bytes[4] === 0 && bytes[5] === 1;
      const candidates = local
        ? [v4(last), v4([bytes[6], bytes[7], bytes[9], bytes[10]] as number[])]
        : [v4(last)];
      return candidates.filter((candidate) => candidate !== '0.0.0.0');
    }
    case '6to4':
      return [v4(bytes.slice(2, 6))];
    case 'teredo':
      return [v4(bytes.slice(4, 8)), v4(last.map((byte) => byte ^ 0xff))];
    default:
      // IPv4-compatible (deprecated, but still routed by some stacks): 96 zero bits, then IPv4.
      return bytes.slice(0, 12).every((byte) => byte === 0) && !['::', '::1'].includes(parsed.toString())
        ? [v4(last)]
        : [];
  }
}

/**
 * Why the address may not be probed (e.g. "loopback"), or undefined when it is a public address.
 * IPv4 carried in an IPv6 form is judged as the IPv4 address it is (every candidate, for forms
 * whose layout is ambiguous).
 */
export function blockedReason(address: string): string | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) {
    const range = ipaddr.IPv4.parse(address).range();
    return range === 'unicast' ? undefined : (REASONS[range] ?? range);
  }
  if (!ipaddr.IPv6.isValid(address) || address.includes('%')) return 'not an IP address';
  const inner = embeddedIpv4(address);
  if (inner.length > 0) {
    for (const candidate of inner) {
      const reason = blockedReason(candidate);
      if (reason) return `${reason} (IPv4 ${candidate} inside IPv6)`;
    }
    return undefined;
  }
  const range = ipaddr.IPv6.parse(address).range();
  if (range === 'unicast') return undefined;
  if (range === 'linkLocal') return V6_LINK_LOCAL;
  // 2001:db8::/32 is in ipaddr.js's "reserved"; say what it is.
  if (ipaddr.IPv6.parse(address).match(ipaddr.IPv6.parseCIDR('2001:db8::/32'))) return 'documentation';
  return REASONS[range] ?? range;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };

/** Where Redis and MongoDB listen by default: an exempt address without a port never opens them. */
export const STORE_PORTS: readonly number[] = [6379, 27017];

/**
 * A single address of a refused range that may be reached all the same (`PROBE_EXEMPT_ADDRESSES`):
 * on the one port it names, or on every port but `exceptPorts` (where the service's own stores
 * listen: an editor must not point a check at Redis on an exempt host).
 */
export type ExemptAddress =
  | { address: string; port: number }
  | { address: string; exceptPorts: readonly number[] };

/**
 * An entry of `PROBE_EXEMPT_ADDRESSES`: `10.0.0.5`, `10.0.0.5:8443`, `fd00::1` or `[fd00::1]:8443`;
 * one without a port exempts every port but `storePorts`. A string says why it is not one.
 */
export function parseExemptAddress(entry: string, storePorts: readonly number[]): ExemptAddress | string {
  const match = /^\[([^\]]+)\]:(\d{1,5})$|^([^:]+):(\d{1,5})$/.exec(entry);
  const address = match ? (match[1] ?? match[3] ?? '') : entry;
  if (!ipaddr.isValid(address) || address.includes('%'))
    return 'is not an IP address, IP:port or [IPv6]:port';
  // As URLs and sockets write it (fd00:0::1 is fd00::1), so entries match the addresses judged.
  const canonical = ipaddr.parse(address).toString();
  if (!match) return { address: canonical, exceptPorts: storePorts };
  const port = Number(match[2] ?? match[4]);
  if (port < 1 || port > 65535) return 'names no port between 1 and 65535';
  return { address: canonical, port };
}

/** What the operator lets probes and deliveries reach besides public addresses. */
export interface TargetGuard {
  allowPrivateTargets: boolean;
  exemptAddresses: readonly ExemptAddress[];
}

/**
 * Why `address` may not be reached under `guard` on `port`, or undefined. Without a port (a ping,
 * a check made when a target is written: judged again on its port when it connects) any exemption of
 * the address lets it through.
 */
export function refusalUnder(guard: TargetGuard, address: string, port?: number): string | undefined {
  if (guard.allowPrivateTargets) return undefined;
  const canonical = ipaddr.isValid(address) ? ipaddr.parse(address).toString() : address;
  const exempt = guard.exemptAddresses.some(
    (entry) =>
      entry.address === canonical &&
      (port === undefined || ('port' in entry ? entry.port === port : !entry.exceptPorts.includes(port))),
  );
  if (exempt) return undefined;
  const reason = blockedReason(address);
  return reason && port !== undefined && guard.exemptAddresses.some((entry) => entry.address === canonical)
    ? `${reason}; exempt, but not on port ${port}`
    : reason;
}

/**
 * Why a URL may not be stored as a target: its host is an IP literal of a refused range (as URL
 * parsing writes it: `http://0x7f000001/` and `http://127.1/` are 127.0.0.1). Host names are judged
 * when connecting, on every hop, since what they resolve to can change.
 */
export function refusedUrl(guard: TargetGuard, url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(host)) return undefined;
  const reason = refusalUnder(guard, host, Number(parsed.port) || DEFAULT_PORTS[parsed.protocol]);
  return (
    reason &&
    `${host} is ${reason}, which monitoring may not reach (the operator can allow it with ALLOW_PRIVATE_TARGETS)`
  );
}
