import type { Db } from 'mongodb';
import { type AppConfig, appLink } from '../../libs/config/index.js';
import type { Logger } from '../../libs/logging/index.js';
import { MaintenanceWindowRepository } from '../../libs/maintenance/index.js';
import { pooledSmtpMailer } from '../../libs/people/index.js';
import type { Redis } from '../../libs/redis/index.js';
import type { SecretBox } from '../../libs/secrets/index.js';
import {
  DEFAULT_MAINTENANCE_NOTICE_DAYS,
  StatusPageDomainRepository,
  StatusPageRepository,
} from '../../libs/status-pages/index.js';
import {
  announceUnfinished,
  type ConfirmationMail,
  MaintenanceNoticeTick,
  NoticeMailing,
  NoticeMarks,
  NoticeQueue,
  NoticeRepository,
  SubscriberRepository,
  type WebhookPoster,
} from '../../libs/status-subscriptions/index.js';
import type { WebsiteRepository } from '../../libs/websites/index.js';

/** Mails of one notice in flight at once (SMTP connections kept open while it is mailed). */
const NOTICE_MAILS_AT_ONCE = 8;

type Mailer = { send(mail: ConfirmationMail & { to: string }): Promise<void> };

/**
 * The mailing of pages' notices to their subscribers: through SMTP_URL (its connections kept
 * open), else the organization's own e-mail channel. A page's links go to its first verified
 * domain, else to the page under PUBLIC_URL.
 */
export function composeNoticeMailing(deps: {
  db: Db;
  redis: Redis;
  config: AppConfig;
  logger: Logger;
  secrets: SecretBox;
  organizationMailer(organizationId: number): Promise<Mailer | null>;
  websites: Pick<WebsiteRepository, 'listByCustomer'>;
  /** The notifier's guarded HTTP: webhook subscribers are posted to as channels are. */
  http: WebhookPoster;
}) {
  const { db, redis, config } = deps;
  const pages = new StatusPageRepository(db);
  const domains = new StatusPageDomainRepository(db);
  const notices = new NoticeRepository(db);
  const subscribers = new SubscriberRepository(db);
  const smtp = pooledSmtpMailer(config, NOTICE_MAILS_AT_ONCE);
  const queue = new NoticeQueue(redis, config.REDIS_KEY_PREFIX);
  const mailing = new NoticeMailing({
    notices,
    subscribers,
    http: deps.http,
    marks: new NoticeMarks(redis, config.REDIS_KEY_PREFIX),
    secrets: deps.secrets,
    page: async (organizationId, pageId) => {
      const page = await pages.findById(organizationId, pageId);
      if (!page?.public) return null;
      const verified = (await domains.ofPage(organizationId, pageId)).find(
        (claim) => claim.verifiedAt !== null,
      );
      const url = verified
        ? `https://${verified.host}/status/${page.slug}`
        : appLink(config, `status/${page.slug}`).href;
      return { title: page.title, url, language: page.language, timezone: page.timezone };
    },
    mailer: async (organizationId) => smtp ?? (await deps.organizationMailer(organizationId)),
    concurrency: NOTICE_MAILS_AT_ONCE,
    logger: deps.logger,
  });
  const windows = new MaintenanceWindowRepository(db);
  const maintenance = new MaintenanceNoticeTick({
    subscribers,
    notices,
    queue,
    page: async (organizationId, pageId) => {
      const page = await pages.findById(organizationId, pageId);
      if (!page?.public) return null;
      const listed = page.websiteIds === null ? null : new Set(page.websiteIds);
      const websites = (await deps.websites.listByCustomer(organizationId, page.customerId)).filter(
        (website) => listed === null || listed.has(website.id),
      );
      return {
        id: page.id,
        organizationId,
        maintenanceNoticeDays: page.maintenanceNoticeDays ?? DEFAULT_MAINTENANCE_NOTICE_DAYS,
        websites: new Map(websites.map((website) => [website.id, website.name])),
      };
    },
    windows: (organizationId, websiteIds) => windows.listByWebsites(organizationId, websiteIds),
  });
  return {
    mailing,
    /** Tells the maintenance of pages with subscribers (announced, started, ended) once each. */
    maintenance,
    /** Announces again the notices not mailed to the end (their jobs lost with Redis's data). */
    announceUnfinished: () => announceUnfinished(notices, queue),
    async close() {
      await queue.close();
      smtp?.close();
    },
  };
}
