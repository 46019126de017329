import type { Readable } from 'node:stream';
import { Client } from 'undici';
import { guardedConnector, ProbeFailure, type ProbeOptions } from '../probe/index.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface GuardedAnswer {
  /** Where the answer came from, after redirects. */
  url: string;
  status: number;
  /** Lower-case names, the first value of a repeated header. */
  headers: Record<string, string>;
  /** The body as sent (still content-encoded), read at the caller's pace. */
  body: Readable;
  /** Ends the exchange, read whole or not. */
  close(): Promise<void>;
}

export interface GuardedGetRequest {
  /** Ends the exchange, the body's reading included. */
  signal: AbortSignal;
  maxRedirects: number;
  /** The Accept header: what the caller can read. */
  accept: string;
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) flat[name.toLowerCase()] = first;
  }
  return flat;
}

function urlOrNull(location: string, base: URL): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

/**
 * A GET whose body is streamed rather than held (a sitemap may be 50 MB), each hop through the
 * SSRF guard like an HTTP check's: a new connection per hop, redirects followed up to
 * `maxRedirects` with every hop's address judged again. Throws a `ProbeFailure` for a refused
 * address or a bad redirect, and the network's error otherwise.
 */
export async function guardedGet(
  url: string,
  options: ProbeOptions,
  request: GuardedGetRequest,
): Promise<GuardedAnswer> {
  let current = new URL(url);
  const visited = new Set<string>();
  for (let redirects = 0; ; redirects++) {
    visited.add(current.href);
    const client = new Client(current.origin, {
      connect: guardedConnector(options, { signal: request.signal }),
    });
    const close = () => client.destroy().catch(() => undefined);
    try {
      const response = await client.request({
        path: `${current.pathname}${current.search}`,
        method: 'GET',
        headers: { 'user-agent': options.userAgent, accept: request.accept, 'accept-encoding': 'gzip' },
        signal: request.signal,
      });
      // Destroying an unfinished body emits an error (undici's "Request aborted"): a reader that
      // stops early, or a caller that closes without reading, is not an uncaught exception.
      response.body.on('error', () => undefined);
      const headers = flatHeaders(response.headers);
      if (!REDIRECT_STATUSES.has(response.statusCode) || !headers.location)
        return { url: current.href, status: response.statusCode, headers, body: response.body, close };
      response.body.destroy();
      await close();
      const next = urlOrNull(headers.location, current);
      if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:'))
        throw new ProbeFailure(
          'INVALID_REDIRECT',
          `redirect to ${headers.location.slice(0, 200)}, not an http(s) URL`,
        );
      if (visited.has(next.href))
        throw new ProbeFailure('REDIRECT_LOOP', `redirect loop back to ${next.href}`);
      if (redirects >= request.maxRedirects)
        throw new ProbeFailure('TOO_MANY_REDIRECTS', `more than ${request.maxRedirects} redirects`);
      current = next;
    } catch (error) {
      await close();
      throw error;
    }
  }
}
