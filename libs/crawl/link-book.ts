import {
  type CrawlBound,
  type CrawlBoundHit,
  type CrawlFinding,
  type LinkAppearance,
  type LinkError,
  MAX_FINDING_PAGES,
} from './crawl.schema.js';
import type { MixedContentCategory } from './mixed-content.js';

/** One URL the crawl found, and what came of it. */
export interface UrlRecord {
  url: string;
  /** Clicks from the start page (or a seed) at its first finding. */
  depth: number;
  /** A page to crawl (a link a visitor follows, the start page or a seed), not only to check. */
  page: boolean;
  seeded: boolean;
  appearances: LinkAppearance[];
  pageCount: number;
  /** The verdict once requested: its final status, or why it got none. */
  verdict: { status: number | null; error: LinkError | null } | null;
}

interface MixedRecord {
  category: MixedContentCategory;
  appearances: LinkAppearance[];
  pageCount: number;
}

/** The first mention of a URL on each page, the first few pages kept (every page counted). */
function mention(appearances: LinkAppearance[], appearance: LinkAppearance): boolean {
  if (appearances.some((known) => known.page === appearance.page)) return false;
  if (appearances.length < MAX_FINDING_PAGES) appearances.push(appearance);
  return true;
}

/**
 * What a crawl found, URL by URL: where each appears, whether it is a page, its verdict, the mixed
 * content of https pages, and the bounds hit. At most `maxUrls` URLs are kept (a site of endless
 * links cannot grow the worker's memory); one found past them is dropped and counted. Pure.
 */
export class LinkBook {
  readonly urls = new Map<string, UrlRecord>();
  private readonly mixed = new Map<string, MixedRecord>();
  private readonly bounds = new Map<CrawlBound, CrawlBoundHit>();
  /** Some URLs were found past `maxUrls` and not kept. */
  dropped = false;

  constructor(private readonly maxUrls: number) {}

  /**
   * Notes a URL found on a page (`from` its appearance there) or otherwise: the start page, a seed,
   * where a page redirects. Returns its record when it is new, to be requested; null when known
   * already or not kept.
   */
  note(
    url: string,
    depth: number,
    page: boolean,
    from: LinkAppearance | 'start' | 'seed' | 'redirect',
  ): UrlRecord | null {
    const appearance = typeof from === 'string' ? null : from;
    const known = this.urls.get(url);
    if (known) {
      if (appearance && mention(known.appearances, appearance)) known.pageCount++;
      if (from === 'seed') known.seeded = true;
      return null;
    }
    if (this.urls.size >= this.maxUrls) {
      this.dropped = true;
      this.hit('maxUrls', this.maxUrls, url);
      return null;
    }
    const record: UrlRecord = {
      url,
      depth,
      page,
      seeded: from === 'seed',
      appearances: appearance ? [appearance] : [],
      pageCount: appearance ? 1 : 0,
      verdict: null,
    };
    this.urls.set(url, record);
    return record;
  }

  noteMixed(url: string, category: MixedContentCategory, appearance: LinkAppearance): void {
    const known = this.mixed.get(url);
    if (!known) {
      if (this.mixed.size >= this.maxUrls) return;
      this.mixed.set(url, { category, appearances: [appearance], pageCount: 1 });
      return;
    }
    if (category === 'active') known.category = 'active';
    if (mention(known.appearances, appearance)) known.pageCount++;
  }

  /** A bound that held something back: counted, with the first few URLs as examples. */
  hit(bound: CrawlBound, limit: number, url: string): void {
    const known = this.bounds.get(bound);
    if (!known) {
      this.bounds.set(bound, { bound, limit, count: 1, examples: [url] });
      return;
    }
    known.count++;
    if (known.examples.length < 5) known.examples.push(url);
  }

  stoppedBy(): CrawlBoundHit[] {
    return [...this.bounds.values()];
  }

  findings(): CrawlFinding[] {
    const findings: CrawlFinding[] = [];
    for (const record of this.urls.values()) {
      const verdict = record.verdict;
      if (!verdict || (verdict.error === null && (verdict.status ?? 0) < 400)) continue;
      findings.push({
        type: 'broken-link',
        url: record.url,
        status: verdict.error ? null : verdict.status,
        error: verdict.error,
        pages: record.appearances,
        pageCount: record.pageCount,
        seeded: record.seeded,
      });
    }
    for (const [url, record] of this.mixed) {
      findings.push({
        type: 'mixed-content',
        url,
        category: record.category,
        pages: record.appearances,
        pageCount: record.pageCount,
      });
    }
    return findings;
  }
}
