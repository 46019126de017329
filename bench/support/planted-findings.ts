// The generated site's plan as a crawl of the whole site sees it: its page URLs and planted findings.
import type { CrawlFinding } from '../../libs/crawl/index.js';
import {
  type PlanOptions,
  planSite,
  type SiteOrigins,
  type SitePlan,
} from '../../test/support/generated-site-plan.js';

/** The crawl test's seed and link count. */
const SITE_SEED = 43;
const SITE_LINKS = 5_000;

/**
 * The URLs a whole crawl of `plan` fetches as pages: the home and every URL of the site's host an
 * `a` names that robots.txt lets webmon have (content pages, broken links, redirects; a redirect's
 * landing page is one of the content pages, a host is its name whatever the port).
 */
export function pageUrlsOf(plan: SitePlan): Set<string> {
  const host = new URL(plan.origins.https).hostname;
  const urls = new Set([`${plan.origins.https}/`]);
  for (const [url, mentions] of plan.mentions) {
    const { hostname, pathname } = new URL(url);
    if (hostname === host && !pathname.startsWith('/private/') && mentions.some((m) => m.element === 'a'))
      urls.add(url);
  }
  return urls;
}

/** Plan options whose site has exactly `pageUrls` page URLs (the other URLs fetched as pages do not depend on the page count). */
export function fittedSite(pageUrls: number): PlanOptions {
  // Any ports: only the site's host and paths decide which URLs are pages.
  const origins: SiteOrigins = {
    https: 'https://site.test:1',
    http: 'http://site.test:2',
    private: 'http://127.0.0.2:3',
    slow: 'http://slow.test:4',
    refused: 'http://refused.test:5',
    untrusted: 'https://untrusted.test:6',
    external: 'http://elsewhere.test:7',
  };
  const trial: PlanOptions = { seed: SITE_SEED, pages: pageUrls, links: SITE_LINKS, traps: false };
  const others = pageUrlsOf(planSite(origins, trial)).size - 1 - pageUrls;
  const fitted = { ...trial, pages: pageUrls - 1 - others };
  const size = pageUrlsOf(planSite(origins, fitted)).size;
  if (size !== pageUrls) throw new Error(`the fitted site has ${size} page URLs, not ${pageUrls}`);
  return fitted;
}

/** A finding as the planted sets name it: type, URL, how it broke (or its category) and its pages. */
export function findingKey(finding: CrawlFinding): string {
  const how =
    finding.type === 'mixed-content' ? finding.category : (finding.error?.code ?? String(finding.status));
  return `${finding.type} ${finding.url} ${how} on ${finding.pages
    .map((p) => p.page)
    .sort()
    .join(' ')}`;
}

export function plantedKeys(plan: SitePlan): string[] {
  const pagesOf = (url: string) =>
    [...new Set((plan.mentions.get(url) ?? []).map((m) => m.page))].sort().join(' ');
  return [
    ...[...plan.broken].map(
      ([url, as]) => `broken-link ${url} ${'error' in as ? as.error : String(as.status)} on ${pagesOf(url)}`,
    ),
    ...[...plan.mixed].map(([url, use]) => `mixed-content ${url} ${use} on ${pagesOf(url)}`),
  ];
}

/** "exact", or what was planted and not found and what was found and not planted. */
export function compared(found: string[], planted: string[]): string {
  const [foundSet, plantedSet] = [new Set(found), new Set(planted)];
  const missing = planted.filter((key) => !foundSet.has(key));
  const unexpected = found.filter((key) => !plantedSet.has(key));
  if (missing.length === 0 && unexpected.length === 0) return 'exact';
  return [
    ...missing.map((key) => `\n     planted, not found: ${key}`),
    ...unexpected.map((key) => `\n     found, not planted: ${key}`),
  ].join('');
}
