import { once } from 'node:events';
import {
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingMessage,
  type RequestListener,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import {
  type AddressInfo,
  createServer as createTcpServer,
  type Server as NetServer,
  type Socket,
  connect as tcpConnect,
} from 'node:net';
import { networkInterfaces } from 'node:os';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issue } from '../../test/support/pki-forge.js';
import {
  endToEndHeaders,
  type GuardProxy,
  type GuardProxyOptions,
  parseAbsoluteHttp,
  parseConnectTarget,
  startGuardProxy,
} from './guard-proxy.js';

const certificate = issue({ commonName: 'shop.test', names: ['shop.test', '127.0.0.1'] });

/** Answers with what it received, and hop-by-hop headers the proxy must not pass back. */
const echo: RequestListener = async (request, response) => {
  const { body } = await answerOf(request);
  response.writeHead(200, [
    ['Connection', 'keep-alive, X-Hop'],
    ['Keep-Alive', 'timeout=5'],
    ['X-Hop', 'dropped'],
    ['X-Kept', 'yes'],
  ]);
  response.end(JSON.stringify({ method: request.method, url: request.url, headers: request.headers, body }));
};

async function listening(server: NetServer, host: string): Promise<number> {
  server.listen(0, host);
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

const http = createHttpServer(echo);
const https = createHttpsServer(certificate, echo);
/** Listens on a refused address: any connection it counts got past the guard. */
const forbiddenConnections: Socket[] = [];
const forbidden = createTcpServer((socket) => {
  forbiddenConnections.push(socket);
  socket.destroy();
});
/** A raw TCP peer kept open, for the tunnels' bounds. */
const quiet = createTcpServer((socket) => socket.on('error', () => undefined));
const ports = { http: 0, https: 0, forbidden: 0, quiet: 0, closed: 0 };
/** Names a resolver gives: one to an exempt address, one to a refused one (DNS rebinding). */
const NAMES: Record<string, string[]> = { 'shop.test': ['127.0.0.1'], 'internal.test': ['10.0.0.5'] };
let lookups: string[] = [];

beforeAll(async () => {
  ports.http = await listening(http, '127.0.0.1');
  ports.https = await listening(https, '127.0.0.1');
  ports.forbidden = await listening(forbidden, '127.0.0.2');
  ports.quiet = await listening(quiet, '127.0.0.1');
  const gone = createTcpServer();
  ports.closed = await listening(gone, '127.0.0.1');
  await new Promise((done) => gone.close(done));
});
afterAll(async () => {
  for (const server of [http, https]) server.closeAllConnections();
  await Promise.all([http, https, forbidden, quiet].map((server) => new Promise((r) => server.close(r))));
});

const proxies: GuardProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  lookups = [];
});

async function started(overrides: Partial<GuardProxyOptions> = {}): Promise<GuardProxy> {
  const proxy = await startGuardProxy({
    guard: {
      allowPrivateTargets: false,
      exemptAddresses: [ports.http, ports.https, ports.quiet, ports.closed].map((port) => ({
        address: '127.0.0.1',
        port,
      })),
      resolve: async (hostname) => {
        lookups.push(hostname);
        return NAMES[hostname] ?? [];
      },
    },
    ...overrides,
  });
  proxies.push(proxy);
  return proxy;
}

const credential = (proxy: GuardProxy) =>
  `Basic ${Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64')}`;

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

async function answerOf(response: IncomingMessage): Promise<Answer> {
  let body = '';
  for await (const chunk of response) body += String(chunk);
  return { status: response.statusCode ?? 0, headers: response.headers, body };
}

