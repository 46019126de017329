import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { conflict, invalidInput, notFound } from '../../errors/index.js';
import type { RedisMutex } from '../../locks/index.js';
import { resolveDns } from '../../probe/index.js';
import { REVISION_UNKNOWN, type Revision, type StatusPageRevisions } from '../page-revisions.js';
import type { StatusPageDocument } from '../status-page.repository.js';
import type { DomainClaim, StatusPageDomainRepository } from './domain.repository.js';
import { type StatusPageDomainView, toDomainView } from './domain.schema.js';
import { isAgencyHost, parseDomainHost } from './host-name.js';
import { challengeName, judgeVerification } from './verification.js';
import type { VerifiedHostIndex } from './verified-hosts.js';

/** Domains one page may have. */
export const MAX_DOMAINS_PER_PAGE = 10;
/** The whole DNS check of a domain (its CNAME and TXT questions, asked at once). */
const DNS_TIMEOUT_MS = 5_000;
/** How long a process trusts a page's slug it read without a change to the slug's revision. */
const SLUG_KEPT_MS = 60_000;

/** A request by a verified page domain: the page it serves. */
export interface StatusPageDomainTarget {
  host: string;
  organizationId: number;
  pageId: number;
  slug: string;
}

export interface StatusPageDomainsDeps {
  domains: StatusPageDomainRepository;
  verified: VerifiedHostIndex;
  pages: { findById(organizationId: number, id: number): Promise<StatusPageDocument | null> };
  revisions: StatusPageRevisions;
  mutex: RedisMutex;
  /** The DNS resolvers checks use (`DNS_RESOLVERS`; empty: the system's). */
  resolvers: readonly string[];
  /** The CNAME target that verifies a domain (`STATUS_PAGES_HOST`); unset: TXT only. */
  statusPagesHost: string | undefined;
  /** The agency's own hosts (PUBLIC_URL's, STATUS_PAGES_HOST): never a page's domain. */
  agencyHosts: readonly string[];
}

const newToken = () => `webmon-domain-verification=${randomBytes(18).toString('base64url')}`;

/**
 * Custom domains of status pages: claimed by a page, verified by DNS (a CNAME to the agency's status
 * host or the domain's token in TXT), then served by `Host` and given certificates. A claim blocks
 * nobody; only a verified host is one page's (MongoDB's unique `_id`), and Redis holds the verified
 * hosts so every API process serves and stops serving one at once.
 */
export class StatusPageDomains {
  private readonly slugs = new LRUCache<string, { slug: string | null; revision: Revision }>({
    max: 10_000,
    ttl: SLUG_KEPT_MS,
  });

  constructor(private readonly deps: StatusPageDomainsDeps) {}

  /** Whether a request's host is the agency's own (an IP address, localhost, PUBLIC_URL's, STATUS_PAGES_HOST). */
  isAgencyHost(host: string): boolean {
    return isAgencyHost(host, this.deps.agencyHosts);
  }

  private view(claim: DomainClaim): StatusPageDomainView {
    return toDomainView(claim, this.deps.statusPagesHost);
  }

  private async requirePage(organizationId: number, pageId: number): Promise<void> {
    if (!(await this.deps.pages.findById(organizationId, pageId))) throw notFound(`No status page ${pageId}`);
  }

  private lock<T>(organizationId: number, pageId: number, work: () => Promise<T>): Promise<T> {
    return this.deps.mutex.withLock(`status-page-domains:${organizationId}:${pageId}`, work);
  }

  /** The host as stored, or a 400 naming `field`. */
  private host(input: string, field: string): string {
    const parsed = parseDomainHost(input, this.deps.agencyHosts);
    if (parsed.host === undefined)
      throw invalidInput(`Not a domain for a status page: ${parsed.problem}`, [
        { path: field, message: parsed.problem },
      ]);
    return parsed.host;
  }

  /** A 409 naming `field` when another page holds the host verified. */
  private async refuseHeld(organizationId: number, pageId: number, host: string, field: string) {
    const holder = await this.deps.domains.holderOf(host);
    if (!holder || (holder.organizationId === organizationId && holder.pageId === pageId)) return;
    const message =
      holder.organizationId === organizationId
        ? `${host} is verified for your status page ${holder.pageId}; remove it there first`
        : `${host} is verified for another organization's status page`;
    throw conflict(message, [{ path: field, message }]);
  }

