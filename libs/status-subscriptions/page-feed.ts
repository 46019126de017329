import { Feed } from 'feed';
import type { MaintenanceInput, PostInput } from '../status-pages/index.js';
import { postStatusText } from '../status-pages/index.js';

export type FeedFormat = 'rss' | 'atom';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

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
  },
  format: FeedFormat,
): string {
  const { pageUrl, websiteNames } = input;
  const entries = [
    ...input.posts.map((post) => ({
      title: `${post.title} (${postStatusText(post.status)})`,
      id: `${pageUrl}/incidents/${post.id}`,
      link: `${pageUrl}/incidents/${post.id}`,
      date: post.updatedAt,
      published: post.createdAt,
      content: post.updates
        .map(
          (update) =>
            `<p><strong>${escapeHtml(postStatusText(update.status))}</strong> · ${utc(update.createdAt)}</p>${update.html}`,
        )
        .join('\n'),
    })),
    ...input.maintenance.map((window) => {
      const website = websiteNames.get(window.websiteId) ?? '';
      const when = `${utc(window.startsAt)} – ${utc(window.endsAt)}`;
      return {
        title: `Maintenance: ${window.title}${website ? ` (${website})` : ''}`,
        id: `${pageUrl}#maintenance-${window.websiteId}-${window.startsAt.getTime()}`,
        link: pageUrl,
        date: window.startsAt,
        published: window.startsAt,
        content: `<p>${escapeHtml(window.title)}${website ? ` on ${escapeHtml(website)}` : ''}: ${when}</p>`,
      };
    }),
  ].sort((a, b) => b.date.getTime() - a.date.getTime());
  const feed = new Feed({
    title: `${input.title}: incidents and maintenance`,
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
