import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { issue } from '../../test/support/pki-forge.js';

export interface TargetFarm {
  /** Base URLs; a website's page is `<base>/site/<id>`. */
  http: string;
  https: string;
  /** The CA that signed the HTTPS certificate (for 127.0.0.1), PEM: what a checker must trust. */
  caPem: string;
  /** Requests answered so far, HTTP and HTTPS together. */
  hits(): number;
  close(): Promise<void>;
}

/** A 2 KB page with the keyword "Welcome" in it, as the peers benchmark's conditions expect. */
const PAGE = Buffer.from(
  `<!doctype html><html><head><title>Shop</title></head><body><h1>Welcome</h1><p>${'lorem ipsum '.repeat(160)}</p></body></html>`,
);

/**
 * The benchmark's targets on 127.0.0.1: every request gets the page and `Connection: close`, so each
 * check of every system opens its own connection (and does a full TLS handshake over HTTPS).
 */
export async function startTargetFarm(): Promise<TargetFarm> {
  let hits = 0;
  const answer = (_request: IncomingMessage, response: ServerResponse) => {
    hits++;
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': PAGE.length,
      connection: 'close',
    });
    response.end(PAGE);
  };
  const ca = issue({ commonName: 'webmon peers benchmark CA', isCa: true, validToDays: 2 });
  const certificate = issue({ commonName: '127.0.0.1', names: ['127.0.0.1'], issuer: ca, validToDays: 2 });
  const servers: Server[] = [
    createHttpServer({ keepAlive: false }, answer),
    createHttpsServer({ cert: certificate.cert, key: certificate.key }, answer),
  ];
  const ports = await Promise.all(
    servers.map(
      (server) =>
        new Promise<number>((resolve) =>
          server.listen(0, '127.0.0.1', 1024, () => resolve((server.address() as AddressInfo).port)),
        ),
    ),
  );
  return {
    http: `http://127.0.0.1:${ports[0]}`,
    https: `https://127.0.0.1:${ports[1]}`,
    caPem: ca.cert,
    hits: () => hits,
    close: async () => {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
            }),
        ),
      );
    },
  };
}

/**
 * Waits until the farm sees at least 95 % of `perSecond` over a 5 s span (a checker's steady state:
 * Gatus starts its endpoints 222 ms apart), printing the rate as it climbs, then `settleSeconds` more.
 * Throws after `timeoutMs`.
 */
export async function untilSteady(
  farm: TargetFarm,
  perSecond: number,
  timeoutMs: number,
  settleSeconds: number,
  say: (message: string) => void,
): Promise<void> {
  const started = Date.now();
  const samples: number[] = [farm.hits()];
  let lastSaid = 0;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    samples.push(farm.hits());
    if (samples.length > 6) samples.shift();
    const rate = samples.length === 6 ? (samples[5]! - samples[0]!) / 5 : 0;
    if (rate >= perSecond * 0.95) {
      // One interval more: a process just started still compiles its hot paths and fills caches.
      say(`  steady at ${rate.toFixed(1)} checks/s; settling ${settleSeconds} s before measuring`);
      await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
      return;
    }
    if (Date.now() - lastSaid >= 10_000) {
      lastSaid = Date.now();
      say(`  ramping up: ${rate.toFixed(1)} of ${perSecond.toFixed(1)} checks/s at the farm`);
    }
    if (Date.now() - started > timeoutMs)
      throw new Error(
        `the checker never reached ${perSecond.toFixed(1)} checks/s (last ${rate.toFixed(1)}/s) within ${Math.round(timeoutMs / 1000)} s`,
      );
  }
}
