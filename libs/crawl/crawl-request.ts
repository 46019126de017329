import type { ProbeOptions } from '../probe/index.js';
import type { CrawlCoverage } from './compare.js';
import type { CrawlReport, CrawlSettings } from './crawl.schema.js';

export const MiB = 1024 * 1024;
/** The request budget per page of `maxPages`, when none is given. */
export const REQUESTS_PER_PAGE = 20;

/** The bounds and politeness of a crawl: the operator's, not the website's. */
export interface CrawlLimits {
  /** Requests in flight to one host at most. */
  perHostConcurrency: number;
  /** Requests started per second to one host at most. */
  perHostPerSecond: number;
  /** Requests in flight in all. */
  concurrency: number;
  /** One request's time, answer and body. */
  requestTimeoutMs: number;
  /** The whole crawl's time. */
  deadlineMs: number;
  /** Requests in all (robots.txt, redirects, link checks included); null: `REQUESTS_PER_PAGE` per page of maxPages. */
  requestBudget: number | null;
  /** A page's bytes read off the wire. */
  maxPageBytes: number;
  /** A page's decoded bytes. */
  maxDecodedBytes: number;
  /** Decoded bytes per wire byte past which a page is taken for a compression bomb (after 1 MiB). */
  maxCompressionRatio: number;
  /** URLs kept of one page. */
  maxLinksPerPage: number;
}

export const DEFAULT_CRAWL_LIMITS: CrawlLimits = {
  perHostConcurrency: 4,
  perHostPerSecond: 8,
  concurrency: 16,
  requestTimeoutMs: 15_000,
  deadlineMs: 15 * 60_000,
  requestBudget: null,
  maxPageBytes: 2 * MiB,
  maxDecodedBytes: 5 * MiB,
  maxCompressionRatio: 50,
  maxLinksPerPage: 5_000,
};

export interface CrawlProgress {
  pagesCrawled: number;
  linksChecked: number;
  /** URLs found and not yet requested or checked. */
  queued: number;
}

export interface CrawlRequest {
  startUrl: string;
  /** More pages to start from, e.g. the sitemap's; those of other hosts are skipped. */
  seeds?: readonly string[];
  settings: CrawlSettings;
  /** The SSRF guard, resolver, trusted roots and user agent every request goes with. */
  probe: ProbeOptions;
  limits?: Partial<CrawlLimits>;
  /** Cancels the crawl: it rejects with the signal's reason. */
  signal?: AbortSignal;
  onProgress?: (progress: CrawlProgress) => void;
}

export interface CrawlResult {
  report: CrawlReport;
  /** For `compareCrawls`; not to be stored. */
  coverage: CrawlCoverage;
}
