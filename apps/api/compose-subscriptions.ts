import type { AppConfig } from '../../libs/config/index.js';
import { appLink } from '../../libs/config/index.js';
import type { AppContext, Route } from '../../libs/http/index.js';
import type { Logger } from '../../libs/logging/index.js';
import type { PeopleMailRoutes } from '../../libs/people/index.js';
import { createRedisRateLimiter, type Redis } from '../../libs/redis/index.js';
import { SubscriptionService } from '../../libs/status-subscriptions/index.js';
import type { ApiServices } from './compose.js';
import { statusPageSubscriptionRoutes } from './routes/status-page-subscriptions.js';

const HOUR_MS = 3_600_000;
/** Subscription requests a client address may make in an hour (the form's flood guard). */
const SUBSCRIBE_REQUESTS_PER_CLIENT_HOUR = 20;
/** Confirmation mails one address of one page gets in a day: past it, nothing is sent. */
const CONFIRMATIONS_PER_ADDRESS_DAY = 3;

/** Visitors' subscriptions to status pages, and their staff's list of them. */
export function subscriptionRoutesOf(deps: {
  config: AppConfig;
  redis: Redis;
  services: ApiServices;
  mail: PeopleMailRoutes;
  logger: Logger;
}): Route[] {
  const { config, redis, services } = deps;
  const limiter = (limit: number, windowMs: number) =>
    createRedisRateLimiter({ redis, keyPrefix: config.REDIS_KEY_PREFIX, limit, windowMs });
  const page = async (slug: string) => {
    const found = await services.statusPageRepository.findBySlug(slug);
    if (!found?.public || found.slug !== slug) return null;
    const websites = await services.websiteRepository.listByCustomer(found.organizationId, found.customerId);
    const listed = found.websiteIds === null ? null : new Set(found.websiteIds);
    return {
      id: found.id,
      organizationId: found.organizationId,
      slug: found.slug,
      title: found.title,
      accent: found.branding.accentColor,
      language: found.language,
      components: websites
        .filter((website) => listed === null || listed.has(website.id))
        .map((website) => ({ id: website.id, name: website.name })),
    };
  };
  const subscriptions = new SubscriptionService({
    subscribers: services.subscribers,
    http: services.subscriptionHttp,
    secrets: services.secrets,
    page,
    send: async (organizationId, mail) => {
      const mailer = await deps.mail.mailerFor(organizationId);
      if (!mailer) return false;
      await mailer.send(mail);
      return true;
    },
    perClient: limiter(SUBSCRIBE_REQUESTS_PER_CLIENT_HOUR, HOUR_MS),
    perAddress: limiter(CONFIRMATIONS_PER_ADDRESS_DAY, 24 * HOUR_MS),
    logger: deps.logger,
  });
  return statusPageSubscriptionRoutes({
    subscriptions,
    feeds: services.pageFeeds,
    page,
    ownPage: (organizationId, pageId) => services.statusPages.get(organizationId, pageId),
    // By the page's own domain when the visitor came by it, else under the agency's address.
    pageUrlOf: (ctx: AppContext, slug: string) => {
      const domain = (ctx.state as { statusPageDomain?: { host: string } }).statusPageDomain?.host;
      return domain ? `${ctx.protocol}://${domain}/status/${slug}` : appLink(config, `status/${slug}`).href;
    },
  });
}
