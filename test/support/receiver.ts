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
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const queued: number[] = [];
  const routes = new Map<string, { status: number; body: unknown }>();
  const requests: ReceivedRequest[] = [];
  const receiver = {
    url: '',
    requests,
    defaultStatus: 200,
    answer: (...statuses: number[]) => queued.push(...statuses),
    route: (method: string, path: string, status: number, body: unknown) =>
      routes.set(`${method} ${path}`, { status, body }),
    to: (prefix: string) => requests.filter((r) => r.path.startsWith(prefix)),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '/', headers: req.headers, body, json });
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
