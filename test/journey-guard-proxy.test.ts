import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type GuardProxy, startGuardProxy } from '../libs/journeys/guard-proxy.js';
import { guardedContextOptions, guardedLaunchOptions } from '../libs/journeys/guard-proxy-chromium.js';
import { issue } from './support/pki-forge.js';
import { type Running, startWebSocketServer } from './support/service-servers.js';

/** A 1×1 PNG: the page's own image. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const certificate = issue({ commonName: 'shop.test', names: ['127.0.0.1'] });

/**
 * The page under test: its own image, fetch and WebSocket beside an image from the metadata
 * address, a fetch and a WebSocket to 127.0.0.2; what each did ends up in `window.outcomes`.
 */
function hostilePage(origin: string, forbiddenPort: number, ownSocket: string): string {
  const forbiddenSocket = `${ownSocket.startsWith('wss') ? 'wss' : 'ws'}://127.0.0.2:${forbiddenPort}/`;
  return `<!doctype html><title>Shop</title>
<img id="own" src="/pixel.png" alt="own">
<img id="metadata" src="http://169.254.169.254/latest/meta-data/pixel.png" alt="metadata">
<script>
const image = (img) => new Promise((resolve) => {
  if (img.complete) return resolve(img.naturalWidth > 0 ? 'loaded' : 'failed');
  img.onload = () => resolve('loaded');
  img.onerror = () => resolve('failed');
});
const fetched = (url) => fetch(url).then((r) => 'status ' + r.status, () => 'failed');
const socket = (url) => new Promise((resolve) => {
  const ws = new WebSocket(url);
  ws.onmessage = (m) => { resolve('message ' + m.data); ws.close(); };
  ws.onerror = () => resolve('failed');
});
Promise.all([
  image(document.getElementById('own')),
  image(document.getElementById('metadata')),
  fetched('${origin}/api/own'),
  fetched('http://127.0.0.2:${forbiddenPort}/steal'),
  socket('${ownSocket}'),
  socket('${forbiddenSocket}'),
]).then((all) => { window.outcomes = all; });
</script>`;
}

/** The exempt site: its pages, a redirect to 10.0.0.5 and a count of what it answered. */
function site(pageFor: () => string, hits: string[]): RequestListener {
  return (request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    hits.push(path);
    if (path === '/pixel.png') response.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
    else if (path === '/api/own') response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    else if (path === '/redirect') response.writeHead(302, { location: 'http://10.0.0.5/landing' }).end();
    else response.writeHead(200, { 'content-type': 'text/html' }).end(pageFor());
  };
}

