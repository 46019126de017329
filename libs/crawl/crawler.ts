import { setMaxListeners } from 'node:events';
import { isDecodable, readBoundedText } from '../probe/index.js';
import type { CrawledPage, CrawlReport, LinkAppearance } from './crawl.schema.js';
import {
  type CrawlLimits,
  type CrawlRequest,
  type CrawlResult,
  DEFAULT_CRAWL_LIMITS,
  MiB,
  REQUESTS_PER_PAGE,
} from './crawl-request.js';
import { linkErrorOf } from './guarded-fetch.js';
import { type ExtractedLinks, LinkExtractor } from './html-links.js';
import { ignoreMatcher } from './ignore-patterns.js';
import { LinkBook, type UrlRecord } from './link-book.js';
import { mixedContentCategory } from './mixed-content.js';
import {
  type Followed,
  type HopRules,
  headerValue,
  MAX_REDIRECTS,
  NotRequested,
  originOf,
  SiteClient,
} from './site-client.js';
import { hostOf, MAX_URL_LENGTH, normalizeUrl } from './url-normalize.js';

/** Links are checked after the pages of their host (whose priority is their depth). */
const LINK_HOPS: HopRules = { priority: 1_000, maxRedirects: MAX_REDIRECTS, obeyRobots: true };
const PROGRESS_EVERY_MS = 250;

/** Adds to a set of skipped URLs up to a bound (they are counted, and the count may then be short). */
function keep(set: Set<string>, url: string, bound: number): void {
  if (set.size < bound) set.add(url);
}

