export {
  ACCESS_MODES,
  type AccessDecision,
  decideAccess,
  type PageAccess,
  type Refusal,
  type SignedInPerson,
  type VisitorFacts,
} from './access/access-decision.js';
export {
  renderPasswordPage,
  renderPrivatePage,
  renderSignInAtAgencyPage,
  renderSignInPage,
} from './access/access-pages.js';
export { type PageAccessEntry, PageAccessLookup } from './access/page-access-lookup.js';
export { PAGE_SESSION_SECONDS, PageSessions } from './access/page-sessions.js';
export { badgeSvg, statusBadgeColor, uptimeBadgeColor } from './badge.js';
export {
  addDomainBody,
  domainParams,
  hostOfHeader,
  MAX_DOMAINS_PER_PAGE,
  rewriteDomainPath,
  StatusPageDomainRepository,
  StatusPageDomains,
  type StatusPageDomainTarget,
  type StatusPageDomainView,
  statusPageDomainView,
  tlsAskQuery,
  VerifiedHostIndex,
} from './domains/index.js';
export {
  CATALOG,
  fill,
  isTimeZone,
  type MessageKey,
  type Messages,
  PAGE_LANGUAGES,
  type PageLanguage,
  type PageLocale,
  pageLanguage,
  placeholdersOf,
  type Translator,
  translator,
} from './i18n/index.js';
export {
  DEFAULT_MAINTENANCE_NOTICE_DAYS,
  LocalPageBuilder,
  type MonitoringReads,
  type PageBuilder,
  type PagePosts,
  upcomingMaintenance,
} from './page-builder.js';
export { servePageBuilds, ThreadPageBuilder } from './page-builder-thread.js';
export { cssColor, renderHtmlDocument, renderNotFoundPage, renderVisitorPage } from './page-html.js';
export {
  hourlyAverages,
  type IncidentInput,
  type MaintenanceInput,
  type PageSection,
  type ShownStatus,
  statusText,
  uptimeBetween,
} from './page-model.js';
export { pageBadgeSvg, publishedSummary, renderWidget } from './page-overall.js';
export { StatusPageRevisions } from './page-revisions.js';
export { MONTH_PATTERN, type PostPageAnswer, PublicPostPages } from './post-pages.js';
export {
  IMPACTS,
  type Impact,
  impactText,
  POST_STATUSES,
  type PostInput,
  type PostStatus,
  type PublicPost,
  postStatusText,
  publicPostView,
  worstImpact,
} from './post-view.js';
export { PUBLIC_CACHE_SECONDS, type PublicPagesDeps, PublicStatusPages } from './public-pages.js';
export { RevisedCache } from './revised-cache.js';
export { type PublishedPage, SharedPublishedPages } from './shared-pages.js';
export {
  type StatusPageDocument,
  StatusPageRepository,
  statusPageIndexes,
} from './status-page.repository.js';
export {
  createStatusPageBody,
  listStatusPagesQuery,
  MAX_PAGE_SECTIONS,
  patchStatusPageBody,
  publicStatusPageView,
  SLUG_PATTERN,
  statusPageView,
} from './status-page.schema.js';
export { type StatusPageOwnersPort, StatusPageService } from './status-page.service.js';
export { toStatusPageView } from './status-page-view.js';
