import type { MaintenanceWindowDocument } from '../maintenance/index.js';
import { maintenanceNotices } from './maintenance-notices.js';
import type { NoticeRepository } from './notice.repository.js';
import type { NoticeQueue } from './notice-queue.js';
import type { SubscriberRepository } from './subscriber.repository.js';

/** A published page as the maintenance tick reads it. */
export interface NoticedPage {
  id: number;
  organizationId: number;
  maintenanceNoticeDays: number;
  /** Its websites' names by id. */
  websites: ReadonlyMap<number, string>;
}

/**
 * Each minute (every notifier; a notice is stored once by its id, so the first to see it tells
 * it): the maintenance of pages with confirmed subscribers, announced ahead, started and ended.
 */
export class MaintenanceNoticeTick {
  constructor(
    private readonly deps: {
      subscribers: Pick<SubscriberRepository, 'pagesWithSubscribers'>;
      notices: Pick<NoticeRepository, 'add'>;
      queue: Pick<NoticeQueue, 'announce'>;
      /** A published page (null: gone or not published). */
      page(organizationId: number, pageId: number): Promise<NoticedPage | null>;
      windows(organizationId: number, websiteIds: number[]): Promise<MaintenanceWindowDocument[]>;
    },
  ) {}

  /** Stores and announces the notices due now; says how many were new. */
  async run(now: Date): Promise<number> {
    let told = 0;
    for (const { organizationId, pageId } of await this.deps.subscribers.pagesWithSubscribers()) {
      const page = await this.deps.page(organizationId, pageId);
      if (!page || page.websites.size === 0) continue;
      const windows = await this.deps.windows(organizationId, [...page.websites.keys()]);
      for (const notice of maintenanceNotices({ page, windows, websiteNames: page.websites, now }))
        if (await this.deps.notices.add(notice)) {
          await this.deps.queue.announce(notice._id);
          told++;
        }
    }
    return told;
  }
}
