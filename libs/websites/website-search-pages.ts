// Pages of websites holding a search's text: the search index's candidates, read and matched.

import type { WebsiteDocument, WebsiteRepository } from './website.repository.js';
import type { WebsiteCache } from './website-cache.js';
import { matchesSearch, normalizedQuery } from './website-search.js';
import type { WebsiteSearchIndex } from './website-search-index.js';

/** A search reads at most this many candidates a page, this many at a time (then says where to go on). */
const SEARCH_READS_AT_MOST = 1_000;
const SEARCH_BATCH = 100;

/** A page of websites and the id the next page starts after (null: none after). */
export interface WebsitePage {
  websites: WebsiteDocument[];
  nextAfterId: number | null;
}

/** Pages of websites holding a query, the organization indexed for search at its first one. */
export class WebsiteSearchPages {
  /** Search index builds under way, by organization (see indexOnce). */
  private readonly indexing = new Map<number, Promise<void>>();

  constructor(
    private readonly deps: {
      websites: WebsiteRepository;
      search: WebsiteSearchIndex;
      cache: WebsiteCache;
    },
  ) {}

  /**
   * Websites holding `query`, by id: the index's candidates after `afterId`, read by primary key
   * and matched, until `limit` match or SEARCH_READS_AT_MOST were read (then the page holds fewer
   * and the next starts after the last one read).
   */
  async search(
    organizationId: number,
    options: {
      customerId?: number | undefined;
      afterId?: number | undefined;
      limit?: number | undefined;
      query: string;
    },
  ): Promise<WebsitePage> {
    const { search, cache } = this.deps;
    const limit = options.limit ?? Number.MAX_SAFE_INTEGER;
    let candidates = await search.candidates(organizationId, options.query);
    if (candidates === null) {
      await this.indexOnce(organizationId);
      candidates = (await search.candidates(organizationId, options.query)) ?? [];
    }
    // One customer's search (a client user's always) reads none of another customer's websites.
    const own =
      options.customerId === undefined
        ? null
        : await this.deps.websites.customerWebsiteIds(organizationId, options.customerId);
    const ownIds = own ? new Set(own) : null;
    const afterId = options.afterId ?? 0;
    const ids = candidates.filter((id) => id > afterId && (!ownIds || ownIds.has(id))).sort((a, b) => a - b);
    const query = normalizedQuery(options.query);
    const found: WebsiteDocument[] = [];
    // The last id examined: the next page starts after it.
    let examined = afterId;
    const budget = ids.slice(0, SEARCH_READS_AT_MOST);
    for (let start = 0; start < budget.length && found.length < limit; start += SEARCH_BATCH) {
      const batch = budget.slice(start, start + SEARCH_BATCH);
      const read = new Map((await cache.getMany(organizationId, batch)).map((w) => [w.id, w]));
      for (const id of batch) {
        examined = id;
        const website = read.get(id);
        const wanted = options.customerId === undefined || website?.customerId === options.customerId;
        if (website && wanted && matchesSearch(website, query)) found.push(website);
        if (found.length === limit) break;
      }
    }
    return { websites: found, nextAfterId: examined < (ids.at(-1) ?? 0) ? examined : null };
  }

  /**
   * Indexes the organization for search, one build at a time in this process: the searches that
   * find it unindexed (after a flushed Redis, 32 at once in a benchmark) wait for one build instead
   * of each reading every website and writing every run again.
   */
  private indexOnce(organizationId: number): Promise<void> {
    let building = this.indexing.get(organizationId);
    if (!building) {
      building = this.deps.search
        .index(organizationId, this.everyWebsite(organizationId))
        .finally(() => this.indexing.delete(organizationId));
      this.indexing.set(organizationId, building);
    }
    return building;
  }

  /** The organization's websites, a page of 500 at a time (to index them), through the cache. */
  private async *everyWebsite(organizationId: number): AsyncGenerator<WebsiteDocument[]> {
    let afterId = 0;
    for (;;) {
      const page = await this.deps.websites.listPage(organizationId, { afterId, limit: 500 }, (org, ids) =>
        this.deps.cache.getMany(org, ids),
      );
      if (page.length > 0) yield page;
      const last = page.at(-1);
      if (page.length < 500 || !last) return;
      afterId = last.id;
    }
  }
}
