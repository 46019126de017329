export {
  MAINTENANCE_TELL_WITHIN_MS,
  type MaintenancePhase,
  maintenanceNotices,
  phaseToTell,
} from './maintenance-notices.js';
export { MaintenanceNoticeTick, type NoticedPage } from './maintenance-tick.js';
export { NOTICE_KINDS, type NoticeKind, noticeMail, type PageNotice, wantsNotice } from './notice.js';
export { NOTICE_RETENTION_DAYS, NoticeRepository, noticeIndexes } from './notice.repository.js';
export { MailingDeferred, NoticeMailing, type NoticeMailingDeps } from './notice-mailing.js';
export { NoticeMarks } from './notice-marks.js';
export { announceUnfinished, NOTICES_QUEUE, NoticeQueue, startNoticeWorker } from './notice-queue.js';
export { type FeedFormat, pageFeed } from './page-feed.js';
export { PageFeeds, type PageFeedsDeps } from './page-feeds.js';
export { PageNotices } from './page-notices.js';
export {
  type SubscriberDocument,
  SubscriberRepository,
  type SubscriberState,
  subscriberIndexes,
} from './subscriber.repository.js';
export { pageOfSubscriberId, subscriberId, webhookSubscriberId } from './subscriber-keys.js';
export { SUBSCRIBER_CSV_COLUMNS, subscribersCsv } from './subscribers-csv.js';
export {
  linkQuery,
  removeSubscriberQuery,
  SUBSCRIBERS_PAGE_SIZE,
  subscribeAnswer,
  subscribeBody,
  subscribersAnswer,
  subscribersQuery,
  subscriberView,
  webhookSubscribedAnswer,
} from './subscription.schema.js';
export {
  CONFIRMATION_HOURS,
  type LinkOutcome,
  type SubscribablePage,
  type SubscriptionDeps,
  type SubscriptionLinks,
  SubscriptionService,
} from './subscription.service.js';
export { type ConfirmationMail, unsubscribeHeaders } from './subscription-mails.js';
export {
  renderCheckYourMail,
  renderLinkAction,
  renderLinkOutcome,
  renderSubscribeForm,
} from './subscription-pages.js';
export { challengeAnswered, newWebhookSecret, type WebhookPoster } from './webhook-challenge.js';
