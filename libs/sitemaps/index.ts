export { checkSitemapUrls, type SitemapUrlCheckOptions } from './check-urls.js';
export { MAX_SITEMAP_BYTES, readSitemaps, type SitemapReadOptions } from './read-sitemaps.js';
export { type SitemapLine, sitemapLines } from './robots-sitemaps.js';
export {
  type BrokenSitemapUrl,
  BrokenSitemapUrlSchema,
  SITEMAP_ERROR_CODES,
  type SitemapError,
  type SitemapErrorCode,
  SitemapErrorSchema,
  type SitemapFile,
  SitemapFileSchema,
  type SitemapReport,
  SitemapReportSchema,
  type SitemapUrlCheck,
  SitemapUrlCheckSchema,
  type StoppedBy,
  StoppedBySchema,
} from './sitemap.schema.js';
export { sampleUrls, UrlSample } from './url-sample.js';
