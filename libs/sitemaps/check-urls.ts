import { type HttpProbeResult, type ProbeOptions, probeHttp } from '../probe/index.js';
import type { BrokenSitemapUrl, SitemapUrlCheck, StoppedBy } from './sitemap.schema.js';

export interface SitemapUrlCheckOptions {
  /** The SSRF guard, resolver, trusted roots and user agent every request goes with. */
  probe: ProbeOptions;
  /** Requests at once (they go to the site's own host: this is the politeness bound). @defaultValue 4 */
  concurrency?: number;
  /** URLs checked at most; the rest are said in `stoppedBy`. @defaultValue 500 */
  maxUrls?: number;
  /** One URL's exchange, redirects included. @defaultValue 10_000 */
  timeoutMs?: number;
  /** All the checks. @defaultValue 120_000 */
  deadlineMs?: number;
  /** Redirects followed; more is a broken URL (TOO_MANY_REDIRECTS). @defaultValue 10 */
  maxRedirects?: number;
}

async function ask(url: string, method: 'HEAD' | 'GET', settings: Required<SitemapUrlCheckOptions>) {
  return probeHttp(
    {
      url,
      method,
      headers: {},
      body: null,
      followRedirects: true,
      maxRedirects: settings.maxRedirects,
      cookieHandling: 'none',
      clientCertificate: null,
      timeoutMs: settings.timeoutMs,
      // Only the status matters: a GET stops at its first bytes.
      maxBodyBytes: 0,
    },
    settings.probe,
  );
}

function brokenOrNull(url: string, result: HttpProbeResult): BrokenSitemapUrl | null {
  if (result.error)
    return { url, status: result.httpStatus, error: result.error.code, message: result.error.message };
  if (result.httpStatus !== null && result.httpStatus >= 400)
    return { url, status: result.httpStatus, error: null, message: `answered ${result.httpStatus}` };
  return null;
}

/**
 * Which of a sitemap's URLs are broken: answered ≥ 400 (after redirects) or not at all (DNS,
 * connection, TLS, timeout, a redirect loop or over `maxRedirects`, an address the SSRF guard
 * refuses). HEAD first; a URL HEAD finds broken with a status is asked again with GET, whose answer
 * counts, since some servers refuse HEAD (405, 501) or answer it wrongly. At most `concurrency`
 * requests at once, `maxUrls` in all, within `deadlineMs`; what a bound left out is in `stoppedBy`.
 */
export async function checkSitemapUrls(
  urls: readonly string[],
  options: SitemapUrlCheckOptions,
): Promise<SitemapUrlCheck> {
  const settings: Required<SitemapUrlCheckOptions> = {
    concurrency: 4,
    maxUrls: 500,
    timeoutMs: 10_000,
    deadlineMs: 120_000,
    maxRedirects: 10,
    ...options,
  };
  const toCheck = urls.slice(0, settings.maxUrls);
  // undefined: not checked (the deadline came first); null: not broken.
  const verdicts = new Array<BrokenSitemapUrl | null | undefined>(toCheck.length).fill(undefined);
  const deadline = AbortSignal.timeout(settings.deadlineMs);
  let next = 0;
  const worker = async () => {
    while (next < toCheck.length && !deadline.aborted) {
      const index = next++;
      const url = toCheck[index] as string;
      const head = await ask(url, 'HEAD', settings);
      const answer =
        !head.error && head.httpStatus !== null && head.httpStatus >= 400
          ? await ask(url, 'GET', settings)
          : head;
      verdicts[index] = brokenOrNull(url, answer);
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(settings.concurrency, toCheck.length)) }, worker),
  );
  const checked = verdicts.filter((verdict) => verdict !== undefined).length;
  const stoppedBy: StoppedBy[] = [];
  if (urls.length > toCheck.length)
    stoppedBy.push({
      bound: 'maxUrls',
      message: `checked the first ${settings.maxUrls} of ${urls.length} URLs`,
    });
  if (checked < toCheck.length)
    stoppedBy.push({
      bound: 'deadlineMs',
      message: `stopped after ${settings.deadlineMs / 1000} s; ${toCheck.length - checked} URLs not checked`,
    });
  return {
    checked,
    broken: verdicts.filter((verdict): verdict is BrokenSitemapUrl => Boolean(verdict)),
    stoppedBy,
  };
}
