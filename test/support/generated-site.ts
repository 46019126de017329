import { once } from 'node:events';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { ProbeOptions } from '../../libs/probe/index.js';
import { type PlanOptions, planSite, type SiteOrigins, type SitePlan } from './generated-site-plan.js';
import { type Issued, issue } from './pki-forge.js';

export type { Mention, SitePlan } from './generated-site-plan.js';

const MiB = 1024 * 1024;
/** The over-size page: 3 MiB, a link at its start and one past any sane bound at its end. */
const BIG_PAGE = Buffer.from(
  `<!doctype html><html><body><a href="/p/1">First</a>${'<p>filler</p>'.repeat((3 * MiB) / 13)}<a href="/beyond-the-bound">Last</a></body></html>`,
);
let bomb: Buffer | null = null;
/** 64 MiB of spaces inside a page, gzipped to some 64 KiB (built once per process). */
function gzipBomb(): Buffer {
  bomb ??= gzipSync(Buffer.concat([Buffer.from('<html><body>'), Buffer.alloc(64 * MiB, 32)]), { level: 9 });
  return bomb;
}

const ROBOTS = 'User-agent: *\nDisallow: /\n\nUser-agent: webmon\nDisallow: /private/\n';

export interface SiteRequest {
  server: 'https' | 'http' | 'external';
  method: string;
  path: string;
  /** performance.now() when it came. */
  at: number;
}

export interface GeneratedSite {
  plan: SitePlan;
  /** https://site.test:<port>/ */
  startUrl: string;
  /** The CA the site's certificate is issued by (for the probe's trusted roots). */
  ca: Issued;
  /** Resolves *.test to 127.0.0.1 and nothing else (nowhere.invalid fails as DNS does). */
  resolve: ProbeOptions['resolve'];
  /** Every request the site (both schemes) and the external host received, in order. */
  requests: SiteRequest[];
  /** Requests that reached the server on 127.0.0.2, which the SSRF guard must keep everyone from. */
  privateHits(): number;
  /** A status a path answers instead of its own (fix a broken link with 200, break one with 404). */
  answers: Map<string, number>;
  /** Every request answers 503 (the site is down). */
  down: boolean;
  close(): Promise<void>;
}

/** Resolves *.test to 127.0.0.1 and nothing else (nowhere.invalid fails as DNS does). */
export const resolveTestHosts: ProbeOptions['resolve'] = async (hostname) => {
  if (hostname.endsWith('.test')) return ['127.0.0.1'];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
};

async function listening(
  server: Server | ReturnType<typeof createTcpServer>,
  host = '127.0.0.1',
): Promise<number> {
  server.listen(0, host);
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

function html(res: ServerResponse, status: number, text: string | Buffer): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(text);
}

function redirect(res: ServerResponse, location: string, status = 302): void {
  res.writeHead(status, { location });
  res.end();
}

/** The month after `YYYY-MM`. */
function nextMonth(month: string): string {
  const [year = 2024, number = 1] = month.split('-').map(Number);
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
}

/** The site's answers, by path, for both schemes. */
function siteHandler(site: GeneratedSite, origins: SiteOrigins) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (site.down) return html(res, 503, 'down for maintenance');
    const override = site.answers.get(path);
    if (override !== undefined) return html(res, override, `<p>${override}</p>`);
    const page = site.plan.pages.get(path);
    if (page) return html(res, 200, page);
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(ROBOTS);
    }
    const [, section = '', rest = ''] = path.split('/');
    switch (section) {
      case 'calendar': {
        const next = nextMonth(rest);
        return html(res, 200, `<h1>${rest}</h1><a href="/calendar/${next}">Next month</a>`);
      }
      case 'big':
        return html(res, 200, BIG_PAGE);
      case 'bomb':
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        return res.end(gzipBomb());
      case 'error':
        return html(res, 500, 'server error');
      case 'loop':
        return redirect(res, rest === 'a' ? '/loop/b' : '/loop/a');
      case 'chain':
        return Number(rest) < 11 ? redirect(res, `/chain/${Number(rest) + 1}`) : html(res, 200, 'end');
      case 'chain10':
        return Number(rest) < 10 ? redirect(res, `/chain10/${Number(rest) + 1}`) : html(res, 200, 'end');
      case 'go':
        return redirect(res, `${origins.private}/secret`);
      case 'moved':
        return redirect(res, `/p/${rest}`, 301);
      case 'private':
        return html(res, 200, '<p>staff only</p>');
      case 'assets':
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end('asset');
      default:
        return html(res, 404, 'not found');
    }
  };
}

