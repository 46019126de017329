import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issue } from '../../test/support/pki-forge.js';
import {
  type Running,
  startGrpcHealthServer,
  startMailServer,
  startUdpServer,
  startWebSocketServer,
} from '../../test/support/service-servers.js';
import { decodeHealthResponse, probeGrpc } from './grpc-probe.js';
import { parsePingOutput, probeIcmp } from './icmp-probe.js';
import { probeMail } from './mail-probe.js';
import { TlsContexts } from './tls-contexts.js';
import { probeUdp } from './udp-probe.js';
import { probeWebSocket } from './websocket-probe.js';

const ca = issue({ commonName: 'Test CA', isCa: true });
const certificate = issue({ commonName: 'mail.test', names: ['mail.test'], issuer: ca, validToDays: 40 });
const options = {
  allowPrivateTargets: true,
  resolve: async (hostname: string) => (hostname.endsWith('.test') ? ['127.0.0.1'] : []),
  tls: new TlsContexts([ca.cert]),
};
const guarded = { ...options, allowPrivateTargets: false };
const servers: Running[] = [];
const started = async <T extends Running>(server: Promise<T>): Promise<T> => {
  const running = await server;
  servers.push(running);
  return running;
};
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe('mail servers: greeting, STARTTLS or TLS at once, the certificate, each step timed', () => {
  const ports: Record<string, number> = {};
  beforeAll(async () => {
    for (const protocol of ['smtp', 'imap', 'pop3'] as const) {
      ports[`${protocol}-starttls`] = (await started(startMailServer(protocol, certificate))).port;
      ports[`${protocol}-tls`] = (
        await started(startMailServer(protocol, certificate, { implicitTls: true }))
      ).port;
    }
    ports.plain = (await started(startMailServer('smtp', certificate, { offersStartTls: false }))).port;
    ports.wrong = (await started(startMailServer('smtp', certificate, { greeting: '554 go away' }))).port;
  });

  for (const protocol of ['smtp', 'imap', 'pop3'] as const) {
    it(`${protocol}: STARTTLS upgrades and the certificate is seen; TLS at once too`, async () => {
      const upgraded = await probeMail(
        {
          protocol,
          host: 'mail.test',
          port: ports[`${protocol}-starttls`] as number,
          security: 'starttls',
          timeoutMs: 3000,
        },
        options,
      );
      expect(upgraded.error).toBeNull();
      expect(upgraded.greeting).toMatch(/ready/);
      expect(upgraded.tls?.hostnameMatches).toBe(true);
      expect(upgraded.tls?.chainTrusted).toBe(true);
      expect(upgraded.timings.starttlsMs).toBeGreaterThan(0);
      expect(upgraded.timings.tlsMs).toBeGreaterThan(0);
      const implicit = await probeMail(
        {
          protocol,
          host: 'mail.test',
          port: ports[`${protocol}-tls`] as number,
          security: 'tls',
          timeoutMs: 3000,
        },
        options,
      );
      expect(implicit.error).toBeNull();
      expect(implicit.tls?.subject).toContain('mail.test');
      expect(implicit.timings.starttlsMs).toBeNull();
    });
  }

  it('a server that does not offer STARTTLS, a wrong greeting, nothing listening, a blocked address', async () => {
    const noTls = await probeMail(
      {
        protocol: 'smtp',
        host: 'mail.test',
        port: ports.plain as number,
        security: 'starttls',
        timeoutMs: 3000,
      },
      options,
    );
    expect(noTls.error).toEqual({
      code: 'STARTTLS',
      message: expect.stringContaining('does not offer STARTTLS'),
    });
    const plain = await probeMail(
      { protocol: 'smtp', host: 'mail.test', port: ports.plain as number, security: 'none', timeoutMs: 3000 },
      options,
    );
    expect(plain.error).toBeNull();
    expect(plain.tls).toBeNull();
    const wrong = await probeMail(
      { protocol: 'smtp', host: 'mail.test', port: ports.wrong as number, security: 'none', timeoutMs: 3000 },
      options,
    );
    expect(wrong.error?.code).toBe('GREETING');
    expect(wrong.error?.message).toContain('554 go away');
    const imapToSmtp = await probeMail(
      {
        protocol: 'imap',
        host: 'mail.test',
        port: ports['smtp-starttls'] as number,
        security: 'none',
        timeoutMs: 3000,
      },
      options,
    );
    expect(imapToSmtp.error?.code).toBe('GREETING');
    const blocked = await probeMail(
      { protocol: 'smtp', host: '127.0.0.1', port: ports.plain as number, security: 'none', timeoutMs: 3000 },
      guarded,
    );
    expect(blocked.error?.code).toBe('BLOCKED_TARGET');
  });

  it('a server that accepts and says nothing times out, naming the greeting', async () => {
    const silent = await started(startUdpServer(() => null));
    const { createServer } = await import('node:net');
    const mute = createServer((socket) => socket.on('error', () => undefined));
    mute.listen(0, '127.0.0.1');
    await new Promise((resolve) => mute.once('listening', resolve));
    const port = (mute.address() as { port: number }).port;
    const observed = await probeMail(
      { protocol: 'pop3', host: 'mail.test', port, security: 'none', timeoutMs: 400 },
      options,
    );
    expect(observed.error).toEqual({
      code: 'TIMEOUT',
      message: expect.stringContaining('no greeting within 400 ms'),
    });
    mute.close();
    await silent.close();
    servers.splice(servers.indexOf(silent), 1);
  });
});

