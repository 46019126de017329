import type { Db } from 'mongodb';
import { isDuplicateKey } from '../../db/index.js';

/** One domain a page claims, verified or not. */
export interface DomainClaim {
  host: string;
  /** What the TXT record at `_webmon-challenge.<host>` must hold. */
  token: string;
  addedAt: Date;
  verifiedAt: Date | null;
  checkedAt: Date | null;
  /** The last check's outcome in words. */
  lastCheck: string | null;
}

/** A page's domains, one document per page (`_id` `<organizationId>:<pageId>`): listed by primary key. */
interface PageDomainsDocument {
  _id: string;
  organizationId: number;
  pageId: number;
  domains: DomainClaim[];
}

/**
 * A host verified for a page (`_id` the host): one page at most holds a host, whatever the
 * organization, because its insert fails on the `_id` taken (FerretDB's updates are not atomic,
 * its inserts are unique).
 */
export interface VerifiedHostDocument {
  _id: string;
  organizationId: number;
  pageId: number;
  verifiedAt: Date;
}

export const PAGE_DOMAINS = 'status_page_domains';
export const VERIFIED_HOSTS = 'status_page_hosts';

const pageKey = (organizationId: number, pageId: number) => `${organizationId}:${pageId}`;

/** Domains of status pages in MongoDB, read and written by primary key only (FerretDB 1.24 scans other filters). */
export class StatusPageDomainRepository {
  constructor(private readonly db: Db) {}

  private get pages() {
    return this.db.collection<PageDomainsDocument>(PAGE_DOMAINS);
  }

  private get hosts() {
    return this.db.collection<VerifiedHostDocument>(VERIFIED_HOSTS);
  }

  async ofPage(organizationId: number, pageId: number): Promise<DomainClaim[]> {
    const found = await this.pages.findOne({ _id: pageKey(organizationId, pageId) });
    return found?.organizationId === organizationId ? found.domains : [];
  }

  /** Replaces the page's domains (the caller holds the page's domain lock); none left, the document goes. */
  async savePage(organizationId: number, pageId: number, domains: DomainClaim[]): Promise<void> {
    const _id = pageKey(organizationId, pageId);
    if (domains.length === 0) await this.pages.deleteOne({ _id });
    else await this.pages.replaceOne({ _id }, { organizationId, pageId, domains }, { upsert: true });
  }

  holderOf(host: string): Promise<VerifiedHostDocument | null> {
    return this.hosts.findOne({ _id: host });
  }

  /** Takes the host for the page: 'held' (now or already), or 'taken' by another page. */
  async hold(host: string, organizationId: number, pageId: number, at: Date): Promise<'held' | 'taken'> {
    try {
      await this.hosts.insertOne({ _id: host, organizationId, pageId, verifiedAt: at });
      return 'held';
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      const holder = await this.holderOf(host);
      return holder?.organizationId === organizationId && holder.pageId === pageId ? 'held' : 'taken';
    }
  }

  /** Lets go of the host if the page holds it. */
  async release(host: string, organizationId: number, pageId: number): Promise<void> {
    await this.hosts.deleteOne({ _id: host, organizationId, pageId });
  }

  /** Every verified host: once, when Redis has lost its copy (a start, a flush). */
  allHeld(): Promise<VerifiedHostDocument[]> {
    return this.hosts.find({}).toArray();
  }
}
