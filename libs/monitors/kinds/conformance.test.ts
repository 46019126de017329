import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issue } from '../../../test/support/pki-forge.js';
import {
  type Running,
  startGrpcHealthServer,
  startMailServer,
  startUdpServer,
  startWebSocketServer,
} from '../../../test/support/service-servers.js';
import { type ProbeOptions, TlsContexts } from '../../probe/index.js';
import { createProbeCheckBodies } from '../probe-check.schema.js';
import { PROBE_KINDS, type ProbeKindName } from './index.js';

/**
 * What every probe kind must do, whatever it speaks: a kind added to `PROBE_KINDS` without a
 * fixture here fails the first test. Each fixture names settings that reach a real local server
 * (up), settings that reach a server that never answers (timeout), and a host that resolves to a
 * blocked address (the SSRF guard at check time).
 */

const ca = issue({ commonName: 'Conformance CA', isCa: true });
const leaf = issue({ commonName: 'svc.test', names: ['svc.test'], issuer: ca, validToDays: 60 });
const SECRET = 'Bearer conformance-secret-value';

/** Test names go to the local servers; `blocked.test` to an address the guard refuses. */
const probe = (
  allowPrivateTargets: boolean,
  pingCommand?: string,
): ProbeOptions & { pingCommand?: string } => ({
  allowPrivateTargets,
  resolve: async (hostname) =>
    hostname === 'blocked.test' ? ['10.1.2.3'] : hostname.endsWith('.test') ? ['127.0.0.1'] : [],
  tls: new TlsContexts([ca.cert]),
  userAgent: 'webmon-test',
  ...(pingCommand ? { pingCommand } : {}),
});

interface Fixture {
  up: Record<string, unknown>;
  silent: Record<string, unknown>;
  blocked: Record<string, unknown>;
}

const servers: Running[] = [];
const mute: Server[] = [];
const fixtures = {} as Record<ProbeKindName, Fixture>;
let pingInNamespace = '';

async function run(server: Promise<Running>): Promise<number> {
  const running = await server;
  servers.push(running);
  return running.port;
}

/** A TCP port that accepts and never says a word (a greeting, an upgrade, an HTTP/2 preface). */
async function silentPort(): Promise<number> {
  const server = createServer((socket) => socket.on('error', () => undefined));
  mute.push(server);
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return (server.address() as { port: number }).port;
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'webmon-conformance-'));
  pingInNamespace = join(dir, 'ping-in-netns');
  writeFileSync(
    pingInNamespace,
    `#!/bin/sh\nexec unshare ${process.getuid?.() === 0 ? '-n' : '-rn'} sh -c 'ip link set lo up && sysctl -qw net.ipv4.icmp_echo_ignore_all=1 && exec ping "$@"' ping "$@"\n`,
  );
  chmodSync(pingInNamespace, 0o755);
  const quiet = await silentPort();
  const quietUdp = await run(startUdpServer(() => null));
  fixtures.icmp = {
    up: { host: 'svc.test', count: 1 },
    silent: { host: 'svc.test', count: 1 },
    blocked: { host: 'blocked.test', count: 1 },
  };
  fixtures.udp = {
    up: {
      host: 'svc.test',
      port: await run(
        startUdpServer((d) => Buffer.concat([Buffer.alloc(100_000 - d.length, 0x61), d]).subarray(0, 60_000)),
      ),
      payload: 'hi',
    },
    silent: { host: 'svc.test', port: quietUdp, payload: 'hi' },
    blocked: { host: 'blocked.test', port: quietUdp },
  };
  fixtures.grpc = {
    up: {
      host: 'svc.test',
      port: await run(startGrpcHealthServer({ '': 'SERVING' }, leaf)),
      tls: true,
      metadata: { authorization: SECRET },
    },
    silent: { host: 'svc.test', port: quiet },
    blocked: { host: 'blocked.test', port: quiet },
  };
  const ws = await run(
    startWebSocketServer({ certificate: leaf, reply: (m) => `${'x'.repeat(50_000)}${m}` }),
  );
  fixtures.websocket = {
    up: { url: `wss://svc.test:${ws}/`, headers: { Authorization: SECRET }, send: 'hello' },
    silent: { url: `ws://svc.test:${quiet}/` },
    blocked: { url: `ws://blocked.test:${quiet}/` },
  };
  for (const protocol of ['smtp', 'imap', 'pop3'] as const)
    fixtures[protocol] = {
      up: { host: 'svc.test', port: await run(startMailServer(protocol, leaf)), security: 'starttls' },
      silent: { host: 'svc.test', port: quiet, security: 'none' },
      blocked: { host: 'blocked.test', port: quiet, security: 'none' },
    };
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  for (const server of mute) server.close();
});

