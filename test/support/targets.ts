import { once } from 'node:events';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { gzipSync } from 'node:zlib';

/**
 * A TCP or TLS server's connection listener for a banner service (SMTP, IMAP): sends `banner` and
 * closes. A probe may reset the connection once it read the banner: expected, not an error (an
 * unlistened socket error would crash the test process).
 */
export function greets(banner: string): (socket: Socket) => void {
  return (socket) => {
    socket.on('error', () => undefined);
    socket.end(banner);
  };
}

/** Requests /slow-counted has received (tests wait for a check to be in flight). */
export let slowHits = 0;

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** The behaviours the probe tests need, by path. */
export function targetRoutes(base: () => string): Record<string, Handler> {
  return {
    '/ok': (_req, res) => res.end('<h1>Welcome to the Shop</h1>'),
    // A whole small page, for checks that read HTML (a crawl, Lighthouse).
    '/page': (_req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Shop</title><meta name="description" content="The shop"></head><body><h1>Welcome to the Shop</h1><p><a href="/ok">Home</a> <a href="/echo">Echo</a></p></body></html>',
      );
    },
    '/status/503': (_req, res) => {
      res.statusCode = 503;
      res.end('maintenance');
    },
    '/slow': (_req, res) => setTimeout(() => res.end('late'), 3000),
    '/slow-counted': (_req, res) => {
      slowHits++;
      setTimeout(() => res.end('late'), 2500);
    },
    '/big': (_req, res) => {
      const chunk = Buffer.alloc(64 * 1024, 97);
      let sent = 0;
      const write = () => {
        while (sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      res.on('close', () => {
        sent = Number.POSITIVE_INFINITY;
      });
      write();
    },
    '/gzip': (_req, res) => {
      res.setHeader('content-encoding', 'gzip');
      res.end(gzipSync(Buffer.from(`${'x'.repeat(10_000)}needle`)));
    },
    '/echo': (req, res, body) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
    },
    '/redirect/3': (_req, res) => redirect(res, 302, '/redirect/2'),
    '/redirect/2': (_req, res) => redirect(res, 301, '/redirect/1'),
    '/redirect/1': (_req, res) => redirect(res, 307, '/ok'),
    '/loop/a': (_req, res) => redirect(res, 302, '/loop/b'),
    '/loop/b': (_req, res) => redirect(res, 302, '/loop/a'),
    '/see-other': (_req, res) => redirect(res, 303, '/echo'),
    '/to-loopback': (_req, res) => redirect(res, 302, `http://127.0.0.1:${new URL(base()).port}/ok`),
    '/to-file': (_req, res) => redirect(res, 302, 'file:///etc/passwd'),
    '/cross-host': (req, res) =>
      redirect(
        res,
        302,
        `http://other.test:${new URL(base()).port}/echo?from=${encodeURIComponent(req.headers.host ?? '')}`,
      ),
    '/cross-host-307': (_req, res) => redirect(res, 307, `http://other.test:${new URL(base()).port}/echo`),
    '/cookie/set': (_req, res) => {
      res.setHeader('set-cookie', 'session=abc123; Path=/; HttpOnly');
      redirect(res, 302, '/cookie/need');
    },
    '/cookie/need': (req, res) => {
      res.statusCode = req.headers.cookie?.includes('session=abc123') ? 200 : 401;
      res.end(res.statusCode === 200 ? 'logged in' : 'no session');
    },
    '/client-cert': (req, res) => {
      const socket = req.socket as TLSSocket;
      const peer = socket.getPeerCertificate?.();
      res.end(peer?.subject ? `hello ${peer.subject.CN}` : 'no certificate');
    },
  };
}

function redirect(res: ServerResponse, status: number, location: string): void {
  res.statusCode = status;
  res.setHeader('location', location);
  res.end();
}

export interface Target {
  server: Server;
  /** e.g. http://127.0.0.1:43123 */
  url: string;
  port: number;
  close(): Promise<void>;
}

function dispatch(routes: () => Record<string, Handler>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const handler = routes()[new URL(req.url ?? '/', 'http://x').pathname];
      if (handler) handler(req, res, body);
      else {
        res.statusCode = 404;
        res.end('not found');
      }
    });
  };
}

async function listen(server: Server, host: string, scheme: string): Promise<Target> {
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `${scheme}://${host}:${port}`,
    port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A plain HTTP target on `host` (a loopback address). */
export async function startHttpTarget(host = '127.0.0.1'): Promise<Target> {
  let target: Target | undefined;
  const routes = targetRoutes(() => target?.url ?? '');
  target = await listen(createHttpServer(dispatch(() => routes)), host, 'http');
  return target;
}

/** An HTTPS target with the given certificate; with `clientCa`, clients without a certificate it signed are refused. */
export async function startHttpsTarget(
  tls: { cert: string; key: string; clientCa?: string },
  host = '127.0.0.1',
): Promise<Target> {
  let target: Target | undefined;
  const routes = targetRoutes(() => target?.url ?? '');
  const server = createHttpsServer(
    {
      cert: tls.cert,
      key: tls.key,
      ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}),
    },
    dispatch(() => routes),
  );
  target = await listen(server, host, 'https');
  return target;
}
