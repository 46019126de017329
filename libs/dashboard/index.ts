export { dashboardRoutes } from './dashboard.routes.js';
export { type OverviewDeps, type WebsiteOverview, websiteOverview } from './overview.js';
