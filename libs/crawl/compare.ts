import type { CrawlFinding, CrawlReport, TrackedCrawlFinding } from './crawl.schema.js';

/**
 * What a crawl looked at, beyond its findings: what the comparison needs to tell a finding that
 * went away from one the crawl did not look at again. Not stored (its lists can be long).
 */
export interface CrawlCoverage {
  /** Pages read for links (2xx HTML). */
  crawledPages: ReadonlySet<string>;
  /** URLs that got a verdict, broken or not (pages crawled included). */
  checkedUrls: ReadonlySet<string>;
  /** URLs found but not checked: robots.txt, the request budget, the deadline. */
  uncheckedUrls: ReadonlySet<string>;
  /** Some URLs found were not kept (the crawl's bound on URLs): not finding one proves nothing. */
  urlsDropped: boolean;
}

/** What the comparison reads of a crawl (a `CrawlResult` is one). */
export interface CrawlObserved {
  report: Pick<CrawlReport, 'outcome' | 'findings'>;
  coverage: CrawlCoverage;
}

export interface CrawlComparison {
  /** Found now and not open before. */
  opened: TrackedCrawlFinding[];
  /** Open before and found again (firstSeenAt kept, lastSeenAt now). */
  stillOpen: TrackedCrawlFinding[];
  /** Open before and gone now; as last seen. */
  fixed: TrackedCrawlFinding[];
  /** Open before and not looked at again (a failed crawl, or pages a partial one did not reach); as they were. */
  untouched: TrackedCrawlFinding[];
  /** What stays open: opened, still open and untouched. */
  open: TrackedCrawlFinding[];
}

/** A finding's identity across crawls: its type and URL (mixed content's pages are merged under it). */
export const findingKey = (finding: Pick<CrawlFinding, 'type' | 'url'>) => `${finding.type} ${finding.url}`;

/** Whether every page a finding was listed on was read again (and the list was whole). */
function pagesReadAgain(finding: TrackedCrawlFinding, coverage: CrawlCoverage): boolean {
  return (
    finding.pageCount === finding.pages.length &&
    finding.pages.every((appearance) => coverage.crawledPages.has(appearance.page))
  );
}

/** Whether a finding open before and not found now is known to be gone. */
function isGone(finding: TrackedCrawlFinding, crawl: CrawlObserved): boolean {
  const { coverage } = crawl;
  if (finding.type === 'broken-link') {
    if (coverage.checkedUrls.has(finding.url)) return true;
    // Found again but not requested (budget, deadline, robots.txt): nothing is known of it.
    if (coverage.uncheckedUrls.has(finding.url)) return false;
  }
  // Not found at all: gone from the site when every page in reach was read, or from the very pages
  // it was on. A partial crawl that did not read them again says nothing of it.
  if (coverage.urlsDropped) return false;
  return crawl.report.outcome === 'complete' || pagesReadAgain(finding, coverage);
}

/**
 * This crawl's findings against those open before it. A failed crawl (the site was down) changes
 * nothing: no finding is fixed, none opened. Otherwise a finding found again stays open with its
 * `firstSeenAt`; a new one opens; one not found is fixed only when the crawl looked again where it
 * was (see `isGone`), else it is left untouched. Pure.
 */
export function compareCrawls(
  previousOpen: readonly TrackedCrawlFinding[],
  crawl: CrawlObserved,
  at: Date,
): CrawlComparison {
  if (crawl.report.outcome === 'failed') {
    const untouched = [...previousOpen];
    return { opened: [], stillOpen: [], fixed: [], untouched, open: untouched };
  }
  const now = at.toISOString();
  const before = new Map(previousOpen.map((finding) => [findingKey(finding), finding]));
  const opened: TrackedCrawlFinding[] = [];
  const stillOpen: TrackedCrawlFinding[] = [];
  const foundKeys = new Set<string>();
  for (const finding of crawl.report.findings) {
    const key = findingKey(finding);
    foundKeys.add(key);
    const previous = before.get(key);
    const tracked = { ...finding, firstSeenAt: previous?.firstSeenAt ?? now, lastSeenAt: now };
    (previous ? stillOpen : opened).push(tracked);
  }
  const fixed: TrackedCrawlFinding[] = [];
  const untouched: TrackedCrawlFinding[] = [];
  for (const [key, finding] of before) {
    if (foundKeys.has(key)) continue;
    (isGone(finding, crawl) ? fixed : untouched).push(finding);
  }
  return { opened, stillOpen, fixed, untouched, open: [...opened, ...stillOpen, ...untouched] };
}