describe('UDP: one datagram out, the first back', () => {
  it('echoes, times the reply, and bounds what it keeps; silence is a timeout; no listener is unreachable', async () => {
    const echo = await started(startUdpServer((datagram) => Buffer.concat([Buffer.from('re:'), datagram])));
    const answered = await probeUdp(
      { host: 'mail.test', port: echo.port, payload: Buffer.from('ping'), timeoutMs: 2000 },
      options,
    );
    expect(answered.error).toBeNull();
    expect(answered.reply?.toString()).toBe('re:ping');
    expect(answered.timings.replyMs).toBeGreaterThan(0);
    const big = await started(startUdpServer(() => Buffer.alloc(20_000, 0x61)));
    const bounded = await probeUdp(
      { host: '127.0.0.1', port: big.port, payload: Buffer.from('x'), timeoutMs: 2000 },
      options,
    );
    expect(bounded.replyBytes).toBe(20_000);
    expect(bounded.reply?.length).toBe(4096);
    const silent = await started(startUdpServer(() => null));
    const timedOut = await probeUdp(
      { host: '127.0.0.1', port: silent.port, payload: Buffer.from('x'), timeoutMs: 300 },
      options,
    );
    expect(timedOut.error).toEqual({
      code: 'TIMEOUT',
      message: expect.stringContaining('no reply from 127.0.0.1'),
    });
    const closedPort = silent.port;
    await silent.close();
    servers.splice(servers.indexOf(silent), 1);
    const unreachable = await probeUdp(
      { host: '127.0.0.1', port: closedPort, payload: Buffer.from('x'), timeoutMs: 1000 },
      options,
    );
    expect(unreachable.error?.code).toBe('UNREACHABLE');
    const blocked = await probeUdp(
      { host: '127.0.0.1', port: echo.port, payload: Buffer.from('x'), timeoutMs: 1000 },
      guarded,
    );
    expect(blocked.error?.code).toBe('BLOCKED_TARGET');
  });
});

describe('WebSocket: the upgrade, the subprotocol, a message and its reply', () => {
  it('over ws and wss, with headers and a subprotocol; a refused upgrade and a silent server', async () => {
    const plain = await started(
      startWebSocketServer({ protocols: ['chat.v2'], requireHeader: { name: 'X-Token', value: 'letmein' } }),
    );
    const ok = await probeWebSocket(
      {
        url: `ws://mail.test:${plain.port}/socket`,
        headers: { 'X-Token': 'letmein' },
        subprotocol: 'chat.v2',
        send: 'hello',
        awaitReply: true,
        timeoutMs: 3000,
      },
      options,
    );
    expect(ok.error).toBeNull();
    expect(ok).toMatchObject({ httpStatus: 101, protocol: 'chat.v2', reply: 'hello' });
    expect(ok.timings.upgradeMs).toBeGreaterThan(0);
    const refused = await probeWebSocket(
      {
        url: `ws://mail.test:${plain.port}/`,
        headers: {},
        subprotocol: null,
        send: null,
        awaitReply: false,
        timeoutMs: 3000,
      },
      options,
    );
    expect(refused.error?.code).toBe('UPGRADE');
    expect(refused.httpStatus).toBe(403);
    const secure = await started(startWebSocketServer({ certificate, greet: 'welcome', reply: () => null }));
    const greeted = await probeWebSocket(
      {
        url: `wss://mail.test:${secure.port}/`,
        headers: {},
        subprotocol: null,
        send: null,
        awaitReply: true,
        timeoutMs: 3000,
      },
      options,
    );
    expect(greeted.error).toBeNull();
    expect(greeted.reply).toBe('welcome');
    expect(greeted.tls?.hostnameMatches).toBe(true);
    const silent = await probeWebSocket(
      {
        url: `wss://mail.test:${secure.port}/`,
        headers: {},
        subprotocol: null,
        send: 'anyone?',
        awaitReply: true,
        timeoutMs: 500,
      },
      { ...options },
    );
    // The greeting is the first message back, whatever was sent.
    expect(silent.reply).toBe('welcome');
    const blocked = await probeWebSocket(
      {
        url: `ws://127.0.0.1:${plain.port}/`,
        headers: {},
        subprotocol: null,
        send: null,
        awaitReply: false,
        timeoutMs: 1000,
      },
      guarded,
    );
    expect(blocked.error?.code).toBe('BLOCKED_TARGET');
  });
});