  private async claimOf(organizationId: number, pageId: number, host: string): Promise<DomainClaim> {
    const claim = (await this.deps.domains.ofPage(organizationId, pageId)).find((c) => c.host === host);
    if (!claim) throw notFound(`${host} is not a domain of status page ${pageId}`);
    return claim;
  }

  async list(organizationId: number, pageId: number): Promise<StatusPageDomainView[]> {
    await this.requirePage(organizationId, pageId);
    return (await this.deps.domains.ofPage(organizationId, pageId)).map((claim) => this.view(claim));
  }

  async add(organizationId: number, pageId: number, input: string): Promise<StatusPageDomainView> {
    const host = this.host(input, 'host');
    await this.requirePage(organizationId, pageId);
    await this.refuseHeld(organizationId, pageId, host, 'host');
    return this.lock(organizationId, pageId, async () => {
      const claims = await this.deps.domains.ofPage(organizationId, pageId);
      if (claims.some((claim) => claim.host === host)) {
        const message = `${host} is a domain of this page already`;
        throw conflict(message, [{ path: 'host', message }]);
      }
      if (claims.length >= MAX_DOMAINS_PER_PAGE) {
        const message = `a status page may have ${MAX_DOMAINS_PER_PAGE} domains`;
        throw conflict(message, [{ path: 'host', message }]);
      }
      const claim = newClaim(host);
      await this.deps.domains.savePage(organizationId, pageId, [...claims, claim]);
      return this.view(claim);
    });
  }

  /**
   * Asks DNS now (outside the lock: up to 5 s) and records the outcome. A verified domain stays
   * verified when a later check fails (its certificate and visitors keep working while DNS changes
   * hands); removing it is what stops it.
   */
  async verify(organizationId: number, pageId: number, input: string): Promise<StatusPageDomainView> {
    const host = this.host(input, 'host');
    await this.requirePage(organizationId, pageId);
    const { token } = await this.claimOf(organizationId, pageId, host);
    const { statusPagesHost, resolvers } = this.deps;
    const [cname, txt] = await Promise.all([
      statusPagesHost
        ? resolveDns({ name: host, recordType: 'CNAME', timeoutMs: DNS_TIMEOUT_MS }, { resolvers })
        : null,
      resolveDns({ name: challengeName(host), recordType: 'TXT', timeoutMs: DNS_TIMEOUT_MS }, { resolvers }),
    ]);
    const decision = judgeVerification(host, { cname, txt }, { token, statusPagesHost });
    let taken = false;
    const checked = await this.lock(organizationId, pageId, async () => {
      const claims = await this.deps.domains.ofPage(organizationId, pageId);
      const current = claims.find((claim) => claim.host === host);
      if (!current) throw notFound(`${host} is not a domain of status page ${pageId}`);
      const now = new Date();
      let { verifiedAt } = current;
      let lastCheck = decision.outcome;
      if (decision.verified) {
        taken = (await this.deps.domains.hold(host, organizationId, pageId, now)) === 'taken';
        if (taken) lastCheck = 'Not verified: another status page holds this domain verified';
        else {
          await this.deps.verified.add(host, { organizationId, pageId });
          verifiedAt ??= now;
        }
      } else if (verifiedAt) lastCheck = `${decision.outcome}; it stays verified until removed`;
      const updated: DomainClaim = { ...current, verifiedAt, checkedAt: now, lastCheck };
      await this.deps.domains.savePage(
        organizationId,
        pageId,
        claims.map((claim) => (claim.host === host ? updated : claim)),
      );
      return updated;
    });
    if (taken) {
      const message = `${host} is verified for another status page`;
      throw conflict(message, [{ path: 'host', message }]);
    }
    return this.view(checked);
  }

  async remove(organizationId: number, pageId: number, input: string): Promise<void> {
    const host = this.host(input, 'host');
    await this.requirePage(organizationId, pageId);
    await this.lock(organizationId, pageId, async () => {
      const claims = await this.deps.domains.ofPage(organizationId, pageId);
      const claim = claims.find((c) => c.host === host);
      if (!claim) throw notFound(`${host} is not a domain of status page ${pageId}`);
      await this.release(organizationId, pageId, claim);
      await this.deps.domains.savePage(
        organizationId,
        pageId,
        claims.filter((c) => c !== claim),
      );
    });
  }

