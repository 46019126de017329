import { Resolver } from 'node:dns/promises';
import { isIPv4, isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';
import { errorMessage } from '../errors/index.js';

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'CAA'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

export interface DnsQuery {
  name: string;
  recordType: DnsRecordType;
  timeoutMs: number;
}

export type DnsErrorCode =
  | 'NXDOMAIN'
  | 'SERVFAIL'
  | 'TIMEOUT'
  | 'REFUSED'
  | 'NODATA'
  | 'CONNREFUSED'
  | 'OTHER';

export interface DnsObservation {
  startedAt: Date;
  /** The answer's values, each normalised (normalizeDnsValue) and sorted, deduplicated; [] on error. */
  values: string[];
  /**
   * null when answered; else the failure by its DNS name: NXDOMAIN, SERVFAIL, TIMEOUT, REFUSED,
   * NODATA (no record of that type), CONNREFUSED, or OTHER, with a message in words for people.
   */
  error: { code: DnsErrorCode; message: string } | null;
  /** Which resolver answered or was asked ("127.0.0.1:5353"); "system" when none configured. */
  resolver: string;
  durationMs: number;
}

// ---------------------------------------------------------------------------------------------
// Pure: resolver lists and values (the API calls these at write time to refuse bad input).
// ---------------------------------------------------------------------------------------------

const PORT = /^[0-9]{1,5}$/;

/** One resolver as `setServers` takes it, or null when it is not an IP literal with an optional port. */
function resolverEntry(entry: string): string | null {
  const validPort = (port: string) => PORT.test(port) && Number(port) >= 1 && Number(port) <= 65_535;
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
  if (bracketed) {
    const [, address = '', port] = bracketed;
    // A zone id (fe80::1%eth0) names an interface of one machine: not a resolver address to configure.
    if (!isIPv6(address) || address.includes('%')) return null;
    return port === undefined ? entry : validPort(port) ? entry : null;
  }
  if (isIPv6(entry)) return entry.includes('%') ? null : entry;
  const [address = '', port, extra] = entry.split(':');
  if (!isIPv4(address) || extra !== undefined) return null;
  return port === undefined || validPort(port) ? entry : null;
}

/**
 * The resolvers of a list such as "1.1.1.1, 127.0.0.1:5353, [::1]:53" (commas or spaces between
 * them); [] for nothing (the system's resolvers). Only IP literals: a resolver named by a host name
 * would need a resolver of its own to be found.
 */
export function parseDnsResolvers(text: string | undefined): string[] {
  const entries = (text ?? '').split(/[\s,]+/).filter((entry) => entry !== '');
  for (const entry of entries) {
    if (resolverEntry(entry) === null)
      throw new Error(
        `"${entry}" is not a DNS resolver address: give an IP address with an optional port, ` +
          'such as 1.1.1.1, 127.0.0.1:5353, 2606:4700:4700::1111 or [::1]:53 (host names are not accepted)',
      );
  }
  return [...new Set(entries)];
}

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** A host name lowercased without its trailing dot; the root (null MX, RFC 7505) is ".". */
function hostName(value: string, strict: boolean): string {
  const trimmed = value.trim();
  if (trimmed === '.' || trimmed === '') {
    if (strict && trimmed === '') throw new Error('a host name is required');
    return '.';
  }
  // People may type an internationalised name; DNS answers carry its ASCII (xn--) form.
  const ascii = /^\p{ASCII}*$/u.test(trimmed) ? trimmed : domainToASCII(trimmed);
  const name = ascii.toLowerCase().replace(/\.$/, '');
  if (strict && (name.length > 253 || !name.split('.').every((label) => LABEL.test(label))))
    throw new Error(`"${value}" is not a valid host name`);
  return name;
}

function ipv6(value: string): string {
  const trimmed = value.trim();
  if (!ipaddr.IPv6.isValid(trimmed) || trimmed.includes('%'))
    throw new Error(`"${value}" is not an IPv6 address (an AAAA value is one, such as 2001:db8::1)`);
  // RFC 5952: lowercase, leading zeros dropped, the longest run of zero groups as "::".
  return ipaddr.IPv6.parse(trimmed).toRFC5952String();
}

/** `0 issue "letsencrypt.org"`: flags, lowercase tag, value quoted (RFC 8659 presentation). */
function caa(flags: number, tag: string, value: string): string {
  return `${flags} ${tag.toLowerCase()} "${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

const CAA_TEXT = /^(\d{1,3})\s+([A-Za-z0-9]{1,15})\s+(?:"((?:[^"\\]|\\.)*)"|([^\s"]+))$/;

/**
 * The canonical form of a value of `recordType`, whether a DNS answer's or one a person typed, so
 * that expected and observed values compare as strings: names lowercase without the trailing dot,
 * IPv6 in RFC 5952 form, MX as "<priority> <exchange>", CAA as `<flags> <tag> "<value>"`, TXT as is.
 * Throws an Error saying what is wrong for a value that is not one of that type.
 */
export function normalizeDnsValue(recordType: DnsRecordType, value: string): string {
  switch (recordType) {
    case 'A': {
      const address = value.trim();
      if (!isIPv4(address))
        throw new Error(`"${value}" is not an IPv4 address (an A value is one, such as 192.0.2.1)`);
      return address;
    }
    case 'AAAA':
      return ipv6(value);
    case 'CNAME':
    case 'NS':
      if (value.trim() === '.') throw new Error(`a ${recordType} value names a host, not the root "."`);
      return hostName(value, true);
    case 'MX': {
      const match = /^(\d{1,5})\s+(\S+)$/.exec(value.trim());
      const priority = Number(match?.[1]);
      if (!match || priority > 65_535)
        throw new Error(
          `"${value}" is not an MX value: give "<priority> <mail server>", such as "10 mx1.example.com"`,
        );
      return `${priority} ${hostName(match[2] ?? '', true)}`;
    }
    case 'TXT':
      // TXT is text: its case and spaces are meaningful (SPF, verification tokens).
      return value;
    case 'CAA': {
      const match = CAA_TEXT.exec(value.trim());
      const flags = Number(match?.[1]);
      if (!match || flags > 255)
        throw new Error(
          `"${value}" is not a CAA value: give '<flags> <tag> "<value>"', such as '0 issue "letsencrypt.org"'`,
        );
      const quoted = match[3];
      const text = quoted === undefined ? (match[4] ?? '') : quoted.replace(/\\(.)/g, '$1');
      return caa(flags, match[2] ?? '', text);
    }
  }
}

/** Values for comparison as a set: sorted, each once. */
function valueSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

// ---------------------------------------------------------------------------------------------
// I/O: one query through node's resolver (c-ares), bounded by the query's timeout.
// ---------------------------------------------------------------------------------------------

/** An answer's values in canonical form; a value a server sends that we would refuse is kept as sent. */
async function query(resolver: Resolver, name: string, recordType: DnsRecordType): Promise<string[]> {
  const lenient = (type: DnsRecordType, value: string) => {
    try {
      return normalizeDnsValue(type, value);
    } catch {
      return value;
    }
  };
  switch (recordType) {
    case 'A':
      return (await resolver.resolve4(name)).map((v) => lenient('A', v));
    case 'AAAA':
      return (await resolver.resolve6(name)).map((v) => lenient('AAAA', v));
    case 'CNAME':
      return (await resolver.resolveCname(name)).map((v) => hostName(v, false));
    case 'NS':
      return (await resolver.resolveNs(name)).map((v) => hostName(v, false));
    case 'MX':
      return (await resolver.resolveMx(name)).map((mx) => `${mx.priority} ${hostName(mx.exchange, false)}`);
    case 'TXT':
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    case 'CAA':
      // Node gives {critical: <flags byte>, <tag>: <value>}.
      return (await resolver.resolveCaa(name)).flatMap((record) =>
        Object.entries(record)
          .filter(([tag, value]) => tag !== 'critical' && typeof value === 'string')
          .map(([tag, value]) => caa(record.critical, tag, String(value))),
      );
  }
}

/** Node's (c-ares') error codes: the failure's DNS name, and what it means in words. */
const ERROR_WORDS: Record<string, [DnsErrorCode, string]> = {
  ENOTFOUND: ['NXDOMAIN', 'the name does not exist'],
  ESERVFAIL: ['SERVFAIL', 'the DNS server failed to answer (server failure)'],
  ETIMEOUT: ['TIMEOUT', 'the DNS server did not answer in time'],
  EREFUSED: ['REFUSED', 'the DNS server refused to answer'],
  ENODATA: ['NODATA', 'the name exists but has no record of this type'],
  ECONNREFUSED: ['CONNREFUSED', 'the DNS server refused the connection (nothing listens on its port)'],
  EBADNAME: ['OTHER', 'the name is not a valid DNS name'],
  EFORMERR: ['OTHER', 'the DNS server could not read the query (format error)'],
  ENOTIMP: ['OTHER', 'the DNS server does not implement this kind of query'],
  EBADRESP: ['OTHER', 'the DNS server sent an answer that could not be read'],
};

function classify(error: unknown, where: string): { code: DnsErrorCode; message: string } {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const known = ERROR_WORDS[code];
  if (known)
    return { code: known[0], message: `${known[0] === 'OTHER' ? code : known[0]}: ${known[1]} (${where})` };
  const detail = errorMessage(error);
  return { code: 'OTHER', message: `DNS query failed: ${detail} (${where})` };
}

const roundMs = (ms: number) => Math.round(ms * 100) / 100;

type Outcome =
  | { values: string[]; error: null }
  | { values: []; error: NonNullable<DnsObservation['error']> };

/**
 * One query to `servers` (the system's when null), ended by our own timer after `timeoutMs`:
 * Node checks c-ares' timeouts on a tick of up to 1 s, so its own ETIMEOUT comes between
 * one and two timeouts late.
 */
async function attempt(
  servers: string[] | null,
  name: string,
  recordType: DnsRecordType,
  timeoutMs: number,
  where: string,
): Promise<Outcome> {
  let resolver: Resolver;
  try {
    resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    if (servers) resolver.setServers(servers);
  } catch (error) {
    return { values: [], error: classify(error, where) };
  }
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const answered = query(resolver, name, recordType).then(
    (values): Outcome => ({ values, error: null }),
    (error: unknown): Outcome => ({ values: [], error: classify(error, where) }),
  );
  try {
    const outcome = await Promise.race([answered, timedOut]);
    if (outcome !== 'timeout') return outcome;
    // The pending query then fails with ECANCELLED, which `answered` absorbs.
    resolver.cancel();
    const message = `TIMEOUT: no answer from the DNS server within ${timeoutMs} ms (${where})`;
    return { values: [], error: { code: 'TIMEOUT', message } };
  } finally {
    clearTimeout(timer);
  }
}

/** Failures that are the name's answer, not the resolver's fault: asking another changes nothing. */
const ANSWERS = new Set<DnsErrorCode>(['NXDOMAIN', 'NODATA']);

/**
 * Asks `options.resolvers` (the system's when empty) for the `recordType` records of `name`.
 * Never throws: a failure is the observation's `error`. The whole call ends within `timeoutMs`.
 *
 * Configured resolvers are asked one at a time, in order, each with its share of the time left,
 * and the next one only when the last did not answer (timeout, refused, SERVFAIL...): we then know
 * which one answered. c-ares' own failover would not say, nor fit the budget (see `attempt`).
 */
export async function resolveDns(
  { name, recordType, timeoutMs }: DnsQuery,
  options: { resolvers: readonly string[] },
): Promise<DnsObservation> {
  const startedAt = new Date();
  const started = performance.now();
  const where = `${name}, ${recordType}`;
  const trimmed = name.trim();
  const ascii = /^\p{ASCII}*$/u.test(trimmed) ? trimmed : domainToASCII(trimmed) || trimmed;
  const finish = ({ values, error }: Outcome, resolver: string): DnsObservation => ({
    startedAt,
    values: valueSet(values),
    error,
    resolver,
    durationMs: roundMs(performance.now() - started),
  });

  if (options.resolvers.length === 0)
    return finish(await attempt(null, ascii, recordType, Math.max(1, timeoutMs), where), 'system');

  const deadline = started + timeoutMs;
  const failed: Array<{ resolver: string; outcome: Outcome }> = [];
  for (const [index, resolver] of options.resolvers.entries()) {
    // The first gets its exact share (the moments spent setting up are not worth a ragged number).
    const left = index === 0 ? timeoutMs : deadline - performance.now();
    const share = Math.floor(left / (options.resolvers.length - index));
    if (share < 1 && failed.length > 0) break;
    const outcome = await attempt([resolver], ascii, recordType, Math.max(1, share), where);
    if (outcome.error === null || ANSWERS.has(outcome.error.code)) return finish(outcome, resolver);
    failed.push({ resolver, outcome });
  }
  const last = failed.at(-1)!;
  if (failed.length === 1) return finish(last.outcome, last.resolver);
  const each = failed.map((f) => `${f.resolver} ${f.outcome.error?.code}`).join(', ');
  const error = last.outcome.error!;
  return finish(
    { values: [], error: { code: error.code, message: `${error.message}; no resolver answered: ${each}` } },
    failed.map((f) => f.resolver).join(', '),
  );
}
