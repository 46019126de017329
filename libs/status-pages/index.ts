export { badgeSvg, statusBadgeColor, uptimeBadgeColor } from './badge.js';
export {
  LocalPageBuilder,
  type MonitoringReads,
  type PageBuilder,
} from './page-builder.js';
export { servePageBuilds, ThreadPageBuilder } from './page-builder-thread.js';
export { cssColor, renderHtmlDocument, renderNotFoundPage } from './page-html.js';
export {
  hourlyAverages,
  type IncidentInput,
  type ShownStatus,
  statusText,
  uptimeBetween,
} from './page-model.js';
export { StatusPageRevisions } from './page-revisions.js';
export { PUBLIC_CACHE_SECONDS, type PublicPagesDeps, PublicStatusPages } from './public-pages.js';
export { type PublishedPage, SharedPublishedPages } from './shared-pages.js';
export {
  type StatusPageDocument,
  StatusPageRepository,
  statusPageIndexes,
} from './status-page.repository.js';
export {
  createStatusPageBody,
  listStatusPagesQuery,
  patchStatusPageBody,
  publicStatusPageView,
  SLUG_PATTERN,
  statusPageView,
} from './status-page.schema.js';
export { type StatusPageOwnersPort, StatusPageService } from './status-page.service.js';
export { toStatusPageView } from './status-page-view.js';
