import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
}

/**
 * A local HTTP server on 127.0.0.1 that records every request and answers with the statuses
 * queued by `answer`, then with `defaultStatus`: a webhook receiver, a chat or incident tool's
 * API, or a monitored site that can be made to fail.
 */
export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Statuses for the next requests, in order. */
  answer(...statuses: number[]): void;
  defaultStatus: number;
  /** A fixed answer for `METHOD /path` (query ignored), before the queued statuses. */
  route(method: string, path: string, status: number, body: unknown): void;
  /** Requests whose path starts with `prefix`. */
  to(prefix: string): ReceivedRequest[];
  /**
   * Holds the answer to the next request whose path starts with `prefix` until `release` is
   * called; `arrived` resolves when that request is in (a request in flight, for races).
   */
  hold(prefix: string): { arrived: Promise<void>; release(): void };
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const queued: number[] = [];
  const routes = new Map<string, { status: number; body: unknown }>();
  const requests: ReceivedRequest[] = [];
  const holds: Array<{ prefix: string; arrive(): void; released: Promise<void> }> = [];
  const receiver = {
    url: '',
    requests,
    defaultStatus: 200,
    answer: (...statuses: number[]) => queued.push(...statuses),
    route: (method: string, path: string, status: number, body: unknown) =>
      routes.set(`${method} ${path}`, { status, body }),
    to: (prefix: string) => requests.filter((r) => r.path.startsWith(prefix)),
    hold: (prefix: string) => {
      let arrive = () => {};
      let release = () => {};
      const arrived = new Promise<void>((resolve) => {
        arrive = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.push({ prefix, arrive, released });
      return { arrived, release };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body, json });
      const held = holds.findIndex((h) => (req.url ?? '/').startsWith(h.prefix));
      if (held >= 0) {
        const [gate] = holds.splice(held, 1);
        gate?.arrive();
        await gate?.released;
      }
      const routed = routes.get(`${req.method} ${(req.url ?? '/').split('?')[0]}`);
      res.statusCode = routed?.status ?? queued.shift() ?? receiver.defaultStatus;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(routed ? routed.body : { ok: res.statusCode < 300 }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