/**
 * The generated site of the crawl tests and the bench: a site on https://site.test (and the same
 * over http, for its mixed content) built from a seed by `planSite` — N pages (default 500) with M
 * links (default 5,000), the planted broken links, mixed content, a redirect loop, a robots.txt
 * that keeps webmon out of /private/, an endless calendar, an over-size page and a gzip bomb
 * (these three and a chain of ten redirects left out with `traps: false`) —
 * and the servers its links go to: one on 127.0.0.2 that counts what reaches it, one that never
 * answers, a closed port, one with an untrusted certificate and an external host.
 */
export async function startGeneratedSite(options: Partial<PlanOptions> = {}): Promise<GeneratedSite> {
  const ca = issue({ commonName: 'webmon crawl test CA', isCa: true, validToDays: 30 });
  const siteCertificate = issue({ commonName: 'site.test', names: ['site.test'], issuer: ca });
  const untrustedCertificate = issue({ commonName: 'untrusted.test', names: ['untrusted.test'] });
  // Made before any crawl: making it blocks the event loop the crawler shares with these servers.
  gzipBomb();
  const requests: SiteRequest[] = [];
  const noted =
    (server: SiteRequest['server'], handler: (req: IncomingMessage, res: ServerResponse) => void) =>
    (req: IncomingMessage, res: ServerResponse) => {
      requests.push({ server, method: req.method ?? 'GET', path: req.url ?? '/', at: performance.now() });
      handler(req, res);
    };
  // Set once the plan (which needs the ports) is made.
  let handleSite: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const bySite = (req: IncomingMessage, res: ServerResponse) => handleSite?.(req, res);
  const https = createHttpsServer(
    { cert: siteCertificate.cert, key: siteCertificate.key },
    noted('https', bySite),
  );
  const http = createHttpServer(noted('http', bySite));
  const external = createHttpServer(
    noted('external', (_req, res) => html(res, 200, '<a href="/deeper">Deeper</a><a href="/p/0">Back</a>')),
  );
  let privateHits = 0;
  const privateTarget = createHttpServer((_req, res) => {
    privateHits++;
    res.end('secret');
  });
  const silent = new Set<Socket>();
  const slow = createTcpServer((socket) => {
    silent.add(socket);
    socket.on('error', () => undefined);
  });
  const untrusted = createHttpsServer(
    { cert: untrustedCertificate.cert, key: untrustedCertificate.key },
    (_req, res) => res.end('hello'),
  );
  // A privileged port nothing here listens on: one freed by a server of our own could be handed to
  // another test's server running alongside (it was, once in a full run), and then answer.
  const refusedPort = 1;
  const origins: SiteOrigins = {
    https: `https://site.test:${await listening(https)}`,
    http: `http://site.test:${await listening(http)}`,
    private: `http://127.0.0.2:${await listening(privateTarget, '127.0.0.2')}`,
    slow: `http://slow.test:${await listening(slow)}`,
    refused: `http://refused.test:${refusedPort}`,
    untrusted: `https://untrusted.test:${await listening(untrusted)}`,
    external: `http://elsewhere.test:${await listening(external)}`,
  };
  const servers = [https, http, external, privateTarget, untrusted];
  const created: GeneratedSite = {
    plan: planSite(origins, { seed: 43, pages: 500, links: 5_000, ...options }),
    startUrl: `${origins.https}/`,
    ca,
    resolve: resolveTestHosts,
    requests,
    privateHits: () => privateHits,
    answers: new Map(),
    down: false,
    async close() {
      for (const socket of silent) socket.destroy();
      for (const server of servers) server.closeAllConnections();
      await Promise.all([...servers, slow].map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
  handleSite = siteHandler(created, origins);
  return created;
}
