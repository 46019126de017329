import type { Dispatcher } from 'undici';
import { type BodyBounds, isDecodable, type ProbeOptions, readBoundedText } from '../probe/index.js';
import type { CrawlReport, LinkError } from './crawl.schema.js';
import type { CrawlLimits } from './crawl-request.js';
import { type Exchange, GuardedFetch, LinkFailure, linkErrorOf } from './guarded-fetch.js';
import { RequestGate } from './request-gate.js';
import { MAX_ROBOTS_BYTES, type RobotsRules, robotsRules } from './robots.js';
import { hostOf, normalizeUrl } from './url-normalize.js';

export const MAX_REDIRECTS = 10;
/** RFC 9309 §2.3.1.2: at least five redirects of robots.txt are followed. */
const ROBOTS_MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** A redirect's or an unread answer's body is drained up to this (its connection kept), else dropped. */
const DRAIN_BYTES = 64 * 1024;

/** How a request's hops go: their turn at the gate, how many redirects, whether robots.txt governs them. */
export interface HopRules {
  /** Lower goes first within a host: robots.txt, then pages by depth, then links. */
  priority: number;
  maxRedirects: number;
  obeyRobots: boolean;
}
// robots.txt itself is fetched whatever it says.
const ROBOTS_HOPS: HopRules = { priority: -1, maxRedirects: ROBOTS_MAX_REDIRECTS, obeyRobots: false };
const ROBOTS_BOUNDS: BodyBounds = {
  maxWireBytes: MAX_ROBOTS_BYTES,
  maxDecodedBytes: MAX_ROBOTS_BYTES,
};

/** A URL the crawl may not (robots.txt) or can no longer (its budget) request. */
export class NotRequested extends Error {
  constructor(readonly reason: 'robots' | 'requestBudget') {
    super(reason);
    this.name = 'NotRequested';
  }
}

/** Where a request's redirects ended: an answer (its body open, its turn held) or why there was none. */
export type Followed =
  | {
      ok: true;
      url: string;
      status: number;
      headers: Dispatcher.ResponseData['headers'];
      body: Dispatcher.ResponseData['body'];
      /** Drains what is left of the body and gives the turn back. */
      done: () => Promise<void>;
      /** Whether the request's timeout (which covers reading the body too) has passed. */
      timedOut: () => boolean;
    }
  | { ok: false; url: string; error: LinkError };

export const headerValue = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value[0] : value;
export const originOf = (url: string) => new URL(url).origin;

/**
 * The crawl's way to the sites: every hop a turn at the politeness gate, counted against the
 * request budget, within robots.txt of the hosts crawled (fetched once per origin), through the
 * guarded client.
 */
export class SiteClient {
  requests = 0;
  readonly robotsSeen: CrawlReport['robots'] = [];
  private readonly gate: RequestGate;
  private readonly fetch: GuardedFetch;
  private readonly robots = new Map<string, Promise<RobotsRules>>();

  constructor(
    probe: ProbeOptions,
    limits: CrawlLimits,
    private readonly budget: number,
    private readonly isCrawled: (url: string) => boolean,
    private readonly signal: AbortSignal,
  ) {
    this.gate = new RequestGate(limits);
    this.fetch = new GuardedFetch(probe, limits.requestTimeoutMs, limits.perHostConcurrency);
  }

  /**
   * A request and its redirects, each hop judged again (robots.txt, budget, the guard). Throws
   * `NotRequested` when a hop may not be made, and the crawl's abort reason.
   */
  async follow(url: string, method: 'GET' | 'HEAD', hops: HopRules): Promise<Followed> {
    const chain = new Set([url]);
    let current = url;
    for (;;) {
      if (hops.obeyRobots && this.isCrawled(current)) {
        const rules = await this.robotsFor(originOf(current));
        if (!rules.allows(current)) throw new NotRequested('robots');
      }
      // Before waiting for a turn too: once spent, what is queued ends at once.
      if (this.requests >= this.budget) throw new NotRequested('requestBudget');
      const release = await this.gate.acquire(hostOf(current), hops.priority, this.signal);
      let answer: Exchange;
      try {
        if (this.requests >= this.budget) throw new NotRequested('requestBudget');
        this.requests++;
        answer = await this.fetch.exchange(current, method, this.signal);
      } catch (error) {
        release();
        if (error instanceof LinkFailure)
          return { ok: false, url: current, error: linkErrorOf(error, false) };
        throw error;
      }
      const drain = async () => {
        await answer.body.dump({ limit: DRAIN_BYTES }).catch(() => undefined);
        release();
      };
      const location = headerValue(answer.headers.location);
      if (!REDIRECT_STATUSES.has(answer.status) || location === undefined)
        return {
          ok: true,
          url: current,
          status: answer.status,
          headers: answer.headers,
          body: answer.body,
          done: drain,
          timedOut: answer.timedOut,
        };
      await drain();
      const fail = (code: LinkError['code'], message: string): Followed => ({
        ok: false,
        url: current,
        error: { code, message },
      });
      const next = normalizeUrl(location, current);
      if (!next.ok)
        return fail(
          'invalid-redirect',
          `redirect to an unusable URL (${next.reason}): ${location.slice(0, 200)}`,
        );
      if (chain.has(next.url)) return fail('redirect-loop', `redirect loop back to ${next.url}`);
      if (chain.size > hops.maxRedirects)
        return fail('too-many-redirects', `more than ${hops.maxRedirects} redirects`);
      chain.add(next.url);
      current = next.url;
    }
  }

  /** An origin's robots.txt rules for webmon, fetched on first use. */
  robotsFor(origin: string): Promise<RobotsRules> {
    let rules = this.robots.get(origin);
    if (!rules) {
      rules = this.fetchRobots(origin);
      this.robots.set(origin, rules);
    }
    return rules;
  }

  async close(): Promise<void> {
    this.gate.close();
    await this.fetch.close();
  }

  private async fetchRobots(origin: string): Promise<RobotsRules> {
    let rules: RobotsRules;
    try {
      const answer = await this.follow(`${origin}/robots.txt`, 'GET', ROBOTS_HOPS);
      if (!answer.ok) {
        const tooManyRedirects =
          answer.error.code === 'too-many-redirects' || answer.error.code === 'redirect-loop';
        rules = robotsRules(origin, { status: null, body: null, tooManyRedirects });
      } else {
        let body = '';
        const encoding = headerValue(answer.headers['content-encoding']);
        try {
          if (answer.status < 300 && isDecodable(encoding))
            await readBoundedText(answer.body, { contentEncoding: encoding }, null, ROBOTS_BOUNDS, (text) => {
              body += text;
            });
        } finally {
          answer.body.destroy();
          await answer.done();
        }
        rules = robotsRules(origin, { status: answer.status, body });
      }
    } catch (error) {
      if (!(error instanceof NotRequested)) throw error;
      rules = robotsRules(origin, { status: null, body: null });
    }
    this.robotsSeen.push({ origin, state: rules.state, status: rules.status });
    return rules;
  }
}
