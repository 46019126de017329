import { Feed } from 'feed';
import type { MaintenanceInput, PageLanguage, PostInput } from '../status-pages/index.js';
import { translator } from '../status-pages/index.js';

export type FeedFormat = 'rss' | 'atom';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A page's news as a feed (RSS 2.0 or Atom 1.0): each incident post an entry (its updates newest
 * first, their Markdown rendered safe), each maintenance shown on the page an entry; links under
 * the page's address the reader used. Entries are ordered newest first by when they last changed.
 */
export function pageFeed(
  input: {
    title: string;
    pageUrl: string;
    posts: readonly PostInput[];
    maintenance: readonly MaintenanceInput[];
    websiteNames: ReadonlyMap<number, string>;
    now: Date;
    /** The page's words and moments (English and UTC when absent). */
    language?: PageLanguage | undefined;
    timezone?: string | undefined;
  },
  format: FeedFormat,
): string {
  const { pageUrl, websiteNames } = input;
  const t = translator({ language: input.language, timezone: input.timezone });
  const status = (post: { status: PostInput['status'] }) => t.text(`postStatus.${post.status}`);
  const entries = [
    ...input.posts.map((post) => ({
      title: `${post.title} (${status(post)})`,
      id: `${pageUrl}/incidents/${post.id}`,
      link: `${pageUrl}/incidents/${post.id}`,
      date: post.updatedAt,
      published: post.createdAt,
      content: post.updates
        .map(
          (update) =>
            `<p><strong>${escapeHtml(status(update))}</strong> · ${escapeHtml(t.dateTime(update.createdAt))}</p>${update.html}`,
        )
        .join('\n'),
    })),
    ...input.maintenance.map((window) => {
      const website = websiteNames.get(window.websiteId) ?? '';
      const when = `${t.dateTime(window.startsAt)} – ${t.dateTime(window.endsAt)}`;
      return {
        title: `${t.text('page.plannedMaintenance')}: ${window.title}${website ? ` (${website})` : ''}`,
        id: `${pageUrl}#maintenance-${window.websiteId}-${window.startsAt.getTime()}`,
        link: pageUrl,
        date: window.startsAt,
        published: window.startsAt,
        content: `<p>${escapeHtml(window.title)}${website ? ` (${escapeHtml(website)})` : ''}: ${escapeHtml(when)}</p>`,
      };
    }),
  ].sort((a, b) => b.date.getTime() - a.date.getTime());
  const feed = new Feed({
    title: t.text('page.feedTitle', { title: input.title }),
    id: pageUrl,
    link: pageUrl,
    copyright: '',
    updated: entries[0]?.date ?? input.now,
    feedLinks: { rss: `${pageUrl}/feed.rss`, atom: `${pageUrl}/feed.atom` },
    generator: 'webmon',
  });
  for (const entry of entries) feed.addItem(entry);
  return format === 'rss' ? feed.rss2() : feed.atom1();
}
