export interface SitemapLine {
  /** The value after `Sitemap:`, trimmed. */
  value: string;
  /** Its line in robots.txt, from 1. */
  line: number;
}

/**
 * The `Sitemap:` lines of a robots.txt, in order: the field name in any case, anywhere in the file
 * (it belongs to no user-agent group), a `#` comment cut off (RFC 9309). Only these lines: the
 * crawler (libs/crawl) reads the rest of robots.txt for its own rules.
 */
export function sitemapLines(robotsText: string): SitemapLine[] {
  const found: SitemapLine[] = [];
  const lines = robotsText.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (const [index, raw] of lines.entries()) {
    const match = /^\s*sitemap\s*:(.*)$/i.exec(raw.replace(/#.*$/, ''));
    const value = match?.[1]?.trim();
    if (value) found.push({ value, line: index + 1 });
  }
  return found;
}
