/**
 * Site health: what crawls and Lighthouse checks found, kept across runs — findings (broken links,
 * mixed content, sitemap errors) open or fixed, Lighthouse's scores as history — and what of it is
 * news for alerts (`SiteHealthRecorder`). The runs themselves are kinds of the monitor engine.
 */
export {
  LIGHTHOUSE_RUNS,
  LighthouseHistory,
  type LighthouseRunRecord,
  lighthouseRunIndexes,
} from './lighthouse-history.repository.js';
export { type JudgedRun, judgeLighthouseRuns } from './lighthouse-news.js';
export {
  type CrawlFound,
  compareFindings,
  crawlNews,
  FINDING_STATES,
  FINDING_TYPES,
  type FindingState,
  type FindingsComparison,
  type FindingType,
  type SiteFinding,
  type SitemapFinding,
  siteFindingKey,
  siteFindingSchema,
  sitemapFindingSchema,
} from './site-findings.js';
export {
  type FindingOwner,
  SITE_FINDINGS,
  SiteFindings,
  type StoredFinding,
  siteFindingIndexes,
} from './site-findings.repository.js';
export { lighthouseReportName, SiteHealthRecorder, siteHealthEventKinds } from './site-health-recorder.js';
export {
  type CrawlStanding,
  crawlStandingSchema,
  type LighthouseStanding,
  lighthouseStandingSchema,
  SITE_HEALTH_SUMMARIES,
  SiteHealthSummaries,
  type SiteHealthSummary,
  siteHealthSummaryIndexes,
} from './site-health-summaries.js';
export type { SiteRun } from './site-run.js';
export { SITE_RUN_STATES, SiteRunBoard, type SiteRunView, siteRunViewSchema } from './site-run-board.js';
