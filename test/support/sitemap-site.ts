import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type SiteRoute = (req: IncomingMessage, res: ServerResponse) => void;

export interface SitemapSite {
  /** e.g. http://127.0.0.1:43123 */
  url: string;
  /** Every request it received, as `METHOD /path`, in order. */
  requests: string[];
  /** The most requests it was answering at once. */
  peakInFlight(): number;
  close(): Promise<void>;
}

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export const urlsetXml = (locs: readonly string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n${locs
    .map((loc) => `  <url><loc>${loc}</loc><lastmod>2024-05-01</lastmod></url>`)
    .join('\n')}\n</urlset>\n`;

export const indexXml = (locs: readonly string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">\n${locs
    .map((loc) => `  <sitemap><loc>${loc}</loc></sitemap>`)
    .join('\n')}\n</sitemapindex>\n`;

/** A route answering `body` with `status` and `headers`. */
export const answer =
  (body: string | Buffer, headers: Record<string, string> = {}, status = 200): SiteRoute =>
  (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };

/**
 * A site on `host` (a loopback address) answering its routes by path (404 otherwise), which
 * records what it was asked, so a test can tell a refused address was never reached.
 */
export async function startSitemapSite(
  routes: (base: string) => Record<string, SiteRoute>,
  host = '127.0.0.1',
): Promise<SitemapSite> {
  const requests: string[] = [];
  let inFlight = 0;
  let peak = 0;
  let table: Record<string, SiteRoute> = {};
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    requests.push(`${req.method} ${path}`);
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    res.on('close', () => {
      inFlight -= 1;
    });
    const route = table[path];
    if (route) route(req, res);
    else answer('not found', {}, 404)(req, res);
  });
  server.listen(0, host);
  await once(server, 'listening');
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  table = routes(url);
  return {
    url,
    requests,
    peakInFlight: () => peak,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