async function listening(server: Server, host: string): Promise<number> {
  server.listen(0, host);
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

describe('Debian chromium behind the guard proxy: nothing a page asks for goes around the guard', () => {
  const hits: string[] = [];
  const ports = { http: 0, https: 0, forbidden: 0, udp: 0 };
  let webSocket: Running;
  let secureWebSocket: Running;
  /** What reached 127.0.0.2, over TCP and UDP: the guard must keep this empty. */
  const forbiddenArrivals: string[] = [];
  const forbidden = createTcpServer((socket: Socket) => {
    forbiddenArrivals.push('tcp');
    socket.destroy();
  });
  const udp = createSocket('udp4', () => forbiddenArrivals.push('udp'));
  const http = createHttpServer(
    site(
      () =>
        hostilePage(`http://127.0.0.1:${ports.http}`, ports.forbidden, `ws://127.0.0.1:${webSocket.port}/`),
      hits,
    ),
  );
  const https = createHttpsServer(
    certificate,
    site(
      () =>
        hostilePage(
          `https://127.0.0.1:${ports.https}`,
          ports.forbidden,
          `wss://127.0.0.1:${secureWebSocket.port}/`,
        ),
      hits,
    ),
  );
  let browser: Browser;
  let proxy: GuardProxy;
  let context: BrowserContext;

  beforeAll(async () => {
    webSocket = await startWebSocketServer({ greet: 'hello' });
    secureWebSocket = await startWebSocketServer({ certificate, greet: 'hello' });
    ports.http = await listening(http, '127.0.0.1');
    ports.https = await listening(https, '127.0.0.1');
    ports.forbidden = await listening(forbidden, '127.0.0.2');
    udp.bind(0, '127.0.0.2');
    await once(udp, 'listening');
    ports.udp = udp.address().port;
    browser = await chromium.launch(
      guardedLaunchOptions(
        process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        // Root in CI containers has no user namespaces for Chromium's sandbox.
        process.getuid?.() === 0 ? ['--no-sandbox'] : [],
      ),
    );
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    for (const server of [http, https]) server.closeAllConnections();
    await Promise.all([http, https, forbidden].map((server) => new Promise((done) => server.close(done))));
    udp.close();
    await Promise.all([webSocket?.close(), secureWebSocket?.close()]);
  });

  /** A run: its own proxy (the exempt site's ports and the WebSockets' only) and a context behind it. */
  async function startRun(): Promise<void> {
    proxy = await startGuardProxy({
      guard: {
        allowPrivateTargets: false,
        exemptAddresses: [ports.http, ports.https, webSocket.port, secureWebSocket.port].map((port) => ({
          address: '127.0.0.1',
          port,
        })),
        // Nothing here needs a name; a lookup would mean something asked for one.
        resolve: async (hostname) => {
          throw new Error(`no lookup expected (${hostname})`);
        },
      },
    });
    // The test's certificate is self-signed; a journey's context leaves certificate errors on.
    context = await browser.newContext({ ...guardedContextOptions(proxy), ignoreHTTPSErrors: true });
  }
  afterEach(async () => {
    await context?.close();
    await proxy?.close();
  });

  it.each(['http', 'https'] as const)(
    'a %s page loads its own image, fetch and WebSocket; the metadata image, the fetch and WebSocket to 127.0.0.2 are refused and named',
    async (scheme) => {
      await startRun();
      const page = await context.newPage();
      const origin = `${scheme}://127.0.0.1:${scheme === 'http' ? ports.http : ports.https}`;
      expect((await page.goto(`${origin}/`))?.status()).toBe(200);
      await page.waitForFunction('Array.isArray(window.outcomes)');
      expect(await page.evaluate('window.outcomes')).toEqual([
        'loaded',
        'failed',
        'status 200',
        'failed',
        'message hello',
        'failed',
      ]);
      const refusals = proxy.refusals().map(({ target, reason }) => `${target}: ${reason}`);
      expect(refusals).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^http:\/\/169\.254\.169\.254\/latest\/meta-data\/pixel\.png: .*link-local/),
          expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.2:${ports.forbidden}/steal: .*loopback`)),
          // The WebSocket, ws or wss alike, is a tunnel.
          expect.stringMatching(new RegExp(`^127\\.0\\.0\\.2:${ports.forbidden}: .*loopback`)),
        ]),
      );
      expect(forbiddenArrivals).toEqual([]);
    },
  );

  it('a redirect to 10.0.0.5 is refused at its hop, and so is a popup opened there', async () => {
    await startRun();
    const page = await context.newPage();
    const answer = await page.goto(`http://127.0.0.1:${ports.http}/redirect`);
    expect(answer?.status()).toBe(403);
    expect(await answer?.request().redirectedFrom()?.response()).toBeTruthy();
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      page.evaluate("window.open('http://10.0.0.5/popup'); null"),
    ]);
    await popup.waitForLoadState();
    // The popup's favicon is refused too; the two that matter are named.
    expect(proxy.refusals()).toEqual(
      expect.arrayContaining([
        { target: 'http://10.0.0.5/landing', reason: expect.stringContaining('private'), times: 1 },
        { target: 'http://10.0.0.5/popup', reason: expect.stringContaining('private'), times: 1 },
      ]),
    );
  });

  it('WebRTC and WebTransport send nothing around the proxy (STUN, TURN and HTTP/3 on 127.0.0.2)', async () => {
    await startRun();
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${ports.http}/`);
    const gathered = await page.evaluate(`(async () => {
      const peer = new RTCPeerConnection({ iceServers: [
        { urls: 'stun:127.0.0.2:${ports.udp}' },
        { urls: 'turn:127.0.0.2:${ports.forbidden}?transport=tcp', username: 'u', credential: 'p' },
      ] });
      const candidates = [];
      peer.onicecandidate = (event) => { if (event.candidate) candidates.push(event.candidate.candidate); };
      peer.createDataChannel('probe');
      await peer.setLocalDescription(await peer.createOffer());
      await new Promise((resolve) => {
        if (peer.iceGatheringState === 'complete') return resolve();
        peer.onicegatheringstatechange = () => peer.iceGatheringState === 'complete' && resolve();
        setTimeout(resolve, 8000);
      });
      peer.close();
      return candidates;
    })()`);
    expect(gathered).toEqual([]);
    // Without a proxy Chromium sends this one's QUIC handshake straight to the address.
    const transport = `new WebTransport('https://127.0.0.2:${ports.udp}/').ready.then(() => 'ready', () => 'failed')`;
    expect(await page.evaluate(transport)).toBe('failed');
    expect(forbiddenArrivals).toEqual([]);
    // Positive control: a datagram that does reach the socket is counted.
    const sender = createSocket('udp4');
    sender.send('ping', ports.udp, '127.0.0.2');
    await expect.poll(() => forbiddenArrivals).toEqual(['udp']);
    sender.close();
    forbiddenArrivals.length = 0;
  });

  it("a context made without the run's proxy loads nothing (the browser-wide proxy fails closed)", async () => {
    const unguarded = await browser.newContext();
    try {
      const before = hits.length;
      const page = await unguarded.newPage();
      await expect(page.goto(`http://127.0.0.1:${ports.http}/`)).rejects.toThrow(/ERR_/);
      expect(hits.length).toBe(before);
    } finally {
      await unguarded.close();
    }
    // Positive control: the same page through a run's proxy reaches the site.
    await startRun();
    const before = hits.length;
    expect((await (await context.newPage()).goto(`http://127.0.0.1:${ports.http}/`))?.status()).toBe(200);
    expect(hits.length).toBeGreaterThan(before);
  });
});
