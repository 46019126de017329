export {
  type CrawlComparison,
  type CrawlCoverage,
  type CrawlObserved,
  compareCrawls,
  findingKey,
} from './compare.js';
export {
  type BrokenLinkFinding,
  brokenLinkFindingSchema,
  CRAWL_BOUNDS,
  CRAWL_OUTCOMES,
  type CrawlBound,
  type CrawlBoundHit,
  type CrawledPage,
  type CrawlFinding,
  type CrawlOutcome,
  type CrawlReport,
  type CrawlSettings,
  crawlBoundHitSchema,
  crawledPageSchema,
  crawlFindingSchema,
  crawlReportSchema,
  crawlSettingsSchema,
  LINK_ERROR_CODES,
  type LinkAppearance,
  type LinkError,
  type LinkErrorCode,
  linkAppearanceSchema,
  linkErrorSchema,
  MAX_CRAWL_PAGES,
  MAX_FINDING_PAGES,
  type MixedContentFinding,
  mixedContentFindingSchema,
  type TrackedCrawlFinding,
  trackedCrawlFindingSchema,
} from './crawl.schema.js';
export {
  type CrawlLimits,
  type CrawlProgress,
  type CrawlRequest,
  type CrawlResult,
  DEFAULT_CRAWL_LIMITS,
  REQUESTS_PER_PAGE,
} from './crawl-request.js';
export { crawlSite } from './crawler.js';
export { globMatches, ignoreMatcher } from './ignore-patterns.js';
export { ROBOTS_USER_AGENT } from './robots.js';
export { MAX_URL_LENGTH, normalizeUrl } from './url-normalize.js';
