/** Longer URLs are skipped (counted in the crawl's result, never requested): no real page needs them. */
export const MAX_URL_LENGTH = 2048;

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** `%7e` → `~` (an unreserved character means the same encoded or not), `%2f` → `%2F`. */
function normalizePercentEncoding(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

export type NormalizedUrl =
  | { ok: true; url: string }
  | { ok: false; reason: 'invalid' | 'not-http' | 'too-long' };

/**
 * The one spelling of an http(s) URL the crawl keys on, so one page is not crawled twice: resolved
 * against `base`, fragment dropped, scheme and host lower-cased, the default port dropped, dot
 * segments resolved and an empty path made `/` (WHATWG URL parsing does these), percent-encoding
 * made canonical in the path and query (unreserved characters decoded, hex upper-cased). The query
 * keeps its order: `?a=1&b=2` and `?b=2&a=1` may be different pages.
 */
export function normalizeUrl(raw: string, base?: string | URL): NormalizedUrl {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim(), base);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: 'not-http' };
  parsed.hash = '';
  // Credentials in a link are not followed with: a crawl never sends them.
  parsed.username = '';
  parsed.password = '';
  parsed.pathname = normalizePercentEncoding(parsed.pathname);
  if (parsed.search) parsed.search = normalizePercentEncoding(parsed.search);
  const url = parsed.href;
  if (url.length > MAX_URL_LENGTH) return { ok: false, reason: 'too-long' };
  return { ok: true, url };
}

/** The host name a URL's scope and politeness go by (no port: one site's http and https are one host). */
export function hostOf(url: string): string {
  return new URL(url).hostname;
}
