import { once } from 'node:events';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issue } from '../../test/support/pki-forge.js';
import { STORE_PORTS } from '../targets/index.js';
import { type PortProbeOptions, type PortProbeRequest, probePort } from './port-probe.js';
import { TlsContexts } from './tls-contexts.js';

const DAY = 86_400_000;
const certificate = issue({ commonName: 'mail.test', names: ['mail.test'], validToDays: 5 });
const options: PortProbeOptions = {
  allowPrivateTargets: true,
  // Test names go to the local servers; the resolver is the one probes are given, so no real DNS.
  resolve: async (hostname) => (hostname.endsWith('.test') ? ['127.0.0.1'] : []),
  tls: new TlsContexts([]),
};

function request(port: number, overrides: Partial<PortProbeRequest> = {}): PortProbeRequest {
  return { host: '127.0.0.1', port, tls: false, expectBanner: null, timeoutMs: 3000, ...overrides };
}

/** A server that records its connections (and whether each was closed) and greets with `onSocket`. */
interface Listening {
  server: Server;
  port: number;
  sockets: Socket[];
  closed: Set<Socket>;
}

async function listen(
  server: Server,
  event: 'connection' | 'secureConnection',
  onSocket: (socket: Socket) => void,
): Promise<Listening> {
  const sockets: Socket[] = [];
  const closed = new Set<Socket>();
  server.on(event, (socket: Socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => closed.add(socket));
    onSocket(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, sockets, closed };
}

/** Resolves when the server has seen every connection it accepted closed (the probe closed its end). */
async function allClosed(target: Listening): Promise<void> {
  await expect
    .poll(() => target.sockets.every((socket) => target.closed.has(socket)), { timeout: 2000 })
    .toBe(true);
}

let banner: Listening;
let silent: Listening;
let smtps: Listening;
let closedPort: number;

beforeAll(async () => {
  banner = await listen(createServer(), 'connection', (socket) => socket.write('220 ready\r\n'));
  silent = await listen(createServer(), 'connection', () => undefined);
  smtps = await listen(
    createTlsServer({ cert: certificate.cert, key: certificate.key }),
    'secureConnection',
    (socket) => socket.write('220\u0007 mail.test ESMTP\r\n250 not this line\r\n'),
  );
  const spare = createServer().listen(0, '127.0.0.1');
  await once(spare, 'listening');
  closedPort = (spare.address() as AddressInfo).port;
  await new Promise((resolve) => spare.close(resolve));
});

afterAll(async () => {
  for (const target of [banner, silent, smtps]) {
    for (const socket of target.sockets) socket.destroy();
    await new Promise((resolve) => target.server.close(resolve));
  }
});

describe('probePort: banners', () => {
  it('reads the first line and matches it against the expected start', async () => {
    const result = await probePort(request(banner.port, { expectBanner: '220' }), options);
    expect(result).toMatchObject({
      address: '127.0.0.1',
      banner: '220 ready',
      bannerMatched: true,
      error: null,
      tls: null,
    });
    expect(result.timings).toMatchObject({ dnsMs: 0, tlsMs: null, bannerMs: expect.any(Number) });
    expect(result.timings.totalMs).toBeGreaterThanOrEqual(result.timings.connectMs);
    await allClosed(banner);
  });

  it('a banner that starts otherwise is an error saying what came', async () => {
    const result = await probePort(request(banner.port, { expectBanner: '250' }), options);
    expect(result.bannerMatched).toBe(false);
    expect(result.banner).toBe('220 ready');
    expect(result.error).toEqual({
      code: 'BANNER',
      message: 'banner did not start with "250": got "220 ready"',
    });
  });

  it('without an expected banner only connects, and reads nothing', async () => {
    const result = await probePort(request(banner.port), options);
    expect(result).toMatchObject({ banner: null, bannerMatched: null, error: null });
    expect(result.timings.bannerMs).toBeNull();
  });

  it('a server that accepts and says nothing times out within the bound, and the socket is closed', async () => {
    const before = silent.sockets.length;
    const started = performance.now();
    const result = await probePort(request(silent.port, { expectBanner: '220', timeoutMs: 400 }), options);
    expect(performance.now() - started).toBeLessThan(400 + 300);
    expect(silent.sockets.length).toBe(before + 1);
    expect(result.error).toEqual({
      code: 'TIMEOUT',
      message: `connected to 127.0.0.1:${silent.port}, but no banner within 400 ms`,
    });
    expect(result).toMatchObject({ address: '127.0.0.1', banner: null, bannerMatched: null });
    await allClosed(silent);
  });

  it('a lookup that never answers times out too', async () => {
    const hanging: PortProbeOptions = { ...options, resolve: () => new Promise(() => undefined) };
    const result = await probePort(request(banner.port, { host: 'slow.test', timeoutMs: 200 }), hanging);
    expect(result.error).toEqual({
      code: 'TIMEOUT',
      message: 'DNS did not answer for slow.test within 200 ms',
    });
    expect(result.address).toBeNull();
  });
});

describe('probePort: TLS', () => {
  it('observes the certificate as HTTPS does, sends SNI and reads the banner after the handshake', async () => {
    const result = await probePort(
      request(smtps.port, { host: 'mail.test', tls: true, expectBanner: '220' }),
      options,
    );
    expect(result.error).toBeNull();
    expect((smtps.sockets.at(-1) as TLSSocket).servername).toBe('mail.test');
    expect(result.banner).toBe('220 mail.test ESMTP');
    expect(result.bannerMatched).toBe(true);
    expect(result.timings.tlsMs).toBeGreaterThan(0);
    // Not trusted (self-signed), yet observed rather than refused: the SSL check judges it.
    expect(result.tls).toMatchObject({ subject: 'CN=mail.test', hostnameMatches: true, chainTrusted: false });
    const daysLeft = ((result.tls?.validTo.getTime() ?? 0) - Date.now()) / DAY;
    expect(daysLeft).toBeGreaterThan(4.9);
    expect(daysLeft).toBeLessThan(5.1);
    await allClosed(smtps);
  });

  it('a trusted chain is said so; a host the certificate does not name is noted, not refused', async () => {
    const trusting = { ...options, tls: new TlsContexts([certificate.cert]) };
    const trusted = await probePort(request(smtps.port, { host: 'mail.test', tls: true }), trusting);
    expect(trusted.tls).toMatchObject({ chainTrusted: true, hostnameMatches: true });
    const byAddress = await probePort(request(smtps.port, { tls: true }), trusting);
    expect(byAddress).toMatchObject({ error: null, tls: { hostnameMatches: false } });
  });

  it('a handshake with a server that does not speak TLS fails as TLS', async () => {
    const result = await probePort(request(banner.port, { tls: true, expectBanner: '220' }), options);
    expect(result.error?.code).toBe('TLS');
    expect(result.error?.message).toMatch(/^TLS handshake failed: /);
    expect(result.tls).toBeNull();
  });
});

describe('probePort: refusals', () => {
  it('a closed port is a refused connection, in words', async () => {
    const result = await probePort(request(closedPort, { expectBanner: '220' }), options);
    expect(result.error).toEqual({
      code: 'CONNECT',
      message: `connection refused: nothing listens on that port, or a firewall refuses it (ECONNREFUSED, 127.0.0.1:${closedPort})`,
    });
    expect(result.address).toBe('127.0.0.1');
  });

  it('loopback is refused unless private targets are allowed or the address is exempt', async () => {
    const guarded: PortProbeOptions = { ...options, allowPrivateTargets: false };
    const before = banner.sockets.length;
    const refused = await probePort(request(banner.port, { expectBanner: '220' }), guarded);
    expect(refused.error).toEqual({
      code: 'BLOCKED_TARGET',
      message: '127.0.0.1 resolves to 127.0.0.1 (loopback), which monitoring may not reach',
    });
    expect(refused.address).toBeNull();
    const byName = await probePort(request(banner.port, { host: 'mail.test' }), guarded);
    expect(byName.error?.message).toBe(
      'mail.test resolves to 127.0.0.1 (loopback), which monitoring may not reach',
    );
    expect(banner.sockets.length).toBe(before);

    const exempt = await probePort(request(banner.port, { expectBanner: '220' }), {
      ...guarded,
      exemptAddresses: [{ address: '127.0.0.1', exceptPorts: STORE_PORTS }],
    });
    expect(exempt).toMatchObject({ error: null, bannerMatched: true });
  });

  // PROBE_EXEMPT_ADDRESSES `127.0.0.1:<port>`, and `127.0.0.1` while a store listens on the banner's port.
  it.each([
    ['the exempt port', () => ({ address: '127.0.0.1', port: banner.port }), null],
    [
      'another port than the exempt one',
      () => ({ address: '127.0.0.1', port: closedPort }),
      'BLOCKED_TARGET',
    ],
    [
      'a store port of an address exempt without one',
      () => ({ address: '127.0.0.1', exceptPorts: [banner.port] }),
      'BLOCKED_TARGET',
    ],
    ['another address', () => ({ address: '127.0.0.2', port: banner.port }), 'BLOCKED_TARGET'],
  ])('an exemption lets through %s only', async (_label, exemption, code) => {
    const before = banner.sockets.length;
    const result = await probePort(request(banner.port, { expectBanner: '220' }), {
      ...options,
      allowPrivateTargets: false,
      exemptAddresses: [exemption()],
    });
    expect(result.error?.code ?? null).toBe(code);
    if (code) {
      expect(result.error?.message).toMatch(/which monitoring may not reach/);
      expect(banner.sockets.length).toBe(before);
    } else expect(result.bannerMatched).toBe(true);
  });

  it('the cloud metadata address is refused', async () => {
    const result = await probePort(request(80, { host: '169.254.169.254' }), {
      ...options,
      allowPrivateTargets: false,
    });
    expect(result.error).toEqual({
      code: 'BLOCKED_TARGET',
      message:
        '169.254.169.254 resolves to 169.254.169.254 (link-local (cloud metadata)), which monitoring may not reach',
    });
  });
});
