/**
 * A report's site health in words, for the server's report and the app's alike (pure, no imports:
 * the app can import it).
 */

const plural = (count: number, noun: string, nouns = `${noun}s`) =>
  `${count.toLocaleString('en')} ${count === 1 ? noun : nouns}`;

/** Why a link is broken: "HTTP 404", or its error in words ("DNS failure: …"). */
const LINK_ERRORS: Readonly<Record<string, string>> = {
  dns: 'DNS failure',
  timeout: 'Timed out',
  tls: 'TLS error',
  'connection-refused': 'Connection refused',
  connection: 'Connection failed',
  'redirect-loop': 'Redirect loop',
  'too-many-redirects': 'Too many redirects',
  'invalid-redirect': 'Invalid redirect',
  blocked: 'Blocked address',
  protocol: 'Not a valid HTTP answer',
};

export function linkProblemText(link: {
  status: number | null;
  error: { code: string; message: string } | null;
}): string {
  if (link.status !== null) return `HTTP ${link.status}`;
  if (link.error) return LINK_ERRORS[link.error.code] ?? link.error.code;
  return 'Broken';
}

/** "https://shop.example/about and 4 more pages". */
export function pagesText(item: { page: string | null; pageCount: number }): string {
  if (item.page === null) return '–';
  const more = item.pageCount - 1;
  return more > 0 ? `${item.page} and ${plural(more, 'more page')}` : item.page;
}

export const MIXED_CONTENT_KINDS = {
  active: 'Active (browsers block it)',
  passive: 'Passive (breaks the padlock)',
} as const;

/** The crawl's figures in one sentence per kind of finding. */
export function crawlSummaryTexts(crawl: {
  brokenLinks: { opened: { count: number }; fixed: { count: number }; openAtEnd: number };
  mixedContent: { active: number; passive: number };
  sitemapErrors: number;
}): string[] {
  const { brokenLinks, mixedContent } = crawl;
  return [
    `Broken links: ${brokenLinks.opened.count.toLocaleString('en')} found in the period, ${brokenLinks.fixed.count.toLocaleString('en')} fixed, ${brokenLinks.openAtEnd.toLocaleString('en')} open at its end.`,
    mixedContent.active + mixedContent.passive === 0
      ? 'Mixed content: none open at the end of the period.'
      : `Mixed content open at the end of the period: ${mixedContent.active.toLocaleString('en')} active (browsers block it), ${mixedContent.passive.toLocaleString('en')} passive (breaks the padlock).`,
    `Sitemap errors open at the end of the period: ${crawl.sitemapErrors.toLocaleString('en')}.`,
  ];
}

/** "The 50 latest of 120 (all are counted above)." when a list is cut. */
export function cutText(listed: number, count: number, which: string): string | null {
  return count > listed
    ? `The ${listed} ${which} of ${count.toLocaleString('en')} (all are counted above).`
    : null;
}

export const LIGHTHOUSE_COLUMNS = [
  ['performance', 'Performance'],
  ['accessibility', 'Accessibility'],
  ['bestPractices', 'Best Practices'],
  ['seo', 'SEO'],
] as const;

/**
 * A score's change in an arrow and words (never by colour alone): "▲ +9 (better)", "▼ −5 (worse)",
 * "no change"; null: "no trend" (one run, or a score missing). A higher score is always better.
 */
export function trendText(change: number | null): { arrow: string; words: string } {
  if (change === null) return { arrow: '', words: 'no trend' };
  if (change === 0) return { arrow: '=', words: 'no change' };
  return change > 0
    ? { arrow: '▲', words: `+${change} (better)` }
    : { arrow: '▼', words: `−${-change} (worse)` };
}

/** "62 → 71"; a missing score is "–". */
export function scoresText(start: number | null, end: number | null): string {
  const score = (value: number | null) => (value === null ? '–' : String(value));
  return `${score(start)} → ${score(end)}`;
}

/** "mobile, 4 runs". */
export function runsText(page: { preset: string; runs: number }): string {
  return `${page.preset}, ${plural(page.runs, 'run')}`;
}
