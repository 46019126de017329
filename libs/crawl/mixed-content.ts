import type { LinkUse } from './html-links.js';

export type MixedContentCategory = 'active' | 'passive';

/**
 * Whether a page loading `resourceUrl` this way is mixed content, and of which kind: an `https:`
 * page loading an `http:` resource. Active ones (scripts, stylesheets, frames, plugins, form
 * posts) browsers block and they break the page; passive ones (images, media, icons) break the
 * padlock. A link a visitor follows is no mixed content, whatever its scheme.
 */
export function mixedContentCategory(
  pageUrl: string,
  resourceUrl: string,
  use: LinkUse,
): MixedContentCategory | null {
  if (use === 'navigation') return null;
  if (!pageUrl.startsWith('https:') || !resourceUrl.startsWith('http:')) return null;
  return use;
}
