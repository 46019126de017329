import { postStatusText } from '../status-pages/index.js';
import { type PostChange, renderMarkdown } from '../status-posts/index.js';
import type { NoticeKind, PageNotice } from './notice.js';
import type { NoticeRepository } from './notice.repository.js';
import type { NoticeQueue } from './notice-queue.js';

const POST_NOTICES: Partial<Record<PostChange['kind'], NoticeKind>> = {
  created: 'incident.created',
  updated: 'incident.updated',
  resolved: 'incident.resolved',
  reopened: 'incident.reopened',
};

/**
 * Turns a page's news into notices for its subscribers: stored once under an id naming the news
 * (an update told again is not stored again), then announced to the notifiers. Edits and deletions
 * of posts are not news: nobody is mailed for them.
 */
export class PageNotices {
  constructor(
    private readonly deps: {
      notices: NoticeRepository;
      queue: Pick<NoticeQueue, 'announce'>;
      /** The names of the page's websites, by id. */
      websiteNames(organizationId: number, customerId: number): Promise<Map<number, string>>;
    },
  ) {}

  /** A post's change (`StatusPostService.onChange`). */
  async postChanged(change: PostChange): Promise<void> {
    const kind = POST_NOTICES[change.kind];
    const { update, post, page } = change;
    if (!kind || !update) return;
    const components = post.components.map((c) => c.websiteId);
    const names = await this.deps.websiteNames(change.organizationId, page.customerId);
    await this.tell({
      _id: `post:${post.id}:${update.id}`,
      organizationId: change.organizationId,
      pageId: page.id,
      kind,
      title: post.title,
      status: postStatusText(update.status),
      text: update.message,
      html: renderMarkdown(update.message),
      components,
      componentNames: components.flatMap((id) => names.get(id) ?? []),
      path: `/incidents/${post.id}`,
      at: update.createdAt,
      window: null,
      state: 'mailing',
      sent: 0,
      finishedAt: null,
      createdAt: new Date(),
    });
  }

  private async tell(notice: PageNotice): Promise<void> {
    if (await this.deps.notices.add(notice)) await this.deps.queue.announce(notice._id);
  }
}