function htmlCharset(contentType: string | undefined): { html: boolean; charset: string | null } {
  const [mime = ''] = (contentType ?? '').split(';');
  const html = ['text/html', 'application/xhtml+xml'].includes(mime.trim().toLowerCase());
  return { html, charset: /charset=["']?([^;"'\s]+)/i.exec(contentType ?? '')?.[1] ?? null };
}

class DeadlineReached extends Error {
  constructor() {
    super('the crawl reached its deadline');
  }
}

/** One crawl's state; `crawlSite` is its way in. */
class Crawl {
  private readonly limits: CrawlLimits;
  private readonly budget: number;
  private readonly book: LinkBook;
  private readonly client: SiteClient;
  private readonly abort = new AbortController();
  private readonly allowedHosts: Set<string>;
  private readonly ignored: (url: string) => boolean;
  private readonly pages: CrawledPage[] = [];
  private readonly readWhole = new Set<string>();
  private readonly unchecked = new Set<string>();
  private readonly skipped = {
    robots: new Set<string>(),
    ignored: new Set<string>(),
    external: new Set<string>(),
  };
  private startRecord: UrlRecord | null = null;
  private pagesStarted = 0;
  private linksChecked = 0;
  private queued = 0;
  private whenIdle: () => void = () => {};
  private fault: unknown = null;
  private lastProgressAt = 0;

  constructor(private readonly request: CrawlRequest) {
    this.limits = { ...DEFAULT_CRAWL_LIMITS, ...request.limits };
    this.budget = this.limits.requestBudget ?? request.settings.maxPages * REQUESTS_PER_PAGE;
    this.book = new LinkBook(this.budget);
    // Every request waiting for its turn listens to it: thousands on a big site, by design.
    setMaxListeners(0, this.abort.signal);
    this.client = new SiteClient(
      request.probe,
      this.limits,
      this.budget,
      (url) => this.isInternal(url),
      this.abort.signal,
    );
    this.allowedHosts = new Set(request.settings.extraHosts.map((host) => host.toLowerCase()));
    this.ignored = ignoreMatcher(request.settings.ignore);
  }

  async run(): Promise<CrawlResult> {
    const startedAt = new Date();
    const start = normalizeUrl(this.request.startUrl);
    if (!start.ok) throw new Error(`the start URL is not an http(s) URL (${start.reason})`);
    this.allowedHosts.add(hostOf(start.url));
    const stopAt = setTimeout(() => this.abort.abort(new DeadlineReached()), this.limits.deadlineMs);
    const cancel = () => this.abort.abort(this.request.signal?.reason);
    this.request.signal?.addEventListener('abort', cancel, { once: true });
    if (this.request.signal?.aborted) cancel();
    try {
      const failure = await this.crawlStart(start.url);
      if (!failure) {
        for (const seed of this.request.seeds ?? []) this.seed(seed);
        if (this.queued > 0) await new Promise<void>((resolve) => (this.whenIdle = resolve));
      }
      if (this.request.signal?.aborted) throw this.request.signal.reason;
      if (this.fault) throw this.fault;
      this.progress(true);
      return this.result(start.url, startedAt, failure);
    } finally {
      clearTimeout(stopAt);
      this.request.signal?.removeEventListener('abort', cancel);
      await this.client.close();
    }
  }

  /** The start page, alone first: when it cannot be reached the crawl has failed and stops there. */
  private async crawlStart(url: string): Promise<CrawlReport['failure']> {
    const record = this.book.note(url, 0, true, 'start');
    if (!record) throw new Error('the start URL was not kept');
    this.startRecord = record;
    try {
      await this.visit(record);
    } catch (error) {
      if (error instanceof DeadlineReached)
        return { reason: 'start-page', message: error.message, code: 'timeout' };
      if (!(error instanceof NotRequested)) throw error;
      const rules = await this.client.robotsFor(originOf(url));
      return rules.state === 'unreachable'
        ? {
            reason: 'robots-unreachable',
            message: `robots.txt did not answer (${rules.status ?? 'no answer'})`,
            code: null,
          }
        : { reason: 'robots-disallowed', message: 'robots.txt forbids webmon the start page', code: null };
    }
    const verdict = record.verdict;
    if (verdict?.error)
      return { reason: 'start-page', message: verdict.error.message, code: verdict.error.code };
    if (verdict && verdict.status !== null && verdict.status >= 400)
      return { reason: 'start-page', message: `the start page answered ${verdict.status}`, code: null };
    return null;
  }

  private isInternal(url: string): boolean {
    return this.allowedHosts.has(hostOf(url));
  }

  /** A URL given to start from too: crawled when it is of the hosts crawled. */
  private seed(raw: string): void {
    const url = this.normalized(raw, undefined);
    if (url === null || !this.isInternal(url)) return;
    const record = this.book.note(url, 0, true, 'seed');
    if (record) this.schedule(record);
  }

  /** A URL's one spelling, null (and counted) when it is not one to request or ignored. */
  private normalized(raw: string, base: string | undefined): string | null {
    const normalized = normalizeUrl(raw, base);
    if (!normalized.ok) {
      if (normalized.reason === 'too-long') this.book.hit('urlLength', MAX_URL_LENGTH, raw.slice(0, 200));
      return null;
    }
    if (this.ignored(normalized.url)) {
      keep(this.skipped.ignored, normalized.url, this.budget);
      return null;
    }
    return normalized.url;
  }

  private schedule(record: UrlRecord): void {
    this.queued++;
    this.visit(record)
      .catch((error: unknown) => this.notChecked(record, error))
      .finally(() => {
        this.queued--;
        this.progress(false);
        if (this.queued === 0) this.whenIdle();
      });
  }

  private notChecked(record: UrlRecord, error: unknown): void {
    this.unchecked.add(record.url);
    if (error instanceof NotRequested) {
      if (error.reason === 'robots') this.skipped.robots.add(record.url);
      else this.book.hit('requestBudget', this.budget, record.url);
    } else if (this.abort.signal.reason instanceof DeadlineReached) {
      this.book.hit('deadline', this.limits.deadlineMs, record.url);
    } else if (!this.abort.signal.aborted) {
      // A bug, not the site: the crawl stops and says it.
      this.fault ??= error;
      this.abort.abort(error);
    }
  }

  private async visit(record: UrlRecord): Promise<void> {
    if (this.isInternal(record.url)) {
      const rules = await this.client.robotsFor(originOf(record.url));
      if (!rules.allows(record.url)) throw new NotRequested('robots');
    }
    if (record.page) {
      const { maxDepth, maxPages } = this.request.settings;
      if (record.depth > maxDepth) this.book.hit('maxDepth', maxDepth, record.url);
      else if (this.pagesStarted >= maxPages) this.book.hit('maxPages', maxPages, record.url);
      else {
        this.pagesStarted++;
        return this.crawlPage(record);
      }
    }
    return this.checkLink(record);
  }

  private async crawlPage(record: UrlRecord): Promise<void> {
    const started = performance.now();
    const answer = await this.client.follow(record.url, 'GET', {
      priority: record.depth,
      maxRedirects: MAX_REDIRECTS,
      obeyRobots: true,
    });
    const page: CrawledPage = {
      url: record.url,
      depth: record.depth,
      status: null,
      error: null,
      finalUrl: answer.url,
      html: false,
      links: 0,
      cutBy: null,
      ms: 0,
    };
    if (!answer.ok) {
      record.verdict = { status: null, error: answer.error };
      page.error = answer.error;
    } else {
      record.verdict = { status: answer.status, error: null };
      page.status = answer.status;
      // The start page may move the site to another host (example.com → www.example.com): it is crawled too.
      if (record === this.startRecord) this.allowedHosts.add(hostOf(answer.url));
      try {
        await this.readPage(record, answer, page);
      } catch (error) {
        if (this.abort.signal.aborted) throw error;
        page.error = linkErrorOf(error, answer.timedOut());
      } finally {
        await answer.done();
      }
    }
    page.ms = Math.round(performance.now() - started);
    this.pages.push(page);
  }

  private async readPage(
    record: UrlRecord,
    answer: Extract<Followed, { ok: true }>,
    page: CrawledPage,
  ): Promise<void> {
    const contentType = headerValue(answer.headers['content-type']);
    const encoding = headerValue(answer.headers['content-encoding']);
    const { html, charset } = htmlCharset(contentType);
    if (answer.status >= 300 || !html || !isDecodable(encoding) || !this.isInternal(answer.url)) return;
    if (answer.url !== record.url) {
      // A page is read under its own URL: where a redirect leads is a page of its own (read once).
      const target = this.book.note(answer.url, record.depth, true, 'redirect');
      if (target) this.schedule(target);
      return;
    }
    const extractor = new LinkExtractor(this.limits.maxLinksPerPage);
    const read = await readBoundedText(
      answer.body,
      { contentEncoding: encoding },
      charset,
      this.pageBounds(),
      (text) => extractor.write(text),
    );
    const links = extractor.end();
    const cutBy = read.cutBy === 'wireBytes' ? 'pageBytes' : read.cutBy; // as its limit, maxPageBytes
    page.html = true;
    page.cutBy = cutBy ?? (links.truncated ? 'linksPerPage' : null);
    if (cutBy) {
      const limit = {
        pageBytes: this.limits.maxPageBytes,
        decodedBytes: this.limits.maxDecodedBytes,
        compressionRatio: this.limits.maxCompressionRatio,
      }[cutBy];
      this.book.hit(cutBy, limit, record.url);
      answer.body.destroy();
    }
    if (links.truncated) this.book.hit('linksPerPage', this.limits.maxLinksPerPage, record.url);
    // Only a page read whole proves a link is no longer on it.
    if (!page.cutBy) this.readWhole.add(record.url);
    page.links = this.foundOnPage(record, links);
  }

  /** What a page names: its mixed content noted, each URL noted and requested when new and in scope. */
  private foundOnPage(record: UrlRecord, links: ExtractedLinks): number {
    const baseResolved = links.base === null ? null : normalizeUrl(links.base, record.url);
    const base = baseResolved?.ok ? baseResolved.url : record.url;
    for (const ref of links.refs) {
      const url = this.normalized(ref.raw, base);
      if (url === null) continue;
      const appearance: LinkAppearance = { page: record.url, element: ref.element, text: ref.text };
      const category = mixedContentCategory(record.url, url, ref.use);
      if (category) this.book.noteMixed(url, category, appearance);
      const internal = this.isInternal(url);
      if (!internal && !this.request.settings.checkExternal) {
        keep(this.skipped.external, url, this.budget);
        continue;
      }
      const navigation = ref.element === 'a' || ref.element === 'area';
      const found = this.book.note(url, record.depth + 1, navigation && internal, appearance);
      if (found) this.schedule(found);
    }
    return links.refs.length;
  }

  /** HEAD, then GET when HEAD answers ≥ 400: servers refuse HEAD (405, 501) or answer it wrongly (403, 404, 500). */
  private async checkLink(record: UrlRecord): Promise<void> {
    let answer = await this.client.follow(record.url, 'HEAD', LINK_HOPS);
    if (answer.ok && answer.status >= 400) {
      await answer.done();
      answer = await this.client.follow(record.url, 'GET', LINK_HOPS);
    }
    if (answer.ok) {
      await answer.done();
      // A form's action may take POST only: 405 to a GET says it is there.
      const formOnly =
        record.appearances.length > 0 && record.appearances.every((seen) => seen.element === 'form');
      record.verdict = { status: formOnly && answer.status === 405 ? 200 : answer.status, error: null };
    } else {
      record.verdict = { status: null, error: answer.error };
    }
    this.linksChecked++;
  }

  private pageBounds() {
    return {
      maxWireBytes: this.limits.maxPageBytes,
      maxDecodedBytes: this.limits.maxDecodedBytes,
      maxCompressionRatio: this.limits.maxCompressionRatio,
      ratioCheckAfterBytes: MiB,
    };
  }

  private progress(final: boolean): void {
    const now = performance.now();
    if (!this.request.onProgress || (!final && now - this.lastProgressAt < PROGRESS_EVERY_MS)) return;
    this.lastProgressAt = now;
    this.request.onProgress({
      pagesCrawled: this.pages.length,
      linksChecked: this.linksChecked,
      queued: this.queued,
    });
  }

  private result(startUrl: string, startedAt: Date, failure: CrawlReport['failure']): CrawlResult {
    const finishedAt = new Date();
    const stoppedBy = failure ? [] : this.book.stoppedBy();
    const checkedUrls = new Set(
      [...this.book.urls.values()].filter((record) => record.verdict).map((record) => record.url),
    );
    const byTypeAndUrl = (a: { type: string; url: string }, b: { type: string; url: string }) =>
      a.type.localeCompare(b.type) || a.url.localeCompare(b.url);
    return {
      report: {
        startUrl,
        outcome: failure ? 'failed' : stoppedBy.length > 0 ? 'partial' : 'complete',
        failure,
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        durationMs: finishedAt.getTime() - startedAt.getTime(),
        pages: this.pages,
        linksChecked: this.linksChecked,
        requests: this.client.requests,
        // A failed crawl says nothing of the site's links: its start page's failure is its outcome.
        findings: failure ? [] : this.book.findings().sort(byTypeAndUrl),
        stoppedBy,
        robots: this.client.robotsSeen,
        skipped: {
          robots: this.skipped.robots.size,
          ignored: this.skipped.ignored.size,
          external: this.skipped.external.size,
        },
      },
      coverage: {
        crawledPages: this.readWhole,
        checkedUrls,
        uncheckedUrls: this.unchecked,
        urlsDropped: this.book.dropped,
      },
    };
  }
}

/**
 * Crawls a site from `startUrl` within its host (and `extraHosts`): pages followed breadth first
 * up to `maxPages` and `maxDepth`, every link and resource they name checked once, within
 * robots.txt for `webmon`, the politeness limits and the bounds, every request through the SSRF
 * guard. Returns the findings (broken links, mixed content), the pages, the bounds that stopped
 * it and its outcome; rejects only when cancelled (with the signal's reason).
 */
export function crawlSite(request: CrawlRequest): Promise<CrawlResult> {
  return new Crawl(request).run();
}
