import type { BrowserContext } from 'playwright-core';
import { type BrowserJourney, isHttpUrl } from './journey-options.schema.js';

/**
 * A journey's own origin: its first page's (the first step goes to a URL). Basic auth is answered
 * and the extra headers are sent there only, never to a third party the page loads or links to.
 * null: the first step goes nowhere a browser visits (it fails as it runs).
 */
export function journeyOrigin(journey: BrowserJourney): string | null {
  const first = journey.steps[0];
  return first?.action === 'goto' && isHttpUrl(first.url) ? new URL(first.url).origin : null;
}

/**
 * A request's headers with `extra` added (each replacing the page's own of that name, in any case)
 * when it goes to `origin`; null when it goes elsewhere: it leaves as the page made it.
 */
export function headersWithExtra(
  url: string,
  headers: Readonly<Record<string, string>>,
  extra: Readonly<Record<string, string>>,
  origin: string,
): Record<string, string> | null {
  if (!URL.canParse(url) || new URL(url).origin !== origin) return null;
  const replaced = new Set(Object.keys(extra).map((name) => name.toLowerCase()));
  return {
    ...Object.fromEntries(Object.entries(headers).filter(([name]) => !replaced.has(name.toLowerCase()))),
    ...extra,
  };
}

/**
 * Sends the journey's extra headers with the requests to its own origin only (a context's
 * `extraHTTPHeaders` would send them, and the secrets in them, to every CDN and tracker the page
 * loads). A request the page redirects keeps what it was sent with: Playwright carries a routed
 * request's headers over its redirects. Nothing is routed without extra headers, since routing
 * turns the HTTP cache off.
 */
export async function sendExtraHeadersToOrigin(
  context: BrowserContext,
  journey: BrowserJourney,
): Promise<void> {
  const extra = journey.extraHeaders;
  const origin = journeyOrigin(journey);
  if (origin === null || Object.keys(extra).length === 0) return;
  await context.route('**/*', (route, request) => {
    const headers = headersWithExtra(request.url(), request.headers(), extra, origin);
    // A request the page dropped meanwhile has nothing left to send.
    return (headers ? route.continue({ headers }) : route.continue()).catch(() => undefined);
  });
}