  /**
   * The page's domains become `hosts` (`PATCH /api/status-pages/{id} {domains}`): new ones are
   * claimed unverified, missing ones removed, kept ones keep their token and verification. Each
   * bad host is a 400 (or 409 when another page holds it verified) naming `domains.<index>`.
   */
  async replace(
    organizationId: number,
    pageId: number,
    hosts: readonly string[],
  ): Promise<StatusPageDomainView[]> {
    const wanted = await this.checkHosts(organizationId, pageId, hosts);
    return this.lock(organizationId, pageId, async () => {
      const claims = await this.deps.domains.ofPage(organizationId, pageId);
      for (const claim of claims)
        if (!wanted.includes(claim.host)) await this.release(organizationId, pageId, claim);
      const next = wanted.map((host) => claims.find((claim) => claim.host === host) ?? newClaim(host));
      await this.deps.domains.savePage(organizationId, pageId, next);
      return next.map((claim) => this.view(claim));
    });
  }

  /**
   * The hosts a page's domains would become, as stored (punycode, lowercase), or the 400/409 naming
   * `domains.<index>`: asked before the page's other changes are written, so a bad domain changes nothing.
   */
  async checkHosts(organizationId: number, pageId: number, hosts: readonly string[]): Promise<string[]> {
    const wanted = hosts.map((input, index) => this.host(input, `domains.${index}`));
    const repeated = wanted.findIndex((host, index) => wanted.indexOf(host) !== index);
    if (repeated >= 0)
      throw invalidInput('A domain is given twice', [
        { path: `domains.${repeated}`, message: 'is given twice' },
      ]);
    if (wanted.length > MAX_DOMAINS_PER_PAGE)
      throw invalidInput(`A status page may have ${MAX_DOMAINS_PER_PAGE} domains`, [
        { path: 'domains', message: `must hold at most ${MAX_DOMAINS_PER_PAGE} domains` },
      ]);
    for (const [index, host] of wanted.entries())
      await this.refuseHeld(organizationId, pageId, host, `domains.${index}`);
    return wanted;
  }

  /** The page is deleted: its domains go, and stop being served and certified at once. */
  async removeAllOf(organizationId: number, pageId: number): Promise<void> {
    await this.lock(organizationId, pageId, async () => {
      const claims = await this.deps.domains.ofPage(organizationId, pageId);
      for (const claim of claims) await this.release(organizationId, pageId, claim);
      await this.deps.domains.savePage(organizationId, pageId, []);
    });
  }

  private async release(organizationId: number, pageId: number, claim: DomainClaim): Promise<void> {
    if (claim.verifiedAt === null) return;
    const holder = await this.deps.domains.holderOf(claim.host);
    await this.deps.domains.release(claim.host, organizationId, pageId);
    if (holder?.organizationId === organizationId && holder.pageId === pageId)
      await this.deps.verified.remove(claim.host);
  }

  /** Whether `host` is a verified page domain (the TLS ask): one Redis read. */
  async isVerified(host: string): Promise<boolean> {
    return (await this.deps.verified.lookup(host)) !== null;
  }

  /** Fills Redis's verified hosts from MongoDB if it has none (the API's start). */
  prepare(): Promise<void> {
    return this.deps.verified.ensureLoaded();
  }

  /**
   * The page a verified host serves, or null: the host's page from Redis, its slug from memory
   * while the slug's revision is unchanged (a rename changes it), else read by the page's id. A
   * request by domain costs what one by slug does, plus two Redis reads.
   */
  async resolve(host: string): Promise<StatusPageDomainTarget | null> {
    const holder = await this.deps.verified.lookup(host);
    if (!holder) return null;
    const slug = await this.slugOf(holder.organizationId, holder.pageId);
    return slug === null ? null : { host, ...holder, slug };
  }

  private async slugOf(organizationId: number, pageId: number): Promise<string | null> {
    const key = `${organizationId}:${pageId}`;
    const known = this.slugs.get(key);
    if (known && (known.slug === null || (await this.deps.revisions.ofSlug(known.slug)) === known.revision))
      return known.slug;
    const page = await this.deps.pages.findById(organizationId, pageId);
    if (!page) {
      this.slugs.set(key, { slug: null, revision: null }, { ttl: 5_000 });
      return null;
    }
    const revision = await this.deps.revisions.ofSlug(page.slug);
    // Read again after the revision: a rename between the two reads is then not kept as current.
    const again = await this.deps.pages.findById(organizationId, pageId);
    if (revision !== REVISION_UNKNOWN && again?.slug === page.slug)
      this.slugs.set(key, { slug: page.slug, revision });
    return again?.slug ?? null;
  }
}

function newClaim(host: string): DomainClaim {
  return { host, token: newToken(), addedAt: new Date(), verifiedAt: null, checkedAt: null, lastCheck: null };
}
