import type { Collection, Db } from 'mongodb';
import { getDomain } from 'tldts';
import { fetch } from 'undici';
import { domain as whoisDomain, query as whoisQuery } from 'whoiser';
import type { Observation } from '../checks/index.js';
import type { CollectionIndexes } from '../db/index.js';
import { errorMessage } from '../errors/index.js';
import { rdapExpiry, whoisExpiry } from './expiry-parsing.js';

interface CachedExpiry {
  _id: string;
  expiresAt: Date | null;
  error: string | null;
  source: 'rdap' | 'whois' | null;
  checkedAt: Date;
}

export const DOMAIN_EXPIRY = 'domain_expiry';
export const domainExpiryIndexes: CollectionIndexes = { collection: DOMAIN_EXPIRY, indexes: [] };

/** Answers are reused for a day; failed lookups are tried again after an hour. */
const FRESH_MS = 24 * 3_600_000;
const RETRY_FAILED_MS = 3_600_000;
const LOOKUP_TIMEOUT_MS = 10_000;

export interface DomainExpiryOptions {
  rdapBaseUrl: string;
  /** host or host:port; unset: the registry's WHOIS server found through IANA. */
  whoisServer?: string;
}

async function fromRdap(domain: string, baseUrl: string): Promise<Date | null> {
  // fetch follows redirects: rdap.org sends each query on to the registry's own RDAP server.
  const response = await fetch(`${baseUrl.replace(/\/$/, '')}/domain/${encodeURIComponent(domain)}`, {
    headers: { accept: 'application/rdap+json, application/json' },
    signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`RDAP answered ${response.status}`);
  }
  return rdapExpiry(await response.json());
}

async function fromWhois(domain: string, server: string | undefined): Promise<Date | null> {
  if (server) {
    const [host, port] = server.split(':');
    return whoisExpiry(
      await whoisQuery({ host, port: port ? Number(port) : 43, query: domain, timeout: LOOKUP_TIMEOUT_MS }),
    );
  }
  const answers = await whoisDomain(domain, { follow: 1, timeout: LOOKUP_TIMEOUT_MS, raw: true });
  for (const answer of Object.values(answers)) {
    const raw = (answer as { __raw?: unknown }).__raw;
    const date = typeof raw === 'string' ? whoisExpiry(raw) : null;
    if (date) return date;
  }
  return null;
}

/**
 * When a website's registrable domain (tldts) expires: RDAP first, WHOIS as the fallback, cached
 * per domain in MongoDB for a day so thousands of websites on one domain cost one lookup. Checks
 * of one domain that arrive while its lookup runs share it (no burst of RDAP queries when the
 * cached answer of a popular domain expires).
 */
export function createDomainExpiryLookup(db: Db, options: DomainExpiryOptions) {
  const cache: Collection<CachedExpiry> = db.collection<CachedExpiry>(DOMAIN_EXPIRY);
  const inFlight = new Map<string, Promise<NonNullable<Observation['domain']>>>();

  const lookUp = async (domain: string): Promise<NonNullable<Observation['domain']>> => {
    const cached = await cache.findOne({ _id: domain });
    const age = cached ? Date.now() - cached.checkedAt.getTime() : Number.POSITIVE_INFINITY;
    if (cached && age < (cached.expiresAt ? FRESH_MS : RETRY_FAILED_MS)) {
      return { name: domain, expiresAt: cached.expiresAt, error: cached.error };
    }
    const errors: string[] = [];
    let expiresAt: Date | null = null;
    let source: CachedExpiry['source'] = null;
    try {
      expiresAt = await fromRdap(domain, options.rdapBaseUrl);
      if (expiresAt) source = 'rdap';
      else errors.push('RDAP answer has no expiration date');
    } catch (error) {
      errors.push(`RDAP: ${errorMessage(error)}`);
    }
    if (!expiresAt) {
      try {
        expiresAt = await fromWhois(domain, options.whoisServer);
        if (expiresAt) source = 'whois';
        else errors.push('WHOIS answer has no expiration date');
      } catch (error) {
        errors.push(`WHOIS: ${errorMessage(error)}`);
      }
    }
    const error = expiresAt ? null : errors.join('; ');
    await cache.replaceOne(
      { _id: domain },
      { expiresAt, error, source, checkedAt: new Date() },
      { upsert: true },
    );
    return { name: domain, expiresAt, error };
  };

  return (hostname: string): Promise<NonNullable<Observation['domain']>> => {
    const domain = getDomain(hostname);
    if (!domain)
      return Promise.resolve({
        name: hostname,
        expiresAt: null,
        error: 'no registrable domain (an IP address or a bare name)',
      });
    const running = inFlight.get(domain);
    if (running) return running;
    const lookup = lookUp(domain).finally(() => inFlight.delete(domain));
    inFlight.set(domain, lookup);
    return lookup;
  };
}

/** When the registrable domains of these hosts expire, as last looked up (null: not known); no lookup is made. */
export async function knownDomainExpiries(
  db: Db,
  hostnames: readonly string[],
): Promise<Map<string, Date | null>> {
  const domains = new Map(hostnames.map((host) => [host, getDomain(host)]));
  const wanted = [...new Set([...domains.values()].filter((d): d is string => Boolean(d)))];
  const cached =
    wanted.length === 0
      ? []
      : await db
          .collection<CachedExpiry>(DOMAIN_EXPIRY)
          .find({ _id: { $in: wanted } })
          .toArray();
  const expiry = new Map(cached.map((c) => [c._id, c.expiresAt]));
  return new Map(hostnames.map((host) => [host, expiry.get(domains.get(host) ?? '') ?? null]));
}