const context = (options: ProbeOptions, timeoutMs = 3000) => ({
  probe: options,
  timeoutMs,
  alerting: { sslExpiryWarningDays: 14 },
});

describe('every probe kind conforms: one registry, the same promises', () => {
  it('has a fixture, a feature, a limit, a lane and a description per kind', () => {
    for (const kind of Object.values(PROBE_KINDS)) {
      expect(fixtures[kind.kind], `${kind.kind} has no conformance fixture`).toBeDefined();
      expect(kind.description.length).toBeGreaterThan(40);
    }
  });

  for (const name of Object.keys(PROBE_KINDS) as ProbeKindName[]) {
    describe(name, () => {
      const kind = PROBE_KINDS[name];
      it('settings round-trip: the create body takes them, the kind’s schema reads them back the same, unknown fields refused', () => {
        const body = createProbeCheckBodies[name].parse({ kind: name, ...fixtures[name].up });
        const { kind: _, name: __, intervalSeconds, timeoutSeconds, ...settings } = body;
        expect({ intervalSeconds, timeoutSeconds }).toEqual({ intervalSeconds: 300, timeoutSeconds: 10 });
        const stored = kind.settings.parse(settings);
        expect(kind.settings.parse(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
        expect(
          createProbeCheckBodies[name].safeParse({ kind: name, ...fixtures[name].up, nope: 1 }).success,
        ).toBe(false);
      });

      it('up against its real local server, with timings and an address', async () => {
        const options = probe(true);
        const outcome = await kind.check(kind.settings.parse(fixtures[name].up), context(options));
        expect(outcome.verdict, JSON.stringify(outcome.evidence)).toMatchObject({ status: 'up' });
        expect(outcome.address).toBe('127.0.0.1');
        expect(outcome.timings.totalMs).toBeGreaterThan(0);
      });

      it('evidence is bounded (under 8 KiB as JSON) and never holds a secret it was given', async () => {
        const outcome = await kind.check(kind.settings.parse(fixtures[name].up), context(probe(true)));
        const json = JSON.stringify(outcome.evidence);
        expect(json.length).toBeLessThan(8 * 1024);
        expect(json).not.toContain('conformance-secret-value');
      });

      it('a server that never answers is down with TIMEOUT (or all replies lost), within its timeout', async () => {
        const options = name === 'icmp' ? probe(true, pingInNamespace) : probe(true);
        const started = Date.now();
        const outcome = await kind.check(kind.settings.parse(fixtures[name].silent), context(options, 1500));
        expect(Date.now() - started).toBeLessThan(1500 + 1000);
        expect(outcome.verdict.status).toBe('down');
        expect(outcome.verdict.code).toMatch(name === 'icmp' ? /^(ICMP_NO_REPLY|TIMEOUT)$/ : /^TIMEOUT$/);
      });

      it('a name that resolves to a blocked address is refused at check time (the SSRF guard), nothing sent', async () => {
        const outcome = await kind.check(kind.settings.parse(fixtures[name].blocked), context(probe(false)));
        expect(outcome.verdict).toMatchObject({ status: 'down', code: 'BLOCKED_TARGET' });
        expect(outcome.address).toBeNull();
      });
    });
  }
});
