export { ChannelListings } from './channel-listings.js';
export {
  CHECK_FEATURES,
  checkConfigView,
  defaultCheckConfig,
  mergeCheckConfig,
  patchCheckConfigBody,
} from './check-config.schema.js';
export { rescheduleWebsitesOf } from './customer-reschedule.js';
export { FLEET_WATCH_INTERVAL_MS, startFleetWatcher } from './fleet-watcher.js';
export { type ReconcileReport, ScheduleReconciler } from './schedule-reconciler.js';
export { openRequest } from './secret-request.js';
export {
  mtlsKeyContext,
  type ShownWrite,
  type Unmonitored,
  type WebsiteDocument,
  WebsiteRepository,
  type WebsiteStatusFields,
  websiteKey,
} from './website.repository.js';
export {
  createWebsiteBody,
  LISTED_STATUSES,
  listWebsiteSummariesQuery,
  listWebsitesQuery,
  patchWebsiteBody,
  WEBSITE_DEFAULTS,
  websitePublicIdParams,
  websiteRefParams,
  websiteView,
} from './website.schema.js';
export { parseWebsiteRef, WebsiteService } from './website.service.js';
export {
  BATCH_MAX_ITEMS,
  type BatchItem,
  type BatchItemOutcome,
  batchBody,
} from './website-batch.js';
export { headersToRecord } from './website-build.js';
export { WebsiteCache, websiteRevisions } from './website-cache.js';
export type { WebsiteChannelsPort } from './website-channels.js';
export { websiteIndexes } from './website-indexes.js';
export {
  effectiveIntervalSeconds,
  type PlacementChange,
  type PlacementListener,
  WebsiteScheduling,
} from './website-scheduling.js';
export { WebsiteSearchIndex } from './website-search-index.js';
export { identityOf, toCheckConfigView, toWebsiteView } from './website-view.js';
