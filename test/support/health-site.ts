import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { type Issued, issue } from './pki-forge.js';

/**
 * A small client site for the site-health tests through the engine: https://127.0.0.1:<port>
 * (a certificate for the IP, from `ca`) with broken links, two http: resources (an active script,
 * a passive image) from its plain-HTTP twin, a sitemap with one bad `lastmod`, and a page for
 * Lighthouse (an image without alt, a render-blocking script) on the plain-HTTP side. `answers`
 * changes what a path answers (fix a link with 200, break one with 404); `down` makes every
 * page of the HTTPS site answer 503.
 */
export interface HealthSite {
  ca: Issued;
  /** https://127.0.0.1:<port>/ */
  url: string;
  /** http://127.0.0.1:<port> (no slash) */
  plain: string;
  answers: Map<string, number>;
  down: boolean;
  /** Requests each side received, by path. */
  hits: string[];
  close(): Promise<void>;
}

/** The broken links the site starts with, by path, with the page each is on and its link text. */
export const BROKEN_AT_START = {
  '/gone': { status: 404, page: '/', text: 'Old offer' },
  '/fails': { status: 500, page: '/', text: 'Support' },
  '/retired': { status: 410, page: '/about', text: 'Our old blog' },
} as const;

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

function html(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(text);
}

export async function startHealthSite(): Promise<HealthSite> {
  const ca = issue({ commonName: 'Health Site CA', isCa: true });
  const leaf = issue({ commonName: '127.0.0.1', names: ['127.0.0.1'], issuer: ca, validToDays: 30 });
  const plainServer = createHttpServer();
  plainServer.listen(0, '127.0.0.1');
  await once(plainServer, 'listening');
  const plain = `http://127.0.0.1:${(plainServer.address() as AddressInfo).port}`;
  const site: HealthSite = {
    ca,
    url: '',
    plain,
    answers: new Map(),
    down: false,
    hits: [],
    async close() {
      for (const server of [plainServer, secureServer]) {
        server.closeAllConnections();
        server.close();
      }
    },
  };
  const pages: Record<string, string> = {
    '/': page(
      'Tea Shop',
      `<h1>Tea Shop</h1><script src="${plain}/app.js"></script><img src="${plain}/logo.png" alt="Logo">
       <a href="/about">About us</a> <a href="/shop">Shop</a> <a href="/gone">Old offer</a> <a href="/fails">Support</a>`,
    ),
    '/about': page('About', '<h1>About</h1><a href="/">Home</a> <a href="/retired">Our old blog</a>'),
    '/shop': page('Shop', '<h1>Shop</h1><a href="/">Home</a> <a href="/shop/green">Green tea</a>'),
    '/shop/green': page('Green tea', '<h1>Green tea</h1><a href="/shop">Back</a>'),
  };
  const secureServer = createHttpsServer({ key: leaf.key, cert: leaf.cert });
  secureServer.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    site.hits.push(`https ${req.method} ${path}`);
    if (site.down) return html(res, 503, 'down for maintenance');
    const override = site.answers.get(path);
    if (override !== undefined) return html(res, override, `<p>${override}</p>`);
    const known = pages[path];
    if (known) return html(res, 200, known);
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(`User-agent: *\nAllow: /\n\nSitemap: ${site.url}sitemap.xml\n`);
    }
    if (path === '/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(
        `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url}</loc></url><url><loc>${site.url}shop/green</loc><lastmod>last tuesday</lastmod></url></urlset>`,
      );
    }
    const broken = BROKEN_AT_START[path as keyof typeof BROKEN_AT_START];
    return html(res, broken?.status ?? 404, 'not here');
  });
  secureServer.listen(0, '127.0.0.1');
  await once(secureServer, 'listening');
  site.url = `https://127.0.0.1:${(secureServer.address() as AddressInfo).port}/`;
  plainServer.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    site.hits.push(`http ${req.method} ${path}`);
    if (path === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end('window.ready = true;');
    }
    if (path === '/logo.png' || path === '/photo.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      // A 1×1 transparent PNG.
      return res.end(
        Buffer.from(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
          'base64',
        ),
      );
    }
    if (path === '/blocking.js') {
      // Render-blocking: a synchronous script in the head that answers late.
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end('document.documentElement.dataset.late = "1";');
      }, 300);
      return;
    }
    if (path === '/lighthouse')
      return html(
        res,
        200,
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Flawed page</title><meta name="description" content="A page with flaws"><script src="/blocking.js"></script></head><body><h1>Flawed</h1><img src="/photo.png" width="200" height="100"><p>Text.</p></body></html>`,
      );
    return html(res, 404, 'not here');
  });
  return site;
}
