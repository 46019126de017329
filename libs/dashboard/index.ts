export { redisCheckFeed } from './check-feed-source.js';
export { dashboardRoutes } from './dashboard.routes.js';
export { type OverviewDeps, type WebsiteOverview, websiteOverview } from './overview.js';
export {
  type ChangeSource,
  type OverviewChange,
  OverviewStreams,
  type OverviewStreamsOptions,
  type StreamAudience,
} from './overview-streams.js';
