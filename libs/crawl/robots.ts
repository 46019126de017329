import robotsParserModule from 'robots-parser';

// Its types declare an ES default export; it is CommonJS, whose module.exports is the parser itself.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** The token our crawler answers to in robots.txt (`User-agent: webmon`); the User-Agent header contains it. */
export const ROBOTS_USER_AGENT = 'webmon';

/** robots.txt is read up to this many bytes (RFC 9309 asks crawlers to parse at least 500 KiB). */
export const MAX_ROBOTS_BYTES = 512 * 1024;

/**
 * What an origin's robots.txt let the crawl do: `parsed` (its rules for `webmon`, or else for `*`),
 * `absent` (a 4xx answer or too many redirects: everything allowed, RFC 9309 §2.3.1.3),
 * `unreachable` (a 5xx or 429 answer, or no answer: nothing of the origin is fetched, §2.3.1.4).
 */
export type RobotsState = 'parsed' | 'absent' | 'unreachable';

export interface RobotsRules {
  state: RobotsState;
  /** robots.txt's final HTTP status, null when it did not answer. */
  status: number | null;
  /** Whether the crawl may fetch `url` (of this origin). */
  allows(url: string): boolean;
}

/** How robots.txt answered: its status and body, or that it did not (`status` null). */
export interface RobotsAnswer {
  status: number | null;
  body: string | null;
  /** The redirects were too many to follow. */
  tooManyRedirects?: boolean;
}

/** The rules for `webmon` an origin's robots.txt answer gives. */
export function robotsRules(origin: string, answer: RobotsAnswer): RobotsRules {
  const { status } = answer;
  if (answer.tooManyRedirects) return { state: 'absent', status, allows: () => true };
  if (status === null || status >= 500 || status === 429)
    return { state: 'unreachable', status, allows: () => false };
  if (status >= 400) return { state: 'absent', status, allows: () => true };
  const parsed = robotsParser(`${origin}/robots.txt`, answer.body ?? '');
  // undefined: a URL of another origin, which these rules do not govern.
  return { state: 'parsed', status, allows: (url) => parsed.isAllowed(url, ROBOTS_USER_AGENT) !== false };
}
