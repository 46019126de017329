import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A host name or why it cannot be a page's domain, in words for the person who typed it. */
export type DomainHostParse = { host: string; problem?: undefined } | { host?: undefined; problem: string };

/** `localhost` and its subdomains (RFC 6761): never anyone's domain on the internet. */
export const isLocalhost = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/**
 * The domain a person typed as stored: ASCII (an IDN as punycode), lowercased, without a trailing
 * dot. Refused: an IP address, a wildcard, a URL (scheme, port or path), a single label, a numeric
 * top-level label (`1.2.3` is an address to some resolvers) and the agency's own hosts.
 */
export function parseDomainHost(input: string, agencyHosts: readonly string[]): DomainHostParse {
  const typed = input.trim();
  if (typed === '') return { problem: 'is required' };
  if (typed.includes('*')) return { problem: 'must be one host name, not a wildcard' };
  const bare = typed.startsWith('[') && typed.endsWith(']') ? typed.slice(1, -1) : typed;
  if (isIP(bare) !== 0) return { problem: 'must be a host name, not an IP address' };
  if (/[/:@?#\s]/.test(typed))
    return { problem: 'must be a host name alone, such as status.example.com (no scheme, port or path)' };
  const withoutDot = typed.replace(/\.$/, '');
  const ascii = /^\p{ASCII}*$/u.test(withoutDot) ? withoutDot.toLowerCase() : domainToASCII(withoutDot);
  if (ascii === '') return { problem: `"${typed}" is not a valid host name` };
  const labels = ascii.split('.');
  if (ascii.length > 253 || !labels.every((label) => LABEL.test(label)))
    return { problem: `"${typed}" is not a valid host name` };
  if (isLocalhost(ascii) || agencyHosts.includes(ascii))
    return { problem: `${ascii} is the service's own host, not a domain for a page` };
  if (labels.length < 2) return { problem: 'must be a full host name, such as status.example.com' };
  if (isIP(ascii) !== 0 || /^[0-9]+$/.test(labels.at(-1) ?? ''))
    return { problem: 'must be a host name, not an IP address' };
  return { host: ascii };
}

/**
 * The host a request names, as compared with stored domains: its `Host` without the port,
 * lowercased, without a trailing dot; IPv6 without brackets. Null for none.
 */
export function hostOfHeader(header: string | undefined): string | null {
  const value = (header ?? '').trim().toLowerCase();
  if (value === '') return null;
  const bracketed = /^\[([^\]]+)\](?::\d*)?$/.exec(value);
  if (bracketed) return bracketed[1] ?? null;
  // A bare IPv6 (no brackets) has several colons: no port to strip.
  const host = (value.split(':').length > 2 ? value : value.replace(/:\d*$/, '')).replace(/\.$/, '');
  return host === '' ? null : host;
}

/**
 * The agency's own hosts: IP addresses, localhost, a single label (a service name such as `api`,
 * which a proxy that does not keep `Host` sends, and which no page domain can be), and the
 * configured ones (PUBLIC_URL's, STATUS_PAGES_HOST).
 */
export function isAgencyHost(host: string, agencyHosts: readonly string[]): boolean {
  return isIP(host) !== 0 || isLocalhost(host) || !host.includes('.') || agencyHosts.includes(host);
}