/** A plain request through the proxy, as Chromium sends it (absolute-form). */
async function viaProxy(
  proxy: GuardProxy,
  url: string,
  options: {
    authorization?: string | null;
    method?: string;
    body?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const authorization = options.authorization === undefined ? credential(proxy) : options.authorization;
  const request = httpRequest({
    host: '127.0.0.1',
    port: proxy.port,
    method: options.method ?? 'GET',
    path: url,
    agent: false,
    headers: {
      host: URL.canParse(url) ? new URL(url).host : '127.0.0.1',
      'proxy-connection': 'keep-alive',
      ...(authorization ? { 'proxy-authorization': authorization } : {}),
      ...options.headers,
    },
  });
  request.end(options.body);
  const [response] = (await once(request, 'response')) as [IncomingMessage];
  return answerOf(response);
}

/** A CONNECT through the proxy: its status, and the tunnel when it opened one. */
async function tunnelVia(
  proxy: GuardProxy,
  target: string,
  authorization: string | null = credential(proxy),
): Promise<{ status: number; headers: IncomingMessage['headers']; socket: Socket }> {
  const request = httpRequest({
    host: '127.0.0.1',
    port: proxy.port,
    method: 'CONNECT',
    path: target,
    agent: false,
    headers: authorization ? { 'proxy-authorization': authorization } : {},
  });
  request.end();
  const [response, socket] = (await once(request, 'connect')) as [IncomingMessage, Socket];
  socket.on('error', () => undefined);
  return { status: response.statusCode ?? 0, headers: response.headers, socket };
}

/** HTTPS inside an open tunnel: the server's own certificate, checked end to end. */
async function httpsInside(socket: Socket, host: string): Promise<Answer> {
  const secure = tlsConnect({
    socket,
    host,
    servername: host === '127.0.0.1' ? undefined : host,
    ca: certificate.cert,
  });
  await once(secure, 'secureConnect');
  const request = httpRequest({ createConnection: () => secure, path: '/inside', headers: { host } });
  request.end();
  const [response] = (await once(request, 'response')) as [IncomingMessage];
  return answerOf(response);
}

describe('the guard proxy forwards what the guard allows', () => {
  it('plain http: absolute-form forwarded with the target as Host and without hop-by-hop headers', async () => {
    const proxy = await started();
    const answer = await viaProxy(proxy, `http://127.0.0.1:${ports.http}/a/../b?q=1`, {
      method: 'POST',
      body: 'basket=3',
      headers: { connection: 'keep-alive, X-Private', 'x-private': 'hop', 'x-end-to-end': 'kept' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-kept']).toBe('yes');
    expect(answer.headers['x-hop']).toBeUndefined();
    const seen = JSON.parse(answer.body) as { method: string; url: string; headers: Record<string, string> };
    expect(seen).toMatchObject({ method: 'POST', url: '/a/../b?q=1', body: 'basket=3' });
    expect(seen.headers.host).toBe(`127.0.0.1:${ports.http}`);
    expect(seen.headers['x-end-to-end']).toBe('kept');
    for (const hop of ['proxy-authorization', 'proxy-connection', 'x-private'])
      expect(seen.headers[hop]).toBeUndefined();
    expect(proxy.refusals()).toEqual([]);
  });

  it('CONNECT: a tunnel to the judged address, by IP or by a name resolved once; TLS stays end to end', async () => {
    const proxy = await started();
    for (const host of ['127.0.0.1', 'shop.test']) {
      const tunnel = await tunnelVia(proxy, `${host}:${ports.https}`);
      expect(tunnel.status).toBe(200);
      const answer = await httpsInside(tunnel.socket, host);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ url: '/inside' });
      tunnel.socket.destroy();
    }
    expect(lookups).toEqual(['shop.test']);
  });

  it('a name is resolved once per request and that address connected to: a rebinding answer comes too late', async () => {
    let answers = 0;
    const proxy = await started({
      guard: {
        allowPrivateTargets: false,
        exemptAddresses: [{ address: '127.0.0.1', port: ports.http }],
        resolve: async () => (answers++ === 0 ? ['127.0.0.1'] : ['127.0.0.2']),
      },
    });
    expect((await viaProxy(proxy, `http://rebind.test:${ports.http}/`)).status).toBe(200);
    expect(answers).toBe(1);
    expect((await viaProxy(proxy, `http://rebind.test:${ports.http}/`)).status).toBe(403);
    expect(proxy.refusals()).toEqual([
      expect.objectContaining({
        target: `http://rebind.test:${ports.http}/`,
        reason: expect.stringContaining('loopback'),
      }),
    ]);
  });

  it('an allowed destination that does not answer, or a name without an address, is a 502, not a refusal', async () => {
    const proxy = await started();
    for (const host of [`127.0.0.1:${ports.closed}`, 'nowhere.test:8080']) {
      expect((await viaProxy(proxy, `http://${host}/`)).status).toBe(502);
      expect((await tunnelVia(proxy, host)).status).toBe(502);
    }
    expect(proxy.refusals()).toEqual([]);
  });
});

describe('the guard proxy refuses, and records why', () => {
  it.each([
    ['127.0.0.2', 'loopback'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['10.0.0.5', 'private'],
    ['internal.test', 'internal.test resolves to 10.0.0.5 (private)'],
  ])('%s over plain http and CONNECT: %s', async (host, reason) => {
    const proxy = await started();
    const port = host === '127.0.0.2' ? ports.forbidden : 8080;
    const answer = await viaProxy(proxy, `http://${host}:${port}/latest/meta-data?token=secret`);
    expect(answer.status).toBe(403);
    // The page learns no resolved address; the run does.
    expect(answer.body).not.toContain('10.0.0.5');
    const tunnel = await tunnelVia(proxy, `${host}:${port}`);
    expect(tunnel.status).toBe(403);
    expect(proxy.refusals()).toEqual([
      {
        target: `http://${host}:${port}/latest/meta-data`,
        reason: expect.stringContaining(reason),
        times: 1,
      },
      { target: `${host}:${port}`, reason: expect.stringContaining(reason), times: 1 },
    ]);
    expect(forbiddenConnections).toHaveLength(0);
  });

  it('the refused address is a live server that the guard kept out (a direct connection is counted)', async () => {
    const direct = tcpConnect({ host: '127.0.0.2', port: ports.forbidden });
    direct.on('error', () => undefined);
    await expect.poll(() => forbiddenConnections.length).toBe(1);
    forbiddenConnections.length = 0;
  });

  it('an exempt address on another port, and the ports browsers may not use, are refused', async () => {
    const proxy = await started();
    expect((await tunnelVia(proxy, `127.0.0.1:${ports.forbidden}`)).status).toBe(403);
    expect((await tunnelVia(proxy, 'shop.test:25')).status).toBe(403);
    expect(proxy.refusals().map((refusal) => refusal.reason)).toEqual([
      expect.stringContaining(`exempt, but not on port ${ports.forbidden}`),
      "port 25 is one browsers may not use (fetch's bad ports)",
    ]);
  });

  it('a page refused in a loop counts up, and the list stays bounded', async () => {
    const proxy = await started({ maxRefusalsKept: 2 });
    for (const path of ['/a', '/a', '/b', '/c']) await viaProxy(proxy, `http://10.0.0.5${path}`);
    expect(proxy.refusals().map(({ target, times }) => [target, times])).toEqual([
      ['http://10.0.0.5/a', 2],
      ['http://10.0.0.5/b', 1],
    ]);
  });

  it("without the run's credential: 407 asking for it, before anything is resolved or recorded", async () => {
    const proxy = await started();
    const wrong = `Basic ${Buffer.from(`${proxy.username}:nope`).toString('base64')}`;
    for (const authorization of [null, wrong]) {
      const answer = await viaProxy(proxy, `http://shop.test:${ports.http}/`, { authorization });
      expect(answer.status).toBe(407);
      expect(answer.headers['proxy-authenticate']).toMatch(/^Basic realm=/);
      const tunnel = await tunnelVia(proxy, `shop.test:${ports.https}`, authorization);
      expect(tunnel.status).toBe(407);
      expect(tunnel.headers['proxy-authenticate']).toMatch(/^Basic realm=/);
    }
    expect(lookups).toEqual([]);
    expect(proxy.refusals()).toEqual([]);
    // Positive control: the same requests with it get through.
    expect((await viaProxy(proxy, `http://shop.test:${ports.http}/`)).status).toBe(200);
  });

  it("requests that are not a forward proxy's are answered 400", async () => {
    const proxy = await started();
    expect((await viaProxy(proxy, '/origin-form')).status).toBe(400);
    expect((await tunnelVia(proxy, 'no-port')).status).toBe(400);
  });
});

describe('the guard proxy is bounded', () => {
  it('listens on 127.0.0.1 only', async () => {
    const proxy = await started();
    expect(proxy.server).toBe(`http://127.0.0.1:${proxy.port}`);
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry && !entry.internal && entry.family === 'IPv4');
    if (!outside) return;
    const attempt = tcpConnect({ host: outside.address, port: proxy.port });
    const [error] = (await once(attempt, 'error')) as [NodeJS.ErrnoException];
    expect(error.code).toBe('ECONNREFUSED');
  });

  it('a silent tunnel is closed after the idle timeout, and close() ends the open ones', async () => {
    const proxy = await started({ idleTimeoutMs: 200 });
    const idle = await tunnelVia(proxy, `127.0.0.1:${ports.quiet}`);
    expect(idle.status).toBe(200);
    await once(idle.socket, 'close');
    const open = await tunnelVia(proxy, `127.0.0.1:${ports.quiet}`);
    expect(open.status).toBe(200);
    expect(open.socket.destroyed).toBe(false);
    await proxy.close();
    await once(open.socket, 'close');
  });

  it('connections past the cap are dropped and recorded', async () => {
    const proxy = await started({ maxConnections: 2 });
    const held = [
      await tunnelVia(proxy, `127.0.0.1:${ports.quiet}`),
      await tunnelVia(proxy, `127.0.0.1:${ports.quiet}`),
    ];
    expect(held.map((tunnel) => tunnel.status)).toEqual([200, 200]);
    const third = tcpConnect({ host: '127.0.0.1', port: proxy.port });
    third.on('error', () => undefined);
    await once(third, 'close');
    expect(proxy.refusals()).toEqual([
      { target: 'a connection to the proxy', reason: 'over the 2 a run may hold open at once', times: 1 },
    ]);
  });
});

describe('request targets and headers', () => {
  it.each([
    ['example.com:443', { hostname: 'example.com', port: 443 }],
    ['[::1]:8443', { hostname: '[::1]', port: 8443 }],
    ['10.0.0.5:80', { hostname: '10.0.0.5', port: 80 }],
    ['example.com', null],
    ['example.com:0', null],
    ['example.com:65536', null],
    ['user@example.com:443', null],
  ])('CONNECT %s', (authority, expected) => {
    expect(parseConnectTarget(authority)).toEqual(expected);
  });

  it.each([
    [
      'http://shop.test/a/../b?x=1',
      { hostname: 'shop.test', port: 80, authority: 'shop.test', path: '/a/../b?x=1' },
    ],
    ['http://[::1]:8080?x', { hostname: '[::1]', port: 8080, authority: '[::1]:8080', path: '/?x' }],
    ['HTTP://0x7f000001/', { hostname: '127.0.0.1', port: 80, authority: '127.0.0.1', path: '/' }],
    ['https://shop.test/', null],
    ['/origin-form', null],
    ['http://user:pass@shop.test/', null],
  ])('absolute-form %s', (target, expected) => {
    expect(parseAbsoluteHttp(target)).toEqual(expected);
  });

  it('drops hop-by-hop headers and those Connection names, keeps the rest in order', () => {
    expect(
      endToEndHeaders([
        'Connection',
        'keep-alive, X-Trace',
        'X-Trace',
        '1',
        'Transfer-Encoding',
        'chunked',
        'Set-Cookie',
        'a=1',
        'Proxy-Authorization',
        'Basic x',
        'Set-Cookie',
        'b=2',
      ]),
    ).toEqual(['Set-Cookie', 'a=1', 'Set-Cookie', 'b=2']);
  });
});