describe('gRPC: the standard health check', () => {
  it('decodes a response, unknown fields skipped', () => {
    expect(decodeHealthResponse(Buffer.from([0x08, 0x01]))).toBe('SERVING');
    expect(decodeHealthResponse(Buffer.from([0x12, 0x02, 0x61, 0x62, 0x08, 0x02]))).toBe('NOT_SERVING');
    expect(decodeHealthResponse(Buffer.alloc(0))).toBe('UNKNOWN');
  });

  it('plaintext and TLS, per service, with metadata; an unknown service is a gRPC error', async () => {
    const plain = await started(startGrpcHealthServer({ '': 'SERVING', 'shop.Cart': 'NOT_SERVING' }));
    const whole = await probeGrpc(
      {
        host: 'mail.test',
        port: plain.port,
        tls: false,
        service: '',
        metadata: { 'x-probe': 'webmon' },
        timeoutMs: 3000,
      },
      options,
    );
    expect(whole.error).toBeNull();
    expect(whole.servingStatus).toBe('SERVING');
    expect(plain.seenMetadata.at(-1)?.['x-probe']).toBe('webmon');
    const cart = await probeGrpc(
      {
        host: 'mail.test',
        port: plain.port,
        tls: false,
        service: 'shop.Cart',
        metadata: {},
        timeoutMs: 3000,
      },
      options,
    );
    expect(cart.servingStatus).toBe('NOT_SERVING');
    const unknown = await probeGrpc(
      { host: 'mail.test', port: plain.port, tls: false, service: 'nope', metadata: {}, timeoutMs: 3000 },
      options,
    );
    expect(unknown.error?.code).toBe('GRPC');
    expect(unknown.grpcStatus).toBe('NOT_FOUND');
    const secure = await started(startGrpcHealthServer({ '': 'SERVING' }, certificate));
    const overTls = await probeGrpc(
      { host: 'mail.test', port: secure.port, tls: true, service: '', metadata: {}, timeoutMs: 3000 },
      options,
    );
    expect(overTls.error).toBeNull();
    expect(overTls.servingStatus).toBe('SERVING');
    expect(overTls.tls?.subject).toContain('mail.test');
    const blocked = await probeGrpc(
      { host: '127.0.0.1', port: plain.port, tls: false, service: '', metadata: {}, timeoutMs: 1000 },
      guarded,
    );
    expect(blocked.error?.code).toBe('BLOCKED_TARGET');
  });
});

describe('ICMP through the system ping', () => {
  it('parses iputils output', () => {
    const output =
      'PING 10.0.0.1 (10.0.0.1) 56(84) bytes of data.\n64 bytes from 10.0.0.1: icmp_seq=1 ttl=64 time=0.072 ms\n64 bytes from 10.0.0.1: icmp_seq=3 ttl=64 time=12.5 ms\n\n--- 10.0.0.1 ping statistics ---\n3 packets transmitted, 2 received, 33.3333% packet loss, time 402ms\n';
    expect(parsePingOutput(output)).toEqual({ sent: 3, received: 2, rttsMs: [0.072, 12.5] });
    expect(parsePingOutput('ping: socket: Operation not permitted')).toEqual({
      sent: null,
      received: null,
      rttsMs: [],
    });
  });

  it('pings the loopback address the guard allows, and refuses it when it does not', async () => {
    const seen = await probeIcmp({ host: 'mail.test', count: 2, intervalMs: 200, timeoutMs: 3000 }, options);
    expect(seen.error).toBeNull();
    expect(seen).toMatchObject({ address: '127.0.0.1', sent: 2, received: 2 });
    expect(seen.rttsMs).toHaveLength(2);
    const blocked = await probeIcmp(
      { host: '127.0.0.1', count: 1, intervalMs: 200, timeoutMs: 3000 },
      guarded,
    );
    expect(blocked.error?.code).toBe('BLOCKED_TARGET');
    // A worker that cannot ping has no result to give (the check is not made), not a down host.
    await expect(
      probeIcmp(
        { host: '127.0.0.1', count: 1, intervalMs: 200, timeoutMs: 3000 },
        { ...options, pingCommand: 'no-such-ping-program' },
      ),
    ).rejects.toThrow('not installed');
  });

  it('a host that answers no echo request: every request lost, nothing sent off this machine', async () => {
    // The real ping, run in a network namespace of its own whose loopback ignores echo requests:
    // the probe's path is the one it always takes, and no packet can leave the machine.
    const dir = mkdtempSync(join(tmpdir(), 'webmon-netns-'));
    const pingCommand = join(dir, 'ping-in-netns');
    const shareFlags = process.getuid?.() === 0 ? '-n' : '-rn';
    writeFileSync(
      pingCommand,
      `#!/bin/sh\nexec unshare ${shareFlags} sh -c 'ip link set lo up && sysctl -qw net.ipv4.icmp_echo_ignore_all=1 && exec ping "$@"' ping "$@"\n`,
    );
    chmodSync(pingCommand, 0o755);
    const lost = await probeIcmp(
      { host: '127.0.0.1', count: 2, intervalMs: 200, timeoutMs: 3000 },
      { ...options, pingCommand },
    );
    expect(lost.error, 'unshare and ip (iproute2) must be usable for this test').toBeNull();
    expect(lost).toMatchObject({ sent: 2, received: 0, rttsMs: [] });
  });
});
