export { APP_PAGES, type AppPage } from './app-pages.js';
export { redisCheckFeed } from './check-feed-source.js';
export {
  OVERVIEW_IDS_MAX,
  OVERVIEW_PAGE_MAX,
  type OverviewDeps,
  type OverviewSelection,
  type WebsiteOverview,
  websiteOverview,
} from './overview.js';
export {
  type ChangeSource,
  type OverviewChange,
  OverviewStreams,
  type OverviewStreamsOptions,
  type StreamAudience,
} from './overview-streams.js';
